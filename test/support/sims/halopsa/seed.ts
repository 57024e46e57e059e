// What a fresh simulated HaloPSA instance holds. Statuses follow Halo's defaults (9 is Closed, 8
// Resolved does not close) plus statuses whose names sound closed but do not close, and one closed
// status whose name does not say so: a client must go by what Halo marks closed. Priorities repeat per
// SLA, as Halo's Policy list does. Recurring invoices have negative ids, as Halo gives them. Tickets:
// several pages of them, most of the first client's, more than a page of those opened in the last day,
// some with the summaries the tests use and a reference of another integration (or none), so that a
// client looking for its own ticket has to narrow the list and check each candidate.
import type {
  HaloClientRecord,
  HaloInvoiceLine,
  HaloOutcome,
  HaloPolicy,
  HaloRecurringInvoice,
  HaloStatusRecord,
  HaloTeam,
  HaloTicket,
  HaloTicketType,
} from './types.js'

const fixed = ['Acme Corporation', 'Globex Ltd', 'Initech', 'Umbrella plc']

export function seedClients(count: number): HaloClientRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 12 + i,
    name: fixed[i] ?? `Client ${String(i + 1).padStart(4, '0')}`,
    // One inactive client: Halo leaves it out of lists unless includeinactive is set.
    inactive: i === 3,
    toplevel_id: 1,
    main_site_id: 100 + i,
  }))
}

export function seedTeams(): HaloTeam[] {
  return [
    { id: 1, name: 'Service Desk', inactive: false, department_id: 1 },
    { id: 3, name: 'Security Operations', inactive: false, department_id: 1 },
    { id: 4, name: 'Projects', inactive: false, department_id: 2 },
    { id: 7, name: 'Old Team', inactive: true, department_id: 1 },
  ]
}

export function seedPriorities(): HaloPolicy[] {
  const names = ['Critical', 'High', 'Medium', 'Low']
  return [1, 2].flatMap((slaid) =>
    names.map((name, i) => ({
      id: `3e485768-7967-452e-ee50-0${slaid}d7e0f912c${i}`,
      slaid,
      priorityid: i + 1,
      name,
      fixtime: [4, 8, 40, 80][i] ?? 40,
      fixunits: 'H',
    })),
  )
}

export function seedStatuses(): HaloStatusRecord[] {
  const s = (id: number, name: string, sequence: number): HaloStatusRecord => ({
    id,
    name,
    shortname: name.slice(0, 8),
    // TStatus.type's meaning is not documented; Halo's own answers are not known to class closed by it.
    type: 0,
    sequence,
    colour: '#5e35b1',
  })
  return [
    s(1, 'New', 1),
    s(2, 'In Progress', 2),
    s(3, 'Action Required', 3),
    s(4, 'Waiting on User', 4),
    s(8, 'Resolved', 8),
    s(21, 'Resolved - Pending Confirmation', 9),
    s(22, 'Completed', 10),
    s(9, 'Closed', 20),
    s(23, 'Archived', 21),
  ]
}

export const seedClosedStatusIds = () => [9, 23]

export function seedTicketTypes(): HaloTicketType[] {
  return [
    { id: 1, name: 'Incident', inactive: false, required: [], initial_status: 1 },
    { id: 3, name: 'Service Request', inactive: false, required: [], initial_status: 1 },
    // The type alerts usually go to: its configuration makes the details mandatory.
    { id: 27, name: 'Alert', inactive: false, required: ['details'], initial_status: 1 },
    // A type whose configuration makes a category mandatory, which alerts do not set.
    { id: 28, name: 'Change Request', inactive: false, required: ['category_1'], initial_status: 1 },
    { id: 30, name: 'Retired Type', inactive: true, required: [], initial_status: 1 },
  ]
}

export function seedOutcomes(): HaloOutcome[] {
  return [
    { id: 1, outcome: 'Note Added' },
    { id: 2, outcome: 'Private Note' },
    { id: 3, outcome: 'Email User' },
    { id: 4, outcome: 'Resolved' },
  ]
}

const item = (
  id: number,
  ihid: number,
  itemId: number,
  description: string,
  qty: number,
  price: number,
  seq: number,
): HaloInvoiceLine => ({
  id,
  ihid,
  _itemid: itemId,
  item_code: '',
  item_shortdescription: description,
  item_longdescription: description,
  qty_order: qty,
  unit_price: price,
  recurring_invoice_quantity_type: 0,
  sequenceid: seq,
})

export function seedRecurringInvoices(clients: HaloClientRecord[]): HaloRecurringInvoice[] {
  const [acme, globex] = clients
  if (!acme || !globex) return []
  return [
    {
      id: -94,
      client_id: acme.id,
      client_name: acme.name,
      name: acme.name,
      reference: 'Managed services',
      lines: [
        item(24963, -94, 1402, 'Managed Services - Gold Infrastructure', 1, 825, 1),
        item(24964, -94, 1394, 'Endpoint Protection per device', 40, 4.5, 2),
        item(24965, -94, 783, 'Backup per user', 25, 6, 3),
      ],
    },
    {
      id: -95,
      client_id: acme.id,
      client_name: acme.name,
      name: acme.name,
      reference: 'Security add-ons',
      lines: [item(24970, -95, 1500, 'Email Security per mailbox', 30, 2.5, 1)],
    },
    {
      id: -96,
      client_id: globex.id,
      client_name: globex.name,
      name: globex.name,
      reference: '',
      lines: [item(24980, -96, 1394, 'Endpoint Protection per device', 12, 4.5, 1)],
    },
  ]
}

/** Summaries the tests create tickets with: seeded tickets carry them too, for other integrations. */
const commonSummaries = ['Malware detected on WS-042', 'Disk failure on SRV01', 'Disk full on SRV01']

export function seedTickets(clients: HaloClientRecord[], count: number, now = Date.now()): HaloTicket[] {
  const active = clients.filter((c) => !c.inactive)
  const first = active[0]
  if (!first) return []
  const hour = 60 * 60 * 1000
  return Array.from({ length: count }, (_, i) => {
    // Oldest first, as ids grow: a third of them within the last day (one every few minutes), the rest
    // spread over the weeks before.
    const recent = i >= count - Math.floor(count / 3)
    const age = recent ? (count - i) * 0.05 * hour : 24 * hour + (count - i) * 4 * hour
    const client = i % 4 === 3 ? (active[1 + (i % (active.length - 1 || 1))] ?? first) : first
    const closed = !recent && i % 2 === 0
    const opened = new Date(now - age).toISOString()
    return {
      id: 1000 + i,
      summary: i % 5 === 0 ? (commonSummaries[i % commonSummaries.length] ?? '') : `Seeded ticket ${i}`,
      details: `Seeded by the simulator.\n\nCorrelation ID: seeded-${i}`,
      client_id: client.id,
      client_name: client.name,
      site_id: client.main_site_id,
      tickettype_id: 1,
      status_id: closed ? 9 : 1,
      priority_id: 3,
      team: 'Service Desk',
      agent_id: 0,
      // Another integration's reference, or none (a ticket a technician logged).
      third_party_id_string: i % 2 === 0 ? `other-integration-${i}` : null,
      hasbeenclosed: closed,
      dateoccurred: opened,
      dateclosed: closed ? new Date(now - age + hour).toISOString() : null,
    }
  })
}
