// Closing a SuperOps ticket (docs/psa/superops.md, "Closed statuses"): read it (`getTicket`); closed
// already — a resolution time, or a status the tenant's tickets show closing, or the partner's — is a
// technician's doing, or on a retry the lost attempt's. Else the resolution as a PRIVATE note (not
// again when a retry finds the earlier attempt's), then `updateTicket {status}` with the status the
// rule or the partner names, else the one the tenant's recent tickets show closing most. Without
// either the close is refused, with a sentence saying to set closedStatus: a status is never picked
// because its name sounds closed.
import { type CloseCall, type CloseRequest, fail, ok, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import type { SuperOpsLists } from './connection-lists.js'
import { getTicket, updateTicket } from './documents.js'
import { privateNote } from './notes.js'
import { hasNote, isClosed, type SuperOpsTicket } from './tickets.js'

const rejected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

export async function closeTicket(
  lists: SuperOpsLists,
  ticketId: string,
  close: CloseRequest,
  call: CloseCall,
): Promise<PsaResult<{ alreadyClosed: boolean }>> {
  const { client } = lists
  const got = await client.request<SuperOpsTicket>(getTicket, { input: { ticketId } }, call)
  if (!got.ok) return got
  if (!got.value)
    return fail({ kind: 'not-found', retryable: false, message: `SuperOps has no ticket ${ticketId}` })
  const closed = await lists.closed(call, close.closedStatus)
  if (!closed.ok) return closed
  if (isClosed(got.value, closed.value)) return ok({ alreadyClosed: !call.adopt })
  const target = await closingStatus(lists, close.closedStatus, call)
  if (!target.ok) return target
  const written =
    call.adopt && call.marker !== '' ? await hasNote(client, ticketId, call.marker, call) : ok(false)
  if (!written.ok) return written
  if (!written.value) {
    const noted = await privateNote(lists, ticketId, close.note, call)
    if (!noted.ok) return noted
  }
  const put = await client.request<SuperOpsTicket>(
    updateTicket,
    { input: { ticketId, status: target.value } },
    call,
  )
  return put.ok ? ok({ alreadyClosed: false }) : put
}

/** The status a close sets: the one named (from SuperOps' list), else the one its tickets close with most. */
async function closingStatus(
  lists: SuperOpsLists,
  named: string | null,
  call: CloseCall,
): Promise<PsaResult<string>> {
  const wanted = named ?? lists.closedStatus
  if (wanted !== null) {
    let list = await lists.statusList(call)
    if (list.ok && !byIdOrName(list.value, wanted)) list = await lists.statusList(call, true)
    if (!list.ok) return list
    const found = byIdOrName(list.value, wanted)
    return found ? ok(found.name) : fail(rejected(`SuperOps has no ticket status '${wanted}'`))
  }
  const learned = lists.learned.peek()
  const first = learned?.closed[0]
  if (first) return ok(first)
  return fail(
    rejected(
      "SuperOps statuses have no closed flag and none of the tenant's recent tickets shows which status closes one: set closedStatus in the ticket defaults",
    ),
  )
}
