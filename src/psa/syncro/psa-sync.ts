// Two-way sync on Syncro (docs/psa/syncro.md, "Two-way sync"). Syncro has no ticket push an API
// client can register, so alertbridge hears technicians only by the reconciliation poll: first
// `GET /tickets?since_updated_at=` (at most 8 pages) for what changed, then one `GET /tickets/{id}` per
// alertbridge ticket among them — Syncro's ticket list has no filter by ids, and only the single
// ticket embeds its comments and timers, which say whether a technician worked it.
//
// Closed: resolved as Syncro says (`resolved_at`, Resolved, Invoiced), a status whose name starts with
// "Resolved" (Syncro gives those Resolved's behaviour), or the connection's own closed status. Deleted:
// a 404. Merged: never — Syncro's API has no merge and no field naming a surviving ticket; what a
// technician does instead (resolve the duplicate, or delete it) reads as closed or deleted.
import { uriComponent } from '../../platform/core/text.js'
import {
  fail,
  type NoteCall,
  ok,
  type PsaCall,
  type PsaEntity,
  type PsaFailure,
  type PsaResult,
} from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import { itemOf, type SyncroClient } from './client.js'
import { hasComment, isClosed, ourTech, refLine, type SyncroComment, type SyncroTicket } from './tickets.js'

/** The status Syncro gives every new ticket, and so the one a reopen without a named status sets. */
export const newStatus = 'New'
/** Tickets read at once (each one call; the connection's `maxConcurrent` and budget still apply). */
const readsAtOnce = 4
/**
 * Pages of changed tickets listed a round (25 each): a busy account's listing stays within what the
 * poll may spend (docs/psa/sync.md#the-poll-and-the-budget); changes beyond them are heard when the
 * poll's page reaches their tickets.
 */
const changedPages = 8

export interface SyncroSyncSetup {
  client: SyncroClient
  /** The connection's initial status (`defaults.status`): alertbridge's own, not a technician's. */
  initialStatus: string | null
  /** The connection's closed status (`defaults.closedStatus`): closed when a ticket has it. */
  closedStatus: string | null
  /** The account's ticket statuses (kept by the connection). */
  statuses(call: PsaCall): Promise<PsaResult<PsaEntity[]>>
  /** A hidden comment that e-mails no one, written as alertbridge. */
  comment(ticketId: string, subject: string, body: string, call: PsaCall): Promise<PsaResult<null>>
}

const norm = (s: string | null | undefined) => (s ?? '').trim().replace(/\s+/g, ' ').toLowerCase()

/** A comment alertbridge wrote: its author name, or (written before it sent one) its reference lines. */
function ours(c: SyncroComment): boolean {
  const body = typeof c.body === 'string' ? c.body : ''
  return norm(c.tech) === ourTech || body.includes(refLine('')) || /(^|\n)Message ID: \S/.test(body)
}

/** A comment someone else wrote: not ours, and Syncro names its author (a system line names none). */
function byOthers(c: SyncroComment): boolean {
  if (!c || typeof c !== 'object' || ours(c)) return false
  return norm(c.tech) !== '' || (c.user_id !== undefined && c.user_id !== null && c.user_id !== '')
}

export class SyncroPsaSync {
  constructor(private readonly s: SyncroSyncSetup) {}

  /** Closed as two-way sync reads it (see the header). */
  closed(t: SyncroTicket): boolean {
    const status = norm(t.status)
    if (isClosed(t) || status.startsWith('resolved')) return true
    return this.s.closedStatus !== null && status !== '' && status === norm(this.s.closedStatus)
  }

  async readTickets(ids: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    const reads: PsaTicketRead[] = new Array(ids.length)
    const run = { next: 0, failure: null as PsaFailure | null }
    const worker = async () => {
      while (run.failure === null && run.next < ids.length) {
        const i = run.next++
        const read = await this.readOne(ids[i] ?? '', call)
        if (!read.ok) {
          run.failure ??= read.failure
          return
        }
        reads[i] = read.value
      }
    }
    await Promise.all(Array.from({ length: Math.min(readsAtOnce, ids.length) }, worker))
    return run.failure ? fail(run.failure) : ok(reads)
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    const got = await this.s.client.api('GET', `/tickets/${uriComponent(ticketId)}`, call)
    if (!got.ok) return got
    const ticket = itemOf<SyncroTicket>(got.value.body, 'ticket')
    if (!ticket) return fail(rejected('Syncro answered no ticket'))
    const target = await this.openStatus(reopen.openStatus, call)
    if (!target.ok) return target
    // The status first, so that the note lands on an open ticket; a retry finds both done.
    if (this.closed(ticket) || norm(ticket.status) !== norm(target.value)) {
      const put = await this.s.client.api('PUT', `/tickets/${uriComponent(ticketId)}`, call, {
        body: { status: target.value },
      })
      if (!put.ok) return put
    }
    const marker = call.marker
    if (call.adopt && marker !== '' && hasComment(ticket, marker) === true) return ok(null)
    // The note carries the marker, as every note of an alert does, so a retry finds it.
    const note =
      marker === '' || reopen.note.includes(marker) ? reopen.note : `${reopen.note}\n\nMessage ID: ${marker}`
    return this.s.comment(ticketId, 'Update', note, call)
  }

  /** The tickets updated since `since` (at most `changedPages` pages): the poll then reads alertbridge's among them. */
  async changedSince(since: string, call: PsaCall): Promise<PsaResult<{ ticketIds: string[] }>> {
    const listed = await this.s.client.all<SyncroTicket>(
      '/tickets',
      'tickets',
      call,
      { since_updated_at: since },
      changedPages,
    )
    if (!listed.ok) return listed
    const ids = listed.value
      .map((t) => t?.id)
      .filter((id) => id !== undefined && id !== null && id !== '')
      .map(String)
    return ok({ ticketIds: [...new Set(ids)] })
  }

  private async readOne(ticketId: string, call: PsaCall): Promise<PsaResult<PsaTicketRead>> {
    const got = await this.s.client.api('GET', `/tickets/${uriComponent(ticketId)}`, call)
    if (!got.ok) {
      if (got.failure.kind !== 'not-found') return got
      return ok(deletedRead(ticketId))
    }
    const t = itemOf<SyncroTicket>(got.value.body, 'ticket')
    if (!t) return fail(rejected(`Syncro answered no ticket for ${ticketId}`))
    const closed = this.closed(t)
    const status = typeof t.status === 'string' ? t.status : null
    // Syncro names no one who last changed a ticket: changedBy stays null.
    return ok({
      ticketId,
      state: closed ? 'closed' : 'open',
      statusName: status,
      mergedInto: null,
      worked: this.worked(t, closed),
      changedBy: null,
    })
  }

  /**
   * Worked: time logged on the ticket (alertbridge logs none), a comment someone else wrote, or (open)
   * a status alertbridge does not create tickets with.
   */
  private worked(t: SyncroTicket, closed: boolean): boolean {
    if (Array.isArray(t.ticket_timers) && t.ticket_timers.length > 0) return true
    if (Array.isArray(t.comments) && t.comments.some(byOthers)) return true
    if (closed) return false
    const ownStatuses = [newStatus, this.s.initialStatus].map(norm)
    return norm(t.status) !== '' && !ownStatuses.includes(norm(t.status))
  }

  /** The status a reopen sets: the one named (from the account's list), else New (or the first open one). */
  private async openStatus(named: string | null, call: PsaCall): Promise<PsaResult<string>> {
    const list = await this.s.statuses(call)
    if (!list.ok) return list
    if (named !== null) {
      const found = byIdOrName(list.value, named)
      if (!found) return fail(rejected(`Syncro has no ticket status '${named}'`))
      if (this.closed({ id: '', status: found.name }) || found.closed === true)
        return fail(rejected(`'${found.name}' is a closed status in Syncro: a reopen needs an open one`))
      return ok(found.name)
    }
    const open = list.value.filter((s) => s.closed !== true && !norm(s.name).startsWith('resolved'))
    return ok((byIdOrName(open, newStatus) ?? open[0])?.name ?? newStatus)
  }
}

const rejected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })
