// Notes and closing (docs/psa/ninjaone.md#notes-and-closing). A note is a private comment: POST
// /v2/ticketing/ticket/{id}/comment, multipart, its part `comment` holding {public: false, body}; a
// retry first looks for the alert's marker among the ticket's comments. A close writes the resolution
// as such a comment, then PUTs the ticket with the closed status and the `version` just read (NinjaOne
// refuses a stale version: the ticket is read again and the PUT sent again, three times at most).
import { type CloseCall, type CloseRequest, fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { fitText } from '../core/text.js'
import { hasCommentWith } from './adopt.js'
import { limits, type NinjaClient, type NinjaItem, psaName } from './client.js'
import { type NinjaLists, type NinjaStatus, statusClosed } from './lists.js'
import { readTicket, refusal } from './read.js'

const maxPuts = 3

/** A private comment; on a retry, none when a comment carries the marker. */
export async function appendNote(
  client: NinjaClient,
  ticketId: string,
  note: string,
  call: { marker: string; adopt: boolean } & PsaCall,
): Promise<PsaResult<null>> {
  if (!/^\d+$/.test(ticketId)) return fail(refusal(`NinjaOne ticket ids are numbers, not '${ticketId}'`))
  if (call.adopt && call.marker !== '') {
    const there = await hasCommentWith(client, ticketId, call.marker, call)
    if (!there.ok) return there
    if (there.value) return ok(null)
  }
  return comment(client, ticketId, fitText(note, limits.note, psaName), call)
}

export async function comment(
  client: NinjaClient,
  ticketId: string,
  body: string,
  call: PsaCall,
  timeTrackedSeconds?: number,
): Promise<PsaResult<null>> {
  const part = JSON.stringify({
    public: false,
    body,
    ...(timeTrackedSeconds ? { timeTracked: timeTrackedSeconds } : {}),
  })
  const res = await client.api('POST', `/ticketing/ticket/${ticketId}/comment`, call, {
    multipart: { comment: part },
  })
  return res.ok ? ok(null) : res
}

/** The status a close sets: the one named, else the first NinjaOne treats as closed (CLOSED first). */
export function closingStatus(statuses: readonly NinjaStatus[], named: string | null): NinjaStatus | null {
  if (named !== null) return byIdOrName(statuses, named)
  return (
    statuses.find((s) => s.systemName === 'CLOSED') ??
    statuses.find((s) => s.systemName === 'RESOLVED') ??
    statuses.find((s) => s.closed) ??
    null
  )
}

export async function closeTicket(
  client: NinjaClient,
  lists: NinjaLists,
  ticketId: string,
  close: CloseRequest,
  call: CloseCall,
): Promise<PsaResult<{ alreadyClosed: boolean }>> {
  const ticket = await readTicket(client, ticketId, call)
  if (!ticket.ok) return ticket
  const statuses = await lists.statusList(call)
  if (!statuses.ok) return statuses
  // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
  if (statusClosed(ticket.value.status, statuses.value)) return ok({ alreadyClosed: !call.adopt })
  const target = closingStatus(statuses.value, close.closedStatus)
  if (!target)
    return fail(
      refusal(
        close.closedStatus
          ? `NinjaOne has no ticket status '${close.closedStatus}'`
          : 'NinjaOne lists no status it treats as closed',
      ),
    )
  const noted =
    call.adopt && call.marker !== '' ? await hasCommentWith(client, ticketId, call.marker, call) : ok(false)
  if (!noted.ok) return noted
  if (!noted.value) {
    const written = await comment(client, ticketId, fitText(close.note, limits.note, psaName), call)
    if (!written.ok) return written
  }
  return setStatus(client, ticketId, ticket.value, target.id, call)
}

/** PUTs the ticket with `statusId` and its current version; a 409 (stale version) reads it again. */
export async function setStatus(
  client: NinjaClient,
  ticketId: string,
  read: NinjaItem,
  statusId: string,
  call: PsaCall,
): Promise<PsaResult<{ alreadyClosed: boolean }>> {
  let ticket = read
  for (let put = 1; ; put++) {
    const res = await client.api('PUT', `/ticketing/ticket/${ticketId}`, call, {
      body: updateOf(ticket, statusId),
    })
    if (res.ok) return ok({ alreadyClosed: false })
    if (res.failure.status !== 409 || put >= maxPuts) return res
    const again = await readTicket(client, ticketId, call)
    if (!again.ok) return again
    ticket = again.value
  }
}

/** NinjaOne's UpdateTicket from the ticket read: its required fields copied, the status changed. */
export function updateOf(t: NinjaItem, statusId: string): NinjaItem {
  const body: NinjaItem = {
    version: t.version,
    clientId: t.clientId,
    ticketFormId: t.ticketFormId,
    subject: t.subject,
    status: statusId,
  }
  if (t.requesterUid !== undefined && t.requesterUid !== null) body.requesterUid = t.requesterUid
  return body
}
