// Syncro tickets as the adapter reads them: whether one is closed, and finding the ticket an earlier
// attempt made (its answer lost) by the reference we tag every ticket with. Syncro has no field made for
// an outside reference and no idempotency key, so the reference goes where Syncro keeps and shows it:
// the ticket's custom fields (`properties`) and a line of the initial (hidden) comment. Finding it
// again does not rely on what Syncro's search covers: the search for the reference comes first, then
// the customer's recent tickets with our subject; a candidate is adopted only when it carries the
// reference.
import type { PsaCall, PsaResult } from '../adapter.js'
import { itemOf, listOf, type SyncroClient } from './client.js'

export interface SyncroTicket {
  id: number | string
  subject?: string | null
  status?: string | null
  resolved_at?: string | null
  properties?: Record<string, unknown> | null
  comments?: { body?: string | null }[] | null
}

/** The custom field (`properties` key) that holds our reference. */
export const refProperty = 'alertbridge_ref'
/** The line of the initial comment that holds it. */
export const refLine = (ref: string) => `alertbridge ref: ${ref}`

/** Candidates whose full ticket is read to look for the reference, at most, per search. */
const readAtMost = 5
/** Pages of a customer's recent tickets read, at most, per search. */
const recentPages = 8

/** Closed as Syncro says: a resolution time, or one of the statuses it treats as closed. */
export function isClosed(t: SyncroTicket): boolean {
  const at = t.resolved_at
  if (typeof at === 'string' && at.trim() !== '') return true
  const status = (t.status ?? '').trim().toLowerCase()
  return status === 'resolved' || status === 'invoiced'
}

/** Whether the ticket carries the reference: true, false, or null when the answer holds too little to say. */
function carries(t: SyncroTicket, ref: string): boolean | null {
  const props = t.properties && typeof t.properties === 'object' ? Object.values(t.properties) : []
  if (props.some((v) => v === ref)) return true
  const line = refLine(ref)
  if (Array.isArray(t.comments)) return t.comments.some((c) => (c?.body ?? '').includes(line))
  return null
}

const norm = (s: string | null | undefined) => (s ?? '').trim().replace(/\s+/g, ' ').toLowerCase()

/** The id of the ticket an earlier attempt made for `ref`, or null. */
export async function findByRef(
  client: SyncroClient,
  o: { ref: string; customerId: number; subject: string },
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  let reads = 0
  const confirm = async (candidates: SyncroTicket[]): Promise<PsaResult<string | null>> => {
    for (const t of candidates) {
      const says = carries(t, o.ref)
      if (says === true) return { ok: true, value: String(t.id) }
      if (says === false || reads >= readAtMost) continue
      reads++
      const full = await client.api('GET', `/tickets/${t.id}`, call)
      if (!full.ok) {
        if (full.failure.kind === 'not-found') continue
        return full
      }
      const ticket = itemOf<SyncroTicket>(full.value.body, 'ticket')
      if (ticket && carries(ticket, o.ref) === true) return { ok: true, value: String(t.id) }
    }
    return { ok: true, value: null }
  }
  const searched = await client.api('GET', '/tickets', call, { query: { query: o.ref, page: 1 } })
  // A search Syncro refuses (rather than fails at) leaves the customer's recent tickets to look through.
  if (!searched.ok && searched.failure.kind !== 'rejected') return searched
  if (searched.ok) {
    const byQuery = await confirm(listOf<SyncroTicket>(searched.value.body, 'tickets'))
    if (!byQuery.ok || byQuery.value !== null) return byQuery
  }
  const since = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
  const recent = await client.all<SyncroTicket>(
    '/tickets',
    'tickets',
    call,
    { customer_id: o.customerId, created_after: since },
    recentPages,
  )
  if (!recent.ok) return recent
  const subject = norm(o.subject)
  return confirm(recent.value.filter((t) => norm(t.subject) === subject))
}
