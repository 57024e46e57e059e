// Two-way sync (docs/psa/ninjaone.md#two-way-sync): NinjaOne's webhook reports only created,
// deleted and reinstated tickets (push.ts), so status changes are heard by the poll, which reads
// each tracked ticket back (GET /v2/ticketing/ticket/{id}): deleted when NinjaOne answers 404 or marks
// it deleted, closed by the status rule of lists.ts. Reopening is a private comment (carrying the
// alert's marker, so a retry writes none twice) and a PUT with an open status.
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { fitText } from '../core/text.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import { hasCommentWith } from './adopt.js'
import { isItem, limits, type NinjaClient, type NinjaItem, psaName } from './client.js'
import { type NinjaLists, type NinjaStatus, newStatusId, statusClosed } from './lists.js'
import { comment, setStatus } from './notes.js'
import { readTicket, refusal } from './read.js'

/** Tickets one poll call reads at most (one GET each: NinjaOne reads no batch). */
const maxReads = 200

export class NinjaPsaSync {
  constructor(
    private readonly client: NinjaClient,
    private readonly lists: NinjaLists,
  ) {}

  async readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    const statuses = await this.lists.statusList(call)
    if (!statuses.ok) return statuses
    const reads: PsaTicketRead[] = []
    for (const id of ticketIds.slice(0, maxReads)) {
      if (!/^\d+$/.test(id)) {
        reads.push(deletedRead(id))
        continue
      }
      const t = await readTicket(this.client, id, call)
      if (!t.ok) {
        if (t.failure.kind === 'not-found') reads.push(deletedRead(id))
        else return t
        continue
      }
      reads.push(ticketRead(id, t.value, statuses.value))
    }
    return ok(reads)
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    const t = await readTicket(this.client, ticketId, call)
    if (!t.ok) return t
    const statuses = await this.lists.statusList(call)
    if (!statuses.ok) return statuses
    const target = reopen.openStatus
      ? byIdOrName(statuses.value, reopen.openStatus)
      : (statuses.value.find((s) => s.systemName === 'OPEN') ??
        statuses.value.find((s) => s.id === newStatusId) ??
        null)
    if (!target || target.closed)
      return fail(refusal(`NinjaOne has no open status '${reopen.openStatus ?? 'OPEN'}'`))
    const there =
      call.adopt && call.marker !== ''
        ? await hasCommentWith(this.client, ticketId, call.marker, call)
        : ok(false)
    if (!there.ok) return there
    if (!there.value) {
      const noted = await comment(this.client, ticketId, fitText(reopen.note, limits.note, psaName), call)
      if (!noted.ok) return noted
    }
    if (!statusClosed(t.value.status, statuses.value)) return ok(null)
    const set = await setStatus(this.client, ticketId, t.value, target.id, call)
    return set.ok ? ok(null) : set
  }
}

/**
 * A ticket as sync reads it. NinjaOne keeps no update time and no author of the last change, so
 * `worked` is a guess: time tracked on the ticket, or a status that is neither New nor closed (one a
 * technician chose; alertbridge sets only New and closed statuses).
 */
export function ticketRead(id: string, t: NinjaItem, statuses: readonly NinjaStatus[]): PsaTicketRead {
  if (t.deleted === true) return deletedRead(id)
  const status = isItem(t.status) ? t.status : null
  const closed = statusClosed(t.status, statuses)
  const known = statuses.find((s) => s.id === String(status?.statusId ?? t.status))
  const name =
    (typeof status?.displayName === 'string' && status.displayName) ||
    (typeof status?.name === 'string' && status.name) ||
    known?.name ||
    null
  const tracked = typeof t.totalTimeTracked === 'number' && t.totalTimeTracked > 0
  const statusId = String(status?.statusId ?? t.status ?? '')
  return {
    ticketId: id,
    state: closed ? 'closed' : 'open',
    statusName: name,
    mergedInto: null,
    worked: tracked || (!closed && statusId !== newStatusId),
    changedBy: null,
  }
}
