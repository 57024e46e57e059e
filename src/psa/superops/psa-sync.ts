// Two-way sync on SuperOps (docs/psa/superops.md, "Two-way sync"). SuperOps has no ticket webhook an
// API client can register, so alertbridge hears technicians only by the reconciliation poll: first
// `getTicketList` for the tickets updated after the last poll (`updatedTime after`, oldest first, 100 a
// page, bounded), then one `getTicket` per alertbridge ticket among them, and its notes where the
// ticket is open (to tell whether someone else worked it).
//
// Closed: as tickets.ts says (a resolution time, a status the tenant's tickets show closing, or the
// partner's closedStatus). Deleted: getTicket answers null. Merged: never — SuperOps' API shows no
// merge and no field naming a surviving ticket; a technician closing the duplicate reads as closed.
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { eachAtMost } from '../core/each.js'
import { byIdOrName } from '../core/names.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import { superOpsTime } from './client.js'
import type { SuperOpsLists } from './connection-lists.js'
import { getTicket, getTicketList, updateTicket } from './documents.js'
import { writeNote } from './notes.js'
import { authorOf, isClosed, notesOf, refLine, type SuperOpsNote, type SuperOpsTicket } from './tickets.js'

/** Tickets read at once (each one call; the connection's `maxConcurrent` and budget still apply). */
const readsAtOnce = 4
/** Pages of changed tickets read at most in one poll (100 a page). */
const changedPages = 20
/** The status SuperOps gives a new ticket, and the one a reopen without a named status prefers. */
export const openStatus = 'Open'

const norm = (s: string | null | undefined) => (s ?? '').trim().replace(/\s+/g, ' ').toLowerCase()
const rejected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

/** A note that carries what alertbridge writes: our reference or a messageId line. */
function marked(n: SuperOpsNote): boolean {
  const body = typeof n.content === 'string' ? n.content : ''
  return body.includes(refLine('')) || /(^|\n)Message ID: \S/.test(body)
}

/** Time logged on a ticket, as SuperOps gives it (hours or h:mm): any but zero. */
const logged = (v: string | null | undefined) => typeof v === 'string' && /[1-9]/.test(v)

export class SuperOpsPsaSync {
  constructor(
    private readonly lists: SuperOpsLists,
    /** The connection's initial status (`defaults.status`): alertbridge's own, not a technician's. */
    private readonly initialStatus: string | null,
  ) {}

  async readTickets(ids: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    const closed = await this.lists.closed(call)
    if (!closed.ok) return closed
    return eachAtMost(ids, readsAtOnce, (id) => this.readOne(id, closed.value, call))
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    const { client } = this.lists
    const got = await client.request<SuperOpsTicket>(getTicket, { input: { ticketId } }, call)
    if (!got.ok) return got
    if (!got.value)
      return fail({ kind: 'not-found', retryable: false, message: `SuperOps has no ticket ${ticketId}` })
    const closed = await this.lists.closed(call)
    if (!closed.ok) return closed
    const target = await this.openStatusOf(reopen.openStatus, closed.value, call)
    if (!target.ok) return target
    // The status first, so that the note lands on an open ticket; a retry finds both done.
    if (isClosed(got.value, closed.value) || norm(got.value.status) !== norm(target.value)) {
      const put = await client.request(updateTicket, { input: { ticketId, status: target.value } }, call)
      if (!put.ok) return put
    }
    const marker = call.marker
    const note =
      marker === '' || reopen.note.includes(marker) ? reopen.note : `${reopen.note}\n\nMessage ID: ${marker}`
    return writeNote(this.lists, ticketId, note, call)
  }

  /** Every ticket updated after `since` (oldest first, bounded): the poll reads alertbridge's among them. */
  async changedSince(since: string, call: PsaCall): Promise<PsaResult<{ ticketIds: string[] }>> {
    const at = Date.parse(since)
    if (Number.isNaN(at)) return fail(rejected(`not a time: ${since}`))
    const input = {
      condition: { attribute: 'updatedTime', operator: 'after', value: superOpsTime(new Date(at)) },
      sort: [{ attribute: 'updatedTime', order: 'ASC' }],
    }
    const listed = await this.lists.client.all<SuperOpsTicket>(
      getTicketList,
      'tickets',
      input,
      call,
      changedPages,
    )
    if (!listed.ok) return listed
    const ids = listed.value
      .map((t) => t?.ticketId)
      .filter((id) => id !== undefined && id !== null && id !== '')
    return ok({ ticketIds: [...new Set(ids.map(String))] })
  }

  private async readOne(
    ticketId: string,
    closed: string[],
    call: PsaCall,
  ): Promise<PsaResult<PsaTicketRead>> {
    const { client } = this.lists
    const got = await client.request<SuperOpsTicket>(getTicket, { input: { ticketId } }, call)
    if (!got.ok) return got.failure.kind === 'not-found' ? ok(deletedRead(ticketId)) : got
    const t = got.value
    if (!t) return ok(deletedRead(ticketId))
    const isShut = isClosed(t, closed)
    const worked = await this.worked(t, isShut, call)
    if (!worked.ok) return worked
    return ok({
      ticketId,
      state: isShut ? 'closed' : 'open',
      statusName: typeof t.status === 'string' ? t.status : null,
      mergedInto: null,
      worked: worked.value,
      changedBy: null,
    })
  }

  /** Worked: time logged, a note someone else wrote, or (open) a status alertbridge does not create tickets with. */
  private async worked(t: SuperOpsTicket, closed: boolean, call: PsaCall): Promise<PsaResult<boolean>> {
    if (logged(t.worklogTimespent)) return ok(true)
    if (!closed) {
      const initial = await this.lists.statusNames([this.initialStatus], call)
      if (!initial.ok) return initial
      const own = [openStatus, ...initial.value].map(norm)
      if (norm(t.status) !== '' && !own.includes(norm(t.status))) return ok(true)
    }
    const notes = await notesOf(this.lists.client, t.ticketId, call)
    if (!notes.ok) return notes
    // Who alertbridge is on a note: learnt from a note it wrote (notes.ts), else from a marked note.
    this.lists.self ??= authorOf(notes.value.find(marked) ?? null)
    const self = this.lists.self
    return ok(notes.value.some((n) => !marked(n) && (self === null || authorOf(n) !== self)))
  }

  /** The status a reopen sets: the one named (an open one), else Open, else the first open status. */
  private async openStatusOf(
    named: string | null,
    closed: string[],
    call: PsaCall,
  ): Promise<PsaResult<string>> {
    const list = await this.lists.statusList(call)
    if (!list.ok) return list
    const isOpen = (name: string) => !closed.some((c) => norm(c) === norm(name))
    if (named !== null) {
      const found = byIdOrName(list.value, named)
      if (!found) return fail(rejected(`SuperOps has no ticket status '${named}'`))
      if (!isOpen(found.name))
        return fail(rejected(`'${found.name}' closes SuperOps tickets: a reopen needs an open status`))
      return ok(found.name)
    }
    const open = list.value.filter((s) => isOpen(s.name))
    return ok(
      (byIdOrName(open, this.initialStatus ?? openStatus) ?? byIdOrName(open, openStatus) ?? open[0])?.name ??
        openStatus,
    )
  }
}
