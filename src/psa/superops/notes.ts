// Notes on a SuperOps ticket (docs/psa/superops.md, "Notes"): PRIVATE notes (`createTicketNote`),
// fitted to the adapter's limit, never e-mailed to the requester. A retry after a lost answer first
// reads the ticket's notes (`getTicketNoteList`) for the alert's messageId and writes nothing when an
// earlier attempt's note is there.
import { type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { fitText } from '../core/text.js'
import type { SuperOpsLists } from './connection-lists.js'
import { createTicketNote } from './documents.js'
import { authorOf, hasNote, type SuperOpsNote } from './tickets.js'

/** A note's content, at most (SuperOps publishes none: docs/psa/superops.md#text-limits). */
export const noteMax = 20_000

/** A PRIVATE note, as is. */
export async function privateNote(
  lists: SuperOpsLists,
  ticketId: string,
  text: string,
  call: PsaCall,
): Promise<PsaResult<null>> {
  const input = { ticket: { ticketId }, content: fitText(text, noteMax, 'SuperOps'), privacyType: 'PRIVATE' }
  const res = await lists.client.request<SuperOpsNote>(createTicketNote, { input }, call)
  if (!res.ok) return res
  // The note's author is the token's technician: alertbridge, as later reads will see it.
  lists.self ??= authorOf(res.value)
  return ok(null)
}

/** A PRIVATE note, unless a retry finds an earlier attempt's (the call's marker). */
export async function writeNote(
  lists: SuperOpsLists,
  ticketId: string,
  text: string,
  call: NoteCall,
): Promise<PsaResult<null>> {
  if (call.adopt && call.marker !== '') {
    const found = await hasNote(lists.client, ticketId, call.marker, call)
    if (!found.ok) return found
    if (found.value) return ok(null)
  }
  return privateNote(lists, ticketId, text, call)
}
