// The simulated ticket list's `Sort` (GET /v2/servicedesk/tickets, POST …/tickets/search). BMS's OpenAPI
// declares Sort a plain string and publishes no syntax (docs/psa/kaseya-bms.md, "Finding a ticket
// again"), so what this simulator does with it is an assumption, chosen per test: `applied` reads
// `Field [asc|desc]` terms, comma-separated, whose fields are the list's (TicketListDto) and refuses
// any other, as a dynamic-LINQ order by would; `ignored` answers in the order tickets were made, as a
// server that drops what it cannot read; `refused` refuses every Sort. Without a Sort, tickets come in
// the order they were made.
import type { BmsTicket, KaseyaBmsState } from './types.js'

/** The fields a Sort may name (the list's own, camelCase on the wire), and how each compares. */
const sortable: Record<string, (t: BmsTicket) => number | string> = {
  id: (t) => t.id,
  ticketnumber: (t) => t.ticketNumber,
  title: (t) => t.title.toLowerCase(),
  accountid: (t) => t.accountId,
  statusid: (t) => t.statusId,
  priorityid: (t) => t.priorityId,
  queueid: (t) => t.queueId ?? 0,
  opendate: (t) => Date.parse(t.openDate),
  createdon: (t) => Date.parse(t.createdOn),
  completeddate: (t) => (t.completedDate ? Date.parse(t.completedDate) : 0),
}

export type Sorted = { ok: true; rows: BmsTicket[] } | { ok: false; message: string }

export function sortTickets(
  rows: readonly BmsTicket[],
  sort: string | undefined,
  mode: KaseyaBmsState['sort'],
): Sorted {
  if (sort === undefined || sort.trim() === '' || mode === 'ignored') return { ok: true, rows: [...rows] }
  const refused = { ok: false as const, message: `The Sort value '${sort}' is not valid.` }
  if (mode === 'refused') return refused
  const terms = sort.split(',').map((term) => {
    const [name = '', direction = 'asc', ...rest] = term.trim().split(/\s+/)
    const key = sortable[name.toLowerCase()]
    const dir = direction.toLowerCase()
    return key && rest.length === 0 && (dir === 'asc' || dir === 'desc')
      ? { key, sign: dir === 'desc' ? -1 : 1 }
      : null
  })
  if (terms.some((t) => t === null)) return refused
  const order = terms as { key: (t: BmsTicket) => number | string; sign: number }[]
  const sorted = [...rows].sort((a, b) => {
    for (const { key, sign } of order) {
      const [x, y] = [key(a), key(b)]
      if (x !== y) return (x < y ? -1 : 1) * sign
    }
    return 0
  })
  return { ok: true, rows: sorted }
}
