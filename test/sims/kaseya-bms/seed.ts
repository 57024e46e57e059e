// What a fresh simulated BMS tenant holds: accounts with their locations (the main one not always
// listed first), queues, priorities, statuses in BMS's basic-status classes (with a "Resolved" and a
// "Resolved - Pending Confirmation" that do not complete a ticket), the generic lookup tables, a few
// tickets from before (two of them completed), and recurring-services contracts for usage.
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

export function seedTables(): KaseyaBmsState['tables'] {
  return {
    TicketType: [
      row(1, 'Incident', true),
      row(2, 'Service Request'),
      row(3, 'Problem'),
      row(4, 'Alert'),
      row(5, 'Legacy', false, false),
    ],
    TicketSource: [
      row(1, 'Client Portal'),
      row(2, 'Phone', true),
      row(3, 'Email'),
      row(4, 'Monitoring System'),
      row(5, 'Other'),
    ],
    NoteType: [row(1, 'General', true), row(2, 'Internal'), row(3, 'Resolution')],
  }
}

export function seedTickets(): BmsTicket[] {
  const t = (id: number, title: string, statusId: number, completedDate: string | null): BmsTicket => ({
    id,
    ticketNumber: `T20240301.${String(id).padStart(4, '0')}`,
    title,
    details: title,
    accountId: 1001,
    locationId: 5001,
    statusId,
    priorityId: 3,
    typeId: 1,
    sourceId: 2,
    queueId: 1,
    openDate: '2024-03-01T09:00:00Z',
    completedDate,
    createdOn: '2024-03-01T09:00:00Z',
    notes: [],
  })
  return [
    t(9001, 'Printer offline', 6, '2024-03-02T10:00:00Z'),
    t(9002, 'New starter laptop', 7, '2024-03-05T16:30:00Z'),
    t(9003, 'VPN drops every hour', 2, null),
  ]
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
