// What a fresh simulated BMS tenant holds: accounts with their locations (the main one not always
// listed first), queues, priorities, statuses in BMS's basic-status classes (with a "Resolved" and a
// "Resolved - Pending Confirmation" that do not complete a ticket), the lists behind the generic
// lookup tables, tickets from before — three fixed ones (two completed) and several hundred more, many
// of them recent and on the accounts the tests use, so that a look-up must filter and page — and
// recurring-services contracts for usage.
import type { BmsAccount, BmsContract, BmsStatusRow, BmsTicket, KaseyaBmsState } from './types.js'

const companyWords = ['Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Litware', 'Adatum', 'Proseware']

export function seedAccounts(count: number): BmsAccount[] {
  const fixed: BmsAccount[] = [
    account(1001, 'Acme Corp', true, [
      { id: 5001, name: 'Acme HQ', isMain: true },
      { id: 5002, name: 'Acme Warehouse', isMain: false },
    ]),
    // The main location is not the first one listed.
    account(1002, 'Globex', true, [
      { id: 5003, name: 'Globex Annex', isMain: false },
      { id: 5004, name: 'Globex Main Office', isMain: true },
    ]),
    account(1003, 'Initech (former client)', false, [{ id: 5005, name: 'Initech', isMain: true }]),
    // A person, not a business: BMS has no account name for it.
    account(1004, null, true, [{ id: 5006, name: 'Home', isMain: true }]),
  ]
  const rest = Array.from({ length: Math.max(0, count - fixed.length) }, (_, i) => {
    const id = 1005 + i
    const word = companyWords[i % companyWords.length]
    return account(id, `${word} ${String(i + 1).padStart(4, '0')}`, true, [
      { id: 6000 + i, name: `${word} office`, isMain: true },
    ])
  })
  return [...fixed, ...rest].slice(0, Math.max(count, fixed.length))
}

function account(
  id: number,
  name: string | null,
  isActive: boolean,
  locations: BmsAccount['locations'],
): BmsAccount {
  return { id, name, accountCode: `A${id}`, isActive, locations }
}

/** Basic statuses: 1 new, 2 in progress, 3 waiting, 4 completed. */
export function seedStatuses(): BmsStatusRow[] {
  const s = (
    id: number,
    name: string,
    typeId: number,
    isSystemStatus = 0,
    isActive = true,
  ): BmsStatusRow => ({
    id,
    name,
    typeId,
    statusOrder: id,
    isSystemStatus,
    isActive,
    color: '#3a87ad',
  })
  return [
    s(1, 'New', 1, 1),
    s(2, 'In Progress', 2, 1),
    s(3, 'Waiting Customer Response', 3),
    s(4, 'Resolved', 2),
    s(5, 'Resolved - Pending Confirmation', 3),
    s(6, 'Completed', 4, 1),
    s(7, 'Closed', 4),
    s(8, 'Archived (old)', 4, 0, false),
  ]
}

const row = (id: number, name: string, isDefault = false, isActive = true) => ({
  id,
  name,
  isDefault,
  isActive,
})

export function seedLists(): KaseyaBmsState['lists'] {
  return {
    ticketTypes: [
      row(1, 'Incident', true),
      row(2, 'Service Request'),
      row(3, 'Problem'),
      row(4, 'Alert'),
      row(5, 'Legacy', false, false),
    ],
    sources: [
      row(1, 'Client Portal'),
      row(2, 'Phone', true),
      row(3, 'Email'),
      row(4, 'Monitoring System'),
      row(5, 'Other'),
    ],
    noteTypes: [row(1, 'General', true), row(2, 'Internal'), row(3, 'Resolution')],
  }
}

const ticketWords = ['Disk space low', 'Backup failed', 'Printer offline', 'Malware detected', 'VPN down']

/** Three fixed tickets (two completed), then `more`: recent ones on accounts 1001 and 1002 (whose
 * Details carry references of their own), older ones elsewhere, every fifth one completed. */
export function seedTickets(more: number): BmsTicket[] {
  const t = (
    id: number,
    title: string,
    statusId: number,
    completedDate: string | null,
    accountId = 1001,
    openDate = '2024-03-01T09:00:00Z',
    details = title,
  ): BmsTicket => ({
    id,
    ticketNumber: `T20240301.${String(id).padStart(4, '0')}`,
    title,
    details,
    accountId,
    locationId: accountId === 1002 ? 5004 : accountId === 1001 ? 5001 : 6000 + (accountId - 1005),
    statusId,
    priorityId: 3,
    typeId: 1,
    sourceId: 2,
    queueId: 1,
    openDate,
    completedDate,
    createdOn: openDate,
    notes: [],
  })
  const fixed = [
    t(9001, 'Printer offline', 6, '2024-03-02T10:00:00Z'),
    t(9002, 'New starter laptop', 7, '2024-03-05T16:30:00Z'),
    t(9003, 'VPN drops every hour', 2, null),
  ]
  const now = Date.now()
  const rest = Array.from({ length: more }, (_, i) => {
    const recent = i % 3 !== 2
    const accountId = recent ? 1001 + (i % 2) : 1005 + (i % 20)
    const openDate = new Date(now - (recent ? (i + 1) * 60_000 : (30 + i) * 86_400_000)).toISOString()
    const completed = i % 5 === 4 ? openDate : null
    const title = `${ticketWords[i % ticketWords.length]} on host-${String(i).padStart(3, '0')}`
    return t(
      7000 + i,
      title,
      completed ? 6 : 2,
      completed,
      accountId,
      openDate,
      `${title}\n\nCorrelation ID: seeded-${i}\n\n(ab-ref:seeded-${i})`,
    )
  })
  return [...fixed, ...rest]
}

/**
 * `count` tickets of one account with one title, opened over the last hour before now (a noisy alert's
 * earlier tickets, say), appended to `tickets` with ids after the simulator's own: older than anything
 * made next, each with a reference of its own.
 */
export function crowdTickets(
  state: Pick<KaseyaBmsState, 'tickets' | 'nextId' | 'accounts'>,
  o: { accountId: number; title: string; count: number },
): void {
  const now = Date.now()
  const location = state.accounts.find((a) => a.id === o.accountId)?.locations[0]?.id ?? 5001
  for (let i = 0; i < o.count; i++) {
    const id = state.nextId.ticket++
    const openDate = new Date(now - 3_600_000 + i * Math.floor(3_000_000 / o.count)).toISOString()
    state.tickets.push({
      id,
      ticketNumber: `T${openDate.slice(0, 10).replaceAll('-', '')}.${String(id % 10_000).padStart(4, '0')}`,
      title: o.title,
      details: `${o.title}\n\nCorrelation ID: older-${id}\n\n(ab-ref:older-${id})`,
      accountId: o.accountId,
      locationId: location,
      statusId: 2,
      priorityId: 3,
      typeId: 1,
      sourceId: 2,
      queueId: 1,
      openDate,
      completedDate: null,
      createdOn: openDate,
      notes: [],
    })
  }
}

export function seedContracts(): BmsContract[] {
  const line = (id: number, serviceId: number, serviceName: string, units: number, unitPrice: number) => ({
    id,
    serviceId,
    serviceName,
    description: serviceName,
    units,
    unitCost: unitPrice / 2,
    unitPrice,
    effectiveDate: '2024-01-01T00:00:00Z',
    sortOrder: 1,
    changes: [],
  })
  const contract = (
    id: number,
    name: string,
    accountId: number,
    contractType: BmsContract['contractType'],
    services: BmsContract['services'],
  ): BmsContract => ({
    id,
    name,
    accountId,
    contractType,
    isActive: true,
    isDefault: contractType === 'Recurring Services',
    billingCycle: 'Monthly',
    startDate: '2024-01-01T00:00:00Z',
    endDate: null,
    services,
  })
  return [
    contract(501, 'Acme Managed Services', 1001, 'Recurring Services', [
      line(801, 71, 'Managed Endpoint', 10, 12),
      line(802, 72, 'Backup Seat', 5, 4),
    ]),
    contract(502, 'Acme Block Hours', 1001, 'Block Hours', []),
    contract(503, 'Globex Managed Services', 1002, 'Recurring Services', [
      line(803, 71, 'Managed Endpoint', 25, 11),
    ]),
  ]
}
