// Our reference on a Kaseya BMS ticket, so that a retry finds a ticket an earlier attempt made: the
// end of the title, the one free-text field the ticket list can filter on (Filter.Title; custom fields
// are written on create but cannot be searched).
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import { externalRef } from '../core/names.js'
import type { KaseyaBmsClient } from './client.js'
import { rows, str } from './wire.js'

/** The tag's room for the reference; a longer one is a digest of it. */
const refMax = 64

/** Our reference in the title: `(ab-ref:{ref})` — no brackets, which SQL LIKE reads as a pattern. */
export const refTag = (ref: string) => `(ab-ref:${externalRef(ref, refMax)})`

/**
 * The ticket a tag names: the ticket list filtered on its title (a server that does not take the
 * filter is read through, a page at a time, up to a bound), else the search route where the list
 * refuses the filter. Only a title that holds the tag itself counts.
 */
export async function findByTag(
  client: KaseyaBmsClient,
  tag: string,
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const match = (list: unknown[]) => {
    const hit = list.find((t) => str(t, 'title')?.includes(tag))
    return hit === undefined ? null : str(hit, 'id')
  }
  const listed = await client.all('/servicedesk/tickets', call, { 'Filter.Title': tag }, 50)
  if (listed.ok) return ok(match(listed.value))
  if (listed.failure.kind !== 'rejected' && listed.failure.kind !== 'not-found') return listed
  const first = client.pagesStartAt ?? 1
  for (let page = first; page < first + 50; page++) {
    const res = await client.api('POST', '/servicedesk/tickets/search', call, {
      body: { Filter: { Title: tag }, PageSize: 100, PageNumber: page },
    })
    if (!res.ok) return res
    const list = rows(res.value.result)
    const id = match(list)
    if (id !== null || list.length < 100) return ok(id)
  }
  return ok(null)
}
