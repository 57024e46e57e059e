// Kaseya BMS ticket notes (docs/psa/kaseya-bms.md): an internal note of the connection's note type at
// …/tickets/{id}/notes (with a StatusId, the ticket moved too), and, on a retry after a lost answer,
// none when a note carrying the alert's marker (its messageId) is on the ticket already. The ticket's
// notes come from the documented GET /v2/servicedesk/tickets/{ticketId}/notes (PageSize, PageNumber),
// read page by page up to a bound; its Sort parameter's syntax is not published, so no order is asked for.
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { fitText } from '../core/text.js'
import type { V2Client } from './client.js'
import { idFromTable } from './fields.js'
import type { Lists } from './lists.js'
import type { V2Settings } from './settings.js'
import { str } from './wire.js'

/** BMS publishes no length for a note (docs/psa/kaseya-bms.md): a conservative guess. */
export const noteMax = 32_000

/** Pages of notes read: 2,000 notes on one ticket. */
const maxPages = 20

/** What writing a note needs of a connection. */
export interface NoteWriter {
  client: V2Client
  lists: Lists
  s: V2Settings
}

/** A note (with StatusId: the ticket moved too); on a retry, none when one with the marker is there. */
export async function writeNote(
  { client, lists, s }: NoteWriter,
  ticketId: string,
  text: string,
  statusId: string | null,
  call: NoteCall,
): Promise<PsaResult<null>> {
  if (!/^\d+$/.test(ticketId))
    return fail({
      kind: 'rejected',
      retryable: false,
      message: `${client.psa.name} ticket ids are numbers, not '${ticketId}'`,
    })
  if (call.adopt) {
    const there = await hasNoteWith(client, ticketId, call.marker, call)
    if (!there.ok) return there
    if (there.value) return ok(null)
  }
  const type = await idFromTable(lists, 'noteTypes', s.noteType ?? null, call)
  if (!type.ok) return type
  const res = await client.api('POST', `/servicedesk/tickets/${ticketId}/notes`, call, {
    body: {
      Details: fitText(text, noteMax, client.psa.name),
      IsInternal: true,
      NoteDate: new Date().toISOString(),
      TypeId: type.value,
      ...(statusId ? { StatusId: Number(statusId) } : {}),
    },
  })
  return res.ok ? ok(null) : res
}

/** Whether a note carrying `marker` is on the ticket. */
export async function hasNoteWith(
  client: V2Client,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  const notes = await client.all(`/servicedesk/tickets/${ticketId}/notes`, call, {}, maxPages)
  if (!notes.ok) return notes
  return ok(notes.value.some((n) => str(n, 'details')?.includes(marker) === true))
}
