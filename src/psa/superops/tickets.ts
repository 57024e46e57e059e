// SuperOps tickets as the adapter reads them (docs/psa/superops.md): which statuses count as closed,
// and finding what an earlier attempt made when its answer was lost.
//
// Closed: SuperOps statuses are the tenant's own strings with no open/closed flag, so the adapter never
// judges a status by its name. A ticket is closed when SuperOps gave it a resolution time, or when its
// status is one the tenant's own tickets show closing: every recently updated ticket listed with that
// status has a resolution time (`learnClosed`), or it is the partner's `closedStatus`.
//
// Lost creates: every ticket is created with `source: INTEGRATION` and our reference in
// `sourceReferenceId` (and on the description's last line). A retry lists the client's tickets made in
// the last days with the subject it sends, newest first, and adopts the one that carries the
// reference. Lost notes: the alert's messageId is in the note's content (`getTicketNoteList`).
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import { type SuperOpsClient, superOpsTime } from './client.js'
import { getTicketList, getTicketNoteList } from './documents.js'

export interface SuperOpsTicket {
  ticketId: string
  displayId?: string | null
  subject?: string | null
  status?: string | null
  priority?: string | null
  sourceReferenceId?: string | null
  client?: { accountId?: unknown; name?: unknown } | null
  createdTime?: string | null
  updatedTime?: string | null
  resolutionTime?: string | null
  /** Time logged on the ticket (only `getTicket` selects it). */
  worklogTimespent?: string | null
}

export interface SuperOpsNote {
  noteId: string
  addedBy?: unknown
  addedOn?: string | null
  content?: string | null
  privacyType?: string | null
}

/** A note's author as an id (`addedBy` is a JSON object: its userId, else its id or name), or null. */
export function authorOf(n: SuperOpsNote | null): string | null {
  const by = n?.addedBy
  if (typeof by === 'string' || typeof by === 'number') return String(by)
  if (!by || typeof by !== 'object') return null
  const o = by as Record<string, unknown>
  for (const key of ['userId', 'id', 'technicianId', 'email', 'name']) {
    const v = o[key]
    if ((typeof v === 'string' && v !== '') || typeof v === 'number') return String(v)
  }
  return null
}

/** The reference's line at the end of the description. */
export const refLine = (ref: string) => `alertbridge ref: ${ref}`

/** How far back a ticket an earlier attempt made is looked for. */
const windowMs = 2 * 24 * 3_600_000
/** Pages of candidates read at most (100 a page). */
const pagesAtMost = 3
/** Recently updated tickets read to learn the closed statuses (two pages of 100). */
const learnPages = 2

const norm = (s: string | null | undefined) => (s ?? '').trim().replace(/\s+/g, ' ').toLowerCase()

/** Whether the ticket is closed: a resolution time, or a status in `closed` (see the header). */
export function isClosed(t: SuperOpsTicket, closed: readonly string[]): boolean {
  if (typeof t.resolutionTime === 'string' && t.resolutionTime.trim() !== '') return true
  const status = norm(t.status)
  return status !== '' && closed.some((c) => norm(c) === status)
}

/** What the tenant's tickets say closes: each status and how many listed tickets it closed. */
export interface LearnedStatuses {
  /** Statuses every listed ticket of which has a resolution time, the most used first. */
  closed: string[]
  /** Tickets read to learn it. */
  sampled: number
}

/** The statuses whose every ticket among the listed ones has a resolution time, the most used first. */
export function closedStatusesOf(tickets: readonly SuperOpsTicket[]): string[] {
  const seen = new Map<string, { name: string; resolved: number; open: number }>()
  for (const t of tickets) {
    const name = (t.status ?? '').trim()
    if (name === '') continue
    const s = seen.get(norm(name)) ?? { name, resolved: 0, open: 0 }
    if (typeof t.resolutionTime === 'string' && t.resolutionTime.trim() !== '') s.resolved++
    else s.open++
    seen.set(norm(name), s)
  }
  return [...seen.values()]
    .filter((s) => s.resolved > 0 && s.open === 0)
    .sort((a, b) => b.resolved - a.resolved)
    .map((s) => s.name)
}

/** The tenant's recently updated tickets, read for the statuses that closed them. */
export async function learnClosed(
  client: SuperOpsClient,
  call: PsaCall,
): Promise<PsaResult<LearnedStatuses>> {
  const listed = await client.all<SuperOpsTicket>(
    getTicketList,
    'tickets',
    { sort: [{ attribute: 'updatedTime', order: 'DESC' }] },
    call,
    learnPages,
  )
  if (!listed.ok) return listed
  return ok({ closed: closedStatusesOf(listed.value), sampled: listed.value.length })
}

const and = (...operands: unknown[]) => ({ joinOperator: 'AND', operands })
const leaf = (attribute: string, operator: string, value: unknown) => ({ attribute, operator, value })

/** The id of the ticket an earlier attempt made for `ref` (this client's, this subject), or null. */
export async function findByRef(
  client: SuperOpsClient,
  o: { ref: string; accountId: string; subject: string },
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const since = superOpsTime(new Date(Date.now() - windowMs))
  const condition = and(
    leaf('client.accountId', 'is', o.accountId),
    leaf('subject', 'is', o.subject),
    leaf('createdTime', 'after', since),
  )
  const listed = await client.all<SuperOpsTicket>(
    getTicketList,
    'tickets',
    { condition, sort: [{ attribute: 'createdTime', order: 'DESC' }] },
    call,
    pagesAtMost,
  )
  if (!listed.ok) return listed
  // The client's own, with the subject we gave (should a server ignore the condition), carrying our ref.
  const found = listed.value.find(
    (t) =>
      t.sourceReferenceId === o.ref &&
      norm(t.subject) === norm(o.subject) &&
      (t.client?.accountId === undefined || String(t.client.accountId) === o.accountId),
  )
  return ok(found ? String(found.ticketId) : null)
}

/** The ticket's notes. */
export async function notesOf(
  client: SuperOpsClient,
  ticketId: string,
  call: PsaCall,
): Promise<PsaResult<SuperOpsNote[]>> {
  const res = await client.request<SuperOpsNote[]>(getTicketNoteList, { input: { ticketId } }, call)
  if (!res.ok) return res
  return ok(Array.isArray(res.value) ? res.value : [])
}

/** Whether a note of the ticket carries `marker`. */
export async function hasNote(
  client: SuperOpsClient,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  const notes = await notesOf(client, ticketId, call)
  if (!notes.ok) return notes
  return ok(notes.value.some((n) => typeof n.content === 'string' && n.content.includes(marker)))
}
