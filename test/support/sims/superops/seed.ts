// A SuperOps tenant as the simulator starts it: clients across more than one page of 100, the default
// statuses (New, Open, On Hold, On-Site, Waiting on third party, Resolved, Closed, Abandoned) plus a
// custom "Closure Requested" that sounds closed but is part of the open workflow, the statuses whose
// workflow sets a resolution time (Resolved and Closed, not by their names: "Abandoned" does not),
// priorities, categories, technician groups, hundreds of tickets of the last days (many with the
// subject the contract suite uses, some resolved), and client contracts with quantities.
import { superOpsTime } from './lists.js'
import type { Client, Contract, Ticket } from './types.js'

export const STATUSES = [
  'New',
  'Open',
  'On Hold',
  'On-Site',
  'Waiting on third party',
  'Closure Requested',
  'Resolved',
  'Closed',
  'Abandoned',
]
export const RESOLVING_STATUSES = ['Resolved', 'Closed']
export const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent']
export const CATEGORIES = ['Hardware', 'Software', 'Network', 'Security']
export const GROUPS = [
  { groupId: '7001', name: 'Service Desk' },
  { groupId: '7002', name: 'Security Operations' },
  { groupId: '7003', name: 'Projects' },
]
/** The technician a test acts as, and the integration's own user. */
export const TECHNICIAN = { userId: '501', name: 'Jamie Rivera' }
export const INTEGRATION_USER = { userId: '900', name: 'alertbridge integration' }

export function seedClients(count: number): Client[] {
  return Array.from({ length: count }, (_, i) => ({
    accountId: String(1001 + i),
    name: i === 0 ? 'Acme Corp' : `Client ${String(i + 1).padStart(4, '0')}`,
    stage: 'Active',
    status: i % 17 === 16 ? 'Inactive' : 'Active',
  }))
}

const subjects = ['Malware detected on WS-042', 'Disk full on SRV01', 'Printer offline', 'VPN down']

export function seedTickets(
  clients: Client[],
  count: number,
  nextId: { ticket: number; display: number },
): Ticket[] {
  const now = Date.now()
  return Array.from({ length: count }, (_, i) => {
    const client = i % 3 === 0 ? clients[0] : clients[(i % Math.max(1, clients.length - 1)) + 1]
    const created = new Date(now - ((count - i) * 10 * 24 * 3_600_000) / count)
    const resolved = i % 4 === 0
    const status = resolved ? (i % 12 === 0 ? 'Resolved' : 'Closed') : (STATUSES[i % 5] ?? 'Open')
    return {
      ticketId: String(nextId.ticket++),
      displayId: `T${nextId.display++}`,
      subject: subjects[i % subjects.length] ?? 'Ticket',
      description: 'Seeded ticket.',
      status,
      priority: PRIORITIES[i % PRIORITIES.length] ?? null,
      category: null,
      source: 'EMAIL',
      sourceReferenceId: null,
      client: { accountId: client?.accountId ?? '1001', name: client?.name ?? '' },
      techGroup: GROUPS[0] ?? null,
      technician: TECHNICIAN,
      createdTime: superOpsTime(created),
      updatedTime: superOpsTime(created),
      resolutionTime: resolved ? superOpsTime(created) : null,
    }
  })
}

export function seedContracts(clients: Client[]): Contract[] {
  const [first, second] = clients
  const of = (c: Client | undefined) => ({ accountId: c?.accountId ?? '1001', name: c?.name ?? '' })
  const contract = (id: string, c: Client | undefined, item: string, quantity: number): Contract => ({
    contractId: id,
    name: `${item} (${of(c).name})`,
    client: of(c),
    startDate: '2026-01-01',
    chargeItem: { itemId: `item-${item.toLowerCase().replace(/\W+/g, '-')}`, name: item },
    quantity,
    quantityCalculationType: 'FIXED',
    changes: [],
  })
  return [
    contract('8001', first, 'Endpoint Protection', 25),
    contract('8002', first, 'Managed Backup', 4),
    contract('8003', second, 'Endpoint Protection', 10),
  ]
}
