// What an earlier attempt whose answer was lost may have made in HaloPSA, found with query parameters
// Halo's published API lists (docs/psa/halopsa.md, "Lost answers"):
// - the ticket: GET /api/Tickets narrowed to the client, the last day and the tickets whose details hold
//   our correlation id (client_id, datesearch with startdate/enddate, search_details), newest first
//   (order=id, orderdesc=true), a few pages of 100 at most, then the client's newest page in case the
//   search missed; each candidate's third_party_id_string is compared with our reference, the ticket read
//   where the list leaves the field out (only tickets whose summary can be ours, a bounded number);
// - a note or a resolution note: GET /api/Actions?ticket_id= (with the same date window), the marker
//   looked for in each action's note.
import type { PsaCall, PsaResult } from '../adapter.js'
import { fail, ok } from '../adapter.js'
import { firstOf, type HaloClient, type HaloItem, listOf, pageSize } from './client.js'
import { idText } from './lists.js'

const hourMs = 60 * 60 * 1000
/**
 * How far back an earlier attempt is looked for: a queued alert's retries span minutes (at most an hour
 * between two), a vendor's own retry after a lost answer comes soon after it; a day covers both.
 */
export const adoptWindowMs = 24 * hourMs
/** The window's end lies ahead of now, and a listed date counts as older only past another day: Halo's
 * clock, and the time zone it reads a date in, may differ from ours. */
const skewMs = 24 * hourMs
/** Pages of the client's recent tickets read at most (500 tickets, newest first). */
export const adoptPages = 5
/** Tickets read one by one at most, where the list leaves out their reference. */
export const adoptReads = 20

/** A date as Halo's startdate/enddate take it: ISO 8601 in UTC, to the second. */
export const haloDate = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** The documented date window over the ticket's opening date (Halo spells the field `dateoccured`). */
function dateWindow(now: number, field?: string): Record<string, string> {
  return {
    ...(field ? { datesearch: field } : {}),
    startdate: haloDate(now - adoptWindowMs),
    enddate: haloDate(now + skewMs),
  }
}

/** Halo refused the query's date window (400): the query is asked again without it. */
const refusedWindow = (r: PsaResult<unknown>) => !r.ok && r.failure.status === 400

/** What one look-up has seen so far, across its queries. */
interface Scan {
  now: number
  /** The date window is still sent (false once Halo refused it). */
  dated: boolean
  seen: Set<string>
}

/**
 * The id of the ticket of `clientId` tagged with `ref`, opened in the last day; null when none is.
 * First the tickets whose details hold `search` (our correlation id, which the details carry: Halo's
 * search_details), then, in case Halo's matching missed it (its rules are not documented), the client's
 * newest tickets: a page, and a few of them read (where Halo refused the search, as many as the search
 * would have had).
 */
export async function findTicket(
  client: HaloClient,
  o: { clientId: string; ref: string; title: string; search: string },
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const scan: Scan = { now: Date.now(), dated: true, seen: new Set() }
  if (o.search === '') return candidates(client, o, call, scan, {}, adoptPages, adoptReads)
  const searched = await candidates(
    client,
    o,
    call,
    scan,
    { search_details: o.search },
    adoptPages,
    adoptReads,
  )
  if (searched.ok && searched.value !== null) return searched
  if (!searched.ok && searched.failure.status !== 400) return searched
  // Halo refused the search (400): the client's tickets of the day, with the same bounds.
  if (!searched.ok) return candidates(client, o, call, scan, {}, adoptPages, adoptReads)
  return candidates(client, o, call, scan, {}, 1, fallbackReads)
}

/** Tickets read one by one at most in the look-up's last query (the client's newest tickets). */
export const fallbackReads = 3

/**
 * The client's tickets of the last day matching `extra`, newest first, `pages` pages at most. The list's
 * own third_party_id_string decides where it has the field; elsewhere a ticket whose summary cannot be
 * `title` is passed over and the others are read (`reads` at most).
 */
async function candidates(
  client: HaloClient,
  o: { clientId: string; ref: string; title: string },
  call: PsaCall,
  scan: Scan,
  extra: Record<string, string>,
  pages: number,
  reads: number,
): Promise<PsaResult<string | null>> {
  const { now } = scan
  for (let page = 1; page <= pages; page++) {
    const query = {
      client_id: o.clientId,
      ...extra,
      ...(scan.dated ? dateWindow(now, 'dateoccured') : {}),
      order: 'id',
      orderdesc: true,
      pageinate: true,
      page_size: pageSize,
      page_no: page,
    }
    const res = await client.api('GET', '/Tickets', call, { query })
    if (scan.dated && page === 1 && refusedWindow(res)) {
      scan.dated = false
      page--
      continue
    }
    if (!res.ok) return res
    const { list, total } = listOf(res.value.body, 'tickets')
    const ids = list.map((t) => Number(idText(t.id)))
    // Newest first as asked: a ticket opened before the window then ends the search.
    const newestFirst = ids.every((id, i) => i === 0 || id <= (ids[i - 1] ?? id))
    let older = false
    let fresh = 0
    for (const t of list) {
      const id = idText(t.id)
      if (id === null || scan.seen.has(id)) continue
      scan.seen.add(id)
      fresh++
      if (t.client_id !== undefined && idText(t.client_id) !== o.clientId) continue
      const opened = typeof t.dateoccurred === 'string' ? Date.parse(t.dateoccurred) : Number.NaN
      if (opened < now - adoptWindowMs - skewMs) {
        older = true
        continue
      }
      if ('third_party_id_string' in t) {
        if (t.third_party_id_string === o.ref) return ok(id)
        continue
      }
      if (!maybeTitled(t.summary, o.title) || reads <= 0) continue
      reads--
      const full = await readTicket(client, id, call)
      if (!full.ok) {
        if (full.failure.kind === 'not-found') continue
        return full
      }
      if (full.value.third_party_id_string === o.ref) return ok(id)
    }
    // A server that ignores the paging answers the same tickets again: they end the search too.
    if ((older && newestFirst) || fresh === 0 || list.length < pageSize) break
    if (total !== null && page * pageSize >= total) break
  }
  return ok(null)
}

/** The ticket as GET /api/Tickets/{id} answers it. */
export async function readTicket(
  client: HaloClient,
  id: string,
  call: PsaCall,
): Promise<PsaResult<HaloItem>> {
  const got = await client.api('GET', `/Tickets/${id}`, call)
  if (!got.ok) return got
  const ticket = firstOf(got.value.body, 'tickets')
  return ticket
    ? ok(ticket)
    : fail({ kind: 'not-found', retryable: false, message: `HaloPSA has no ticket ${id}` })
}

/** Whether an action of the ticket, in the last day, carries `marker` in its note. */
export async function hasActionWith(
  client: HaloClient,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  const now = Date.now()
  const ask = (dated: boolean) =>
    client.api('GET', '/Actions', call, {
      query: { ticket_id: ticketId, ...(dated ? dateWindow(now) : {}) },
    })
  let res = await ask(true)
  if (refusedWindow(res)) res = await ask(false)
  if (!res.ok) return res
  const actions = listOf(res.value.body, 'actions').list
  return ok(
    actions.some((a) =>
      [a.note, a.note_html].some((text) => typeof text === 'string' && text.includes(marker)),
    ),
  )
}

/**
 * Whether a listed summary can be the one we sent: the same text once spaces, case and the few HTML
 * entities Halo might write are set aside, or one holding the other (a rule may add to a summary).
 * An unlisted summary can be anything.
 */
function maybeTitled(summary: unknown, title: string): boolean {
  if (typeof summary !== 'string') return true
  const norm = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase()
  const listed = norm(summary)
  const ours = norm(title)
  return listed.includes(ours) || ours.includes(listed)
}
