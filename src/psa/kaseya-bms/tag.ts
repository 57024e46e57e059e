// Our reference on a Kaseya BMS ticket, so that a retry finds a ticket an earlier attempt made whose
// answer was lost: a last line `(ab-ref:{ref})` of the ticket's Details (the title stays the alert's).
// The ticket list, GET /v2/servicedesk/tickets, documents Filter.Details, Filter.AccountIds and
// Filter.OpenDateFrom (docs/psa/kaseya-bms.md, "Finding a ticket again"): the look-up asks for the
// account's tickets opened in the last two days whose Details hold the tag, and checks the tag on each
// candidate. How BMS matches Filter.Details (contains, starts with …) is not published, so until a
// tag has been found that way on this connection, a miss reads the account's tickets of those two days
// without the text filter, each one checked.
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import { externalRef } from '../core/names.js'
import type { KaseyaBmsClient } from './client.js'
import { str } from './wire.js'

/** The tag's room for the reference; a longer one is a digest of it. */
const refMax = 64
/** How far back a ticket an earlier attempt made is looked for (BMS may keep OpenDate in local time). */
const windowMs = 2 * 24 * 60 * 60 * 1000
/** Pages read without the text filter: 1,000 tickets of one account in the window. */
const scanPages = 10

/** Our reference as it ends the Details: `(ab-ref:{ref})` — no brackets, which SQL LIKE reads as a pattern. */
export const refTag = (ref: string) => `(ab-ref:${externalRef(ref, refMax)})`

/** What a connection learned about the ticket list's Details filter. */
export interface TagSearch {
  /** The filter found a tag once: it matches text inside Details, and a miss is a miss. */
  detailsFilterWorks: boolean
}

/** The ticket of `accountId` whose Details hold `tag`, made in the last two days; null: none. */
export async function findByTag(
  client: KaseyaBmsClient,
  learned: TagSearch,
  tag: string,
  accountId: string,
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const match = (list: unknown[]) => {
    const hit = list.find((t) => str(t, 'details')?.includes(tag))
    return hit === undefined ? null : str(hit, 'id')
  }
  const narrowed = {
    'Filter.AccountIds': accountId,
    'Filter.OpenDateFrom': new Date(Date.now() - windowMs).toISOString(),
  }
  const filtered = await client.all('/servicedesk/tickets', call, { ...narrowed, 'Filter.Details': tag }, 3)
  if (!filtered.ok) return filtered
  const id = match(filtered.value)
  if (id !== null) {
    learned.detailsFilterWorks = true
    return ok(id)
  }
  if (learned.detailsFilterWorks) return ok(null)
  const scanned = await client.all('/servicedesk/tickets', call, narrowed, scanPages)
  return scanned.ok ? ok(match(scanned.value)) : scanned
}
