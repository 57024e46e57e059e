// Two-way sync (docs/psa/ninjaone.md#two-way-sync): NinjaOne's webhook reports only created,
// deleted and reinstated tickets (push.ts), so status changes are heard by the poll, which reads
// each tracked ticket back (GET /v2/ticketing/ticket/{id}): deleted when NinjaOne answers 404 or marks
// it deleted, closed by the status rule of lists.ts. Reopening is a private comment (carrying the
// alert's marker, so a retry writes none twice) and a PUT with an open status.
import type { Static } from 'typebox'
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { eachAtMost } from '../core/each.js'
import { byIdOrName } from '../core/names.js'
import { fitText } from '../core/text.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import { hasCommentWith, searchBoard } from './adopt.js'
import { epochMs, idText, isItem, limits, type NinjaClient, type NinjaItem, psaName } from './client.js'
import { type NinjaLists, type NinjaStatus, newStatusId, statusClosed } from './lists.js'
import { comment, setStatus } from './notes.js'
import { readTicket, refusal } from './read.js'
import type { NinjaOneSettings } from './settings.js'

/** Tickets one poll call reads at most (one GET each: NinjaOne reads no batch), and how many at once
 * (the connection's limiter bounds what is in flight). */
const maxReads = 200
const readsAtOnce = 4

/** Rows of the changed-tickets run, and its pages at most. */
const changedPageSize = 100
const changedPages = 5

export class NinjaPsaSync {
  constructor(
    private readonly client: NinjaClient,
    private readonly lists: NinjaLists,
    private readonly s: Static<typeof NinjaOneSettings>,
  ) {}

  /**
   * The tickets changed since `since`: the search board run last updated first (its `lastUpdated`
   * column), page after page until a row is older (at most five pages of 100). Where rows carry no
   * such time, the first page's tickets are answered (they are read back, which costs a read each).
   */
  async changedSince(since: string, call: PsaCall): Promise<PsaResult<{ ticketIds: string[] }>> {
    const board = await searchBoard(this.lists, this.s, call)
    if (!board.ok) return board
    const after = Date.parse(since)
    const ids = new Set<string>()
    let cursor: unknown
    for (let page = 0; page < changedPages; page++) {
      const res = await this.client.api('POST', `/ticketing/trigger/board/${board.value}/run`, call, {
        body: {
          pageSize: changedPageSize,
          sortBy: [{ field: 'lastUpdated', direction: 'DESC' }],
          ...(cursor !== undefined ? { lastCursorId: cursor } : {}),
        },
      })
      if (!res.ok) return res
      const body = isItem(res.value.body) ? res.value.body : {}
      const rows = Array.isArray(body.data) ? body.data.filter(isItem) : []
      let older = false
      for (const row of rows) {
        const id = idText(row.id)
        const at = epochMs(row.lastUpdated)
        if (at !== null && at < after) {
          older = true
          break
        }
        if (id !== null) ids.add(id)
      }
      const meta = isItem(body.metadata) ? body.metadata : {}
      const untimed = rows.length > 0 && rows.every((r) => epochMs(r.lastUpdated) === null)
      if (
        older ||
        untimed ||
        rows.length < changedPageSize ||
        meta.lastCursorId == null ||
        meta.lastCursorId === cursor
      )
        break
      cursor = meta.lastCursorId
    }
    return ok({ ticketIds: [...ids] })
  }

  async readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    const statuses = await this.lists.statusList(call)
    if (!statuses.ok) return statuses
    return eachAtMost(ticketIds.slice(0, maxReads), readsAtOnce, (id) =>
      this.readOne(id, statuses.value, call),
    )
  }

  /** One ticket, and (while open and not yet seen worked) its log entries for a technician's work. */
  private async readOne(
    id: string,
    statuses: readonly NinjaStatus[],
    call: PsaCall,
  ): Promise<PsaResult<PsaTicketRead>> {
    if (!/^\d+$/.test(id)) return ok(deletedRead(id))
    const t = await readTicket(this.client, id, call)
    if (!t.ok) return t.failure.kind === 'not-found' ? ok(deletedRead(id)) : t
    const read = ticketRead(id, t.value, statuses)
    if (read.state !== 'open' || read.worked) return ok(read)
    const log = await this.client.list(`/ticketing/ticket/${id}/log-entry`, call, { pageSize: logPageSize })
    return log.ok ? ok({ ...read, worked: workedIn(log.value) }) : log
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

/** Log entries read to tell a technician's work (newest first). */
const logPageSize = 100

/**
 * Whether someone other than alertbridge's user worked the ticket: a comment or a save by another
 * author than the one who wrote its description (alertbridge, which created it), or time tracked.
 * Where the description is older than the page read, the ticket counts as worked (a long history).
 */
export function workedIn(entries: readonly NinjaItem[]): boolean {
  const description = entries.find((e) => e.type === 'DESCRIPTION')
  if (!description) return entries.length >= logPageSize
  const ours = description.appUserContactId
  return entries.some(
    (e) =>
      (typeof e.timeTracked === 'number' && e.timeTracked > 0) ||
      ((e.type === 'COMMENT' || e.type === 'SAVE') && e.appUserContactId !== ours),
  )
}

/**
 * A ticket as sync reads it. NinjaOne keeps no update time and no author of the last change on the
 * ticket: `worked` here is time tracked on it; its log entries tell the rest (workedIn).
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
  return {
    ticketId: id,
    state: closed ? 'closed' : 'open',
    statusName: name,
    mergedInto: null,
    worked: tracked,
    changedBy: null,
  }
}
