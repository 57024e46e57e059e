// HaloPSA actions (docs/psa/halopsa.md): an alert's update is a hidden action at /api/Actions that
// e-mails no one (a retry looks for the alert's marker among the ticket's actions first), and a close
// is one action carrying the resolution and, as new_status, the status Halo treats as closed (see
// lists.ts: never a status picked by its name); where Halo did not move the status, the ticket is
// updated with it.
import type { Static } from 'typebox'
import {
  type CloseCall,
  type CloseRequest,
  fail,
  type NoteCall,
  ok,
  type PsaCall,
  type PsaResult,
} from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { fitText } from '../core/text.js'
import { hasActionWith, readTicket } from './adopt.js'
import { type HaloClient, type HaloItem, limits, psaName } from './client.js'
import { closingStatus, type HaloLists, type HaloStatus, idText } from './lists.js'
import type { HaloPsaSettings } from './settings.js'

type Settings = Static<typeof HaloPsaSettings>

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

/** An alert's update as a hidden action; on a retry, none when an action carries the marker. */
export async function appendNote(
  client: HaloClient,
  s: Settings,
  ticketId: string,
  note: string,
  call: NoteCall,
): Promise<PsaResult<null>> {
  if (!/^\d+$/.test(ticketId)) return fail(refusal(`HaloPSA ticket ids are numbers, not '${ticketId}'`))
  // A retry after a lost answer: the note is there already if an action carries the marker.
  if (call.adopt && call.marker !== '') {
    const there = await hasActionWith(client, ticketId, call.marker, call)
    if (!there.ok) return there
    if (there.value) return ok(null)
  }
  const res = await client.api('POST', '/Actions', call, {
    body: [action(s, ticketId, fitText(note, limits.note, psaName))],
  })
  return res.ok ? ok(null) : res
}

/**
 * The ticket closed with the status Halo treats as closed (or the one named), the resolution and the
 * status in one action; a ticket found closed is a technician's doing, or on a retry the earlier attempt's.
 */
export async function closeTicket(
  client: HaloClient,
  lists: HaloLists,
  s: Settings,
  ticketId: string,
  close: CloseRequest,
  call: CloseCall,
): Promise<PsaResult<{ alreadyClosed: boolean }>> {
  if (!/^\d+$/.test(ticketId)) return fail(refusal(`HaloPSA ticket ids are numbers, not '${ticketId}'`))
  const ticket = await readTicket(client, ticketId, call)
  if (!ticket.ok) return ticket
  const statuses = await lists.statusList(call)
  if (!statuses.ok) return statuses
  // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
  if (isClosed(ticket.value, statuses.value)) return ok({ alreadyClosed: !call.adopt })
  const target = close.closedStatus
    ? byIdOrName(statuses.value, close.closedStatus)
    : closingStatus(statuses.value)
  if (!target) {
    return fail(
      refusal(
        close.closedStatus
          ? `HaloPSA has no status '${close.closedStatus}'`
          : 'HaloPSA lists no status it treats as closed',
      ),
    )
  }
  // A retry: an action with the marker is the earlier attempt's resolution note, and the ticket is
  // still open, so only the status is left to set.
  if (call.adopt && call.marker !== '') {
    const there = await hasActionWith(client, ticketId, call.marker, call)
    if (!there.ok) return there
    if (there.value) return setStatus(client, ticketId, target.id, call)
  }
  // The resolution and the status in one action, which Halo's audit shows as the closing note.
  const noted = await client.api('POST', '/Actions', call, {
    body: [
      {
        ...action(s, ticketId, fitText(close.note, limits.note, psaName)),
        new_status: Number(target.id),
      },
    ],
  })
  if (!noted.ok) return noted
  // Where the action did not move the status (new_status not honoured), the ticket is updated.
  const after = await readTicket(client, ticketId, call)
  if (!after.ok) return after
  if (idText(after.value.status_id) === target.id) return ok({ alreadyClosed: false })
  return setStatus(client, ticketId, target.id, call)
}

async function setStatus(
  client: HaloClient,
  ticketId: string,
  statusId: string,
  call: PsaCall,
): Promise<PsaResult<{ alreadyClosed: boolean }>> {
  const updated = await client.api('POST', '/Tickets', call, {
    body: [{ id: Number(ticketId), status_id: Number(statusId) }],
  })
  return updated.ok ? ok({ alreadyClosed: false }) : updated
}

/** A note as a hidden action that e-mails no one. */
export function action(s: Settings, ticketId: string, note: string): HaloItem {
  const outcome = s.noteOutcome ?? 'Private Note'
  return {
    ticket_id: Number(ticketId),
    note,
    ...(/^\d+$/.test(outcome) ? { outcome_id: Number(outcome) } : { outcome }),
    hiddenfromuser: true,
    sendemail: false,
  }
}

/**
 * Closed: its status is one Halo treats as closed. `hasbeenclosed` counts only where the status is not
 * known to be open (it stays true on a ticket a technician reopened).
 */
export function isClosed(ticket: HaloItem, statuses: HaloStatus[]): boolean {
  const status = statuses.find((s) => s.id === idText(ticket.status_id))
  return status ? status.closed : ticket.hasbeenclosed === true
}
