// ConnectWise ticket notes (docs/psa/connectwise.md): an alert's update as a note with the visibility
// the connection chose, a resolution as a note flagged so, neither notifying anyone; and, on a retry
// after a lost answer, the note an earlier attempt wrote, found by the Message ID line its text ends with.
import type { Static } from 'typebox'
import { type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { fitText } from '../core/text.js'
import type { ConnectWiseClient } from './client.js'
import type { ConnectWiseSettings } from './settings.js'
import { limits, listOf, lookBack, plainValue, psaName } from './wire.js'

type Settings = Static<typeof ConnectWiseSettings>

/** An alert's update as a note; on a retry, none when one carrying the marker is there. */
export async function appendNote(
  client: ConnectWiseClient,
  s: Settings,
  ticketId: string,
  note: string,
  call: NoteCall,
): Promise<PsaResult<null>> {
  // A retry after a lost answer: the note may be there already.
  if (call.adopt) {
    const written = await noteWithMarker(client, ticketId, call.marker, call)
    if (!written.ok) return written
    if (written.value) return ok(null)
  }
  const flag = s.noteVisibility === 'discussion' ? 'detailDescriptionFlag' : 'internalAnalysisFlag'
  const res = await client.api('POST', `/service/tickets/${ticketId}/notes`, call, {
    body: { text: fitText(note, limits.note, psaName), [flag]: true, processNotifications: false },
  })
  return res.ok ? ok(null) : res
}

/** The resolution note a close writes first: internal, flagged as the resolution. */
export async function writeResolution(
  client: ConnectWiseClient,
  ticketId: string,
  note: string,
  call: PsaCall,
): Promise<PsaResult<null>> {
  const res = await client.api('POST', `/service/tickets/${ticketId}/notes`, call, {
    body: {
      text: fitText(note, limits.note, psaName),
      resolutionFlag: true,
      internalAnalysisFlag: true,
      processNotifications: false,
    },
  })
  return res.ok ? ok(null) : res
}

/**
 * Whether the ticket has a note carrying `marker` (our Message ID line): the ticket's notes whose text
 * contains it, newest first, each checked for the marker as a word of its own. Where the marker cannot
 * go into a condition, or ConnectWise refuses the condition (400), the newest notes are read instead.
 */
export async function noteWithMarker(
  client: ConnectWiseClient,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  const path = `/service/tickets/${ticketId}/notes`
  const newest = { orderBy: 'id desc', pageSize: lookBack, fields: 'id,text' }
  let res = plainValue.test(marker)
    ? await client.api('GET', path, call, { query: { ...newest, conditions: `text contains "${marker}"` } })
    : await client.api('GET', path, call, { query: newest })
  if (!res.ok && res.failure.status === 400 && plainValue.test(marker))
    res = await client.api('GET', path, call, { query: newest })
  if (!res.ok) return res
  const carries = new RegExp(`(^|[\\s:])${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\s|$)`)
  return ok(
    listOf<{ text?: unknown }>(res.value.body).some(
      (n) => typeof n.text === 'string' && carries.test(n.text),
    ),
  )
}
