// Whether a note carrying an alert's marker (its messageId) is on a Kaseya BMS ticket already: a retry
// after a lost answer writes no second note. The ticket's notes come from the documented
// GET /v2/servicedesk/tickets/{ticketId}/notes (PageSize, PageNumber; docs/psa/kaseya-bms.md), read
// page by page up to a bound; its Sort parameter's syntax is not published, so no order is asked for.
import { ok, type PsaCall, type PsaResult } from '../adapter.js'
import type { KaseyaBmsClient } from './client.js'
import { str } from './wire.js'

/** Pages of notes read: 2,000 notes on one ticket. */
const maxPages = 20

export async function hasNoteWith(
  client: KaseyaBmsClient,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  const notes = await client.all(`/servicedesk/tickets/${ticketId}/notes`, call, {}, maxPages)
  if (!notes.ok) return notes
  return ok(notes.value.some((n) => str(n, 'details')?.includes(marker) === true))
}
