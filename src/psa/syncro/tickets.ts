// Syncro tickets as the adapter reads them: whether one is closed, finding the ticket an earlier attempt
// made (its answer lost) by the reference we tag every ticket with, and finding a comment an earlier
// attempt wrote by the alert's marker (docs/psa/syncro.md, "Lost answers").
//
// Syncro has no field made for an outside reference and no idempotency key, so the reference goes
// where Syncro keeps and shows it: the ticket's custom fields (`properties`, kept only where the account
// defines the field) and a line of the initial (hidden) comment. The look-up uses only what Syncro's
// API docs publish for `GET /tickets`: `customer_id`, `created_after` and `page` (25 a page). It reads
// the customer's tickets of the last days — every page where they are few, else the first and the last
// pages, as Syncro documents no order — and checks the reference on each candidate: in `properties`,
// or in the comments `GET /tickets/{id}` embeds. Syncro's `query` is not used: what it searches is not
// published.
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import { itemOf, listOf, type SyncroClient, totalPages } from './client.js'

export interface SyncroComment {
  subject?: string | null
  body?: string | null
  /** The author's name as Syncro shows it; alertbridge sends its own (`ourTech`). */
  tech?: string | null
  /** The user who wrote it, where Syncro says. */
  user_id?: number | string | null
}

export interface SyncroTicket {
  id: number | string
  customer_id?: number | string | null
  subject?: string | null
  status?: string | null
  created_at?: string | null
  updated_at?: string | null
  resolved_at?: string | null
  properties?: Record<string, unknown> | null
  comments?: SyncroComment[] | null
  /** Time logged on the ticket (embedded in `GET /tickets/{id}`). */
  ticket_timers?: unknown[] | null
}

/** The author name (`tech`) every comment alertbridge writes carries, so that a read tells ours apart. */
export const ourTech = 'alertbridge'

/** The custom field (`properties` key) that holds our reference. */
export const refProperty = 'alertbridge_ref'
/** The line of the initial comment that holds it. */
export const refLine = (ref: string) => `alertbridge ref: ${ref}`

/** How far back a ticket an earlier attempt made is looked for (`created_after` takes a date). */
const windowDays = 2
/** Pages of the customer's recent tickets read, at most (25 a page): the first and the last half. */
const pagesAtMost = 8
/** Candidates read in full (their comments) to look for the reference, at most. */
const readAtMost = 5

/** Closed as Syncro says: a resolution time, or one of the statuses it treats as closed. */
export function isClosed(t: SyncroTicket): boolean {
  const at = t.resolved_at
  if (typeof at === 'string' && at.trim() !== '') return true
  const status = (t.status ?? '').trim().toLowerCase()
  return status === 'resolved' || status === 'invoiced'
}

/** Whether a comment of the ticket holds `text`: true, false, or null when the answer has no comments. */
export function hasComment(t: SyncroTicket, text: string): boolean | null {
  if (!Array.isArray(t.comments)) return null
  return t.comments.some((c) => typeof c?.body === 'string' && c.body.includes(text))
}

/** Whether the ticket carries the reference: true, false, or null when the answer holds too little to say. */
function carries(t: SyncroTicket, ref: string): boolean | null {
  const props = t.properties && typeof t.properties === 'object' ? Object.values(t.properties) : []
  if (props.some((v) => v === ref)) return true
  return hasComment(t, refLine(ref))
}

const entities: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
}
/** A subject compared as Syncro may give it back: case, spacing and HTML escapes aside. */
const norm = (s: string | null | undefined) =>
  (s ?? '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => entities[e] ?? e)
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase()

const newestFirst = (a: SyncroTicket, b: SyncroTicket) => {
  const at = (t: SyncroTicket) => (t.created_at ? Date.parse(t.created_at) : Number.NaN)
  const [ta, tb] = [at(a), at(b)]
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return tb - ta
  return Number(b.id) - Number(a.id)
}

/**
 * The customer's tickets made since `since`: every page where there are at most `pagesAtMost`, else
 * the first and the last half of them (the newest are at one end whichever order Syncro lists in).
 */
async function recentTickets(
  client: SyncroClient,
  query: Record<string, string | number>,
  call: PsaCall,
): Promise<PsaResult<SyncroTicket[]>> {
  const tickets = new Map<string, SyncroTicket>()
  const read = async (
    page: number,
  ): Promise<PsaResult<{ batch: number; fresh: number; total: number | null }>> => {
    const res = await client.api('GET', '/tickets', call, { query: { ...query, page } })
    if (!res.ok) return res
    const batch = listOf<SyncroTicket>(res.value.body, 'tickets')
    let fresh = 0
    for (const t of batch) {
      if (t?.id === undefined || t.id === null || tickets.has(String(t.id))) continue
      tickets.set(String(t.id), t)
      fresh++
    }
    return ok({ batch: batch.length, fresh, total: totalPages(res.value.body) })
  }
  const first = await read(1)
  if (!first.ok) return first
  const total = first.value.total
  if (total !== null) {
    const half = pagesAtMost / 2
    const pages =
      total <= pagesAtMost ? range(2, total) : [...range(2, half), ...range(total - half + 1, total)]
    for (const page of pages) {
      const got = await read(page)
      if (!got.ok) return got
    }
  } else {
    // No meta: on until an empty or short page, or one that only repeats (a server that ignores `page`).
    let last = first.value
    for (let page = 2; page <= pagesAtMost && last.batch > 0 && last.fresh === last.batch; page++) {
      const got = await read(page)
      if (!got.ok) return got
      if (got.value.batch < last.batch) break
      last = got.value
    }
  }
  return ok([...tickets.values()])
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i)

/** The id of the ticket an earlier attempt made for `ref` (for this customer, with this subject), or null. */
export async function findByRef(
  client: SyncroClient,
  o: { ref: string; customerId: number; subject: string },
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const since = new Date(Date.now() - windowDays * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
  const listed = await recentTickets(client, { customer_id: o.customerId, created_after: since }, call)
  if (!listed.ok) return listed
  // The customer's own (should a server ignore the filter), with the subject we gave, newest first.
  const subject = norm(o.subject)
  const candidates = listed.value
    .filter(
      (t) =>
        (t.customer_id === undefined ||
          t.customer_id === null ||
          String(t.customer_id) === String(o.customerId)) &&
        norm(t.subject) === subject,
    )
    .sort(newestFirst)
  const known = candidates.find((t) => carries(t, o.ref) === true)
  if (known) return ok(String(known.id))
  // List entries say too little (no custom field, no comments): read the newest candidates in full.
  for (const t of candidates.filter((c) => carries(c, o.ref) === null).slice(0, readAtMost)) {
    const full = await client.api('GET', `/tickets/${t.id}`, call)
    if (!full.ok) {
      if (full.failure.kind === 'not-found') continue
      return full
    }
    const ticket = itemOf<SyncroTicket>(full.value.body, 'ticket')
    if (ticket && carries(ticket, o.ref) === true) return ok(String(t.id))
  }
  return ok(null)
}
