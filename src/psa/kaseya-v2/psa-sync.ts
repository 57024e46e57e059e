// Two-way sync's reads and reopen on Kaseya BMS (docs/psa/kaseya-bms.md, "Two-way sync"). BMS's ticket
// list has no filter by id, so each ticket is one GET of /v2/servicedesk/tickets/{id} (a 404 or a "not
// found" refusal: deleted) and one of its activities (…/{id}/activities: notes and time entries in one
// feed, with who wrote them). Closed: completedDate, or a status BMS classes as completed
// (completion.ts). Merged: BMS's merge (POST /v2/servicedesk/tickets/merge) completes the merged ticket
// and relates it to its absorber; alertbridge reads a completed ticket's related tickets when one of
// its activities says it was merged, and takes the related ticket that activity names. Worked: time
// spent, an activity by another user than alertbridge's API user, or a last change (ModifiedBy) by
// another user. Reopen: a note with the open status's StatusId, one call, as a close that does not
// complete writes (notes.ts), so a retry with the marker writes nothing twice.
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import type { V2Client } from './client.js'
import { type Completion, completedDateOf } from './completion.js'
import type { Lists, V2Status } from './lists.js'
import { type NoteWriter, writeNote } from './notes.js'
import { bool, num, rows, str } from './wire.js'

/** alertbridge's own BMS user, as /v2/security/userinfo names it (null where it does not say). */
export interface ApiUser {
  id: number | null
  name: string | null
}

export interface PsaSyncConnection extends NoteWriter {
  client: V2Client
  lists: Lists
  completion: Completion
  apiUser(call: PsaCall): Promise<PsaResult<ApiUser>>
}

/** Pages of activities read per ticket (100 a page): enough to see who worked it. */
const activityPages = 5
/** Tickets read at once (the limiter still holds each endpoint to its concurrency). */
const together = 4

const refused = <T>(message: string): PsaResult<T> => fail({ kind: 'rejected', retryable: false, message })
const isId = (id: string) => /^\d+$/.test(id)

export async function readTickets(
  c: PsaSyncConnection,
  ticketIds: readonly string[],
  call: PsaCall,
): Promise<PsaResult<PsaTicketRead[]>> {
  const bad = ticketIds.find((id) => !isId(id))
  if (bad !== undefined) return refused(`${c.client.psa.name} ticket ids are numbers, not '${bad}'`)
  if (ticketIds.length === 0) return ok([])
  const me = await c.apiUser(call)
  if (!me.ok) return me
  const statuses = await c.lists.statuses(call)
  if (!statuses.ok) return statuses
  const reads: PsaTicketRead[] = []
  for (let i = 0; i < ticketIds.length; i += together) {
    const batch = await Promise.all(
      ticketIds.slice(i, i + together).map((id) => readOne(c, id, me.value, statuses.value, call)),
    )
    for (const r of batch) {
      if (!r.ok) return r
      reads.push(r.value)
    }
  }
  return ok(reads)
}

async function readOne(
  c: PsaSyncConnection,
  ticketId: string,
  me: ApiUser,
  statuses: readonly V2Status[],
  call: PsaCall,
): Promise<PsaResult<PsaTicketRead>> {
  const got = await c.client.api('GET', `/servicedesk/tickets/${ticketId}`, call)
  if (!got.ok) return got.failure.kind === 'not-found' ? ok(deletedRead(ticketId)) : got
  const ticket = got.value.result
  if (!ticket || typeof ticket !== 'object') return ok(deletedRead(ticketId))
  c.completion.learn(ticket, statuses)
  const status = statuses.find((s) => s.id === str(ticket, 'statusId'))
  const closed =
    completedDateOf(ticket) !== null || (status ? c.completion.of(status, statuses) === true : false)
  const acts = await feeds(c.client, ticketId, call)
  // Deleted between the two reads.
  if (!acts.ok) return acts.failure.kind === 'not-found' ? ok(deletedRead(ticketId)) : acts
  // Without userinfo's id, the ticket's creator is alertbridge (it created the ticket).
  const mine = me.id ?? num(ticket, 'createdBy')
  let mergedInto: string | null = null
  if (closed) {
    const merged = await absorber(c.client, ticketId, acts.value, call)
    if (!merged.ok) return merged
    mergedInto = merged.value
  }
  return ok({
    ticketId,
    state: mergedInto ? 'merged' : closed ? 'closed' : 'open',
    statusName: str(ticket, 'statusName') ?? status?.name ?? null,
    mergedInto,
    worked: workedOn(ticket, acts.value, mine, me.name),
    changedBy: changedBy(ticket, acts.value, mine, me.name, c.client.psa.short),
  })
}

/**
 * What was done on the ticket, from the flavour's feeds (BMS: …/activities, notes and time in one;
 * Pulseway PSA: …/notes and …/timelogs). The first feed not found: the ticket is gone; a notes or time
 * feed refused (Pulseway answers 400 for some tickets' notes) or not found after it reads as empty.
 */
async function feeds(client: V2Client, ticketId: string, call: PsaCall): Promise<PsaResult<unknown[]>> {
  const all: unknown[] = []
  for (const [i, feed] of client.psa.activityFeeds.entries()) {
    const res = await client.all(`/servicedesk/tickets/${ticketId}/${feed}`, call, {}, activityPages)
    if (!res.ok) {
      if (i === 0 && res.failure.kind === 'not-found') return res
      const refusal = res.failure.kind === 'rejected' || res.failure.kind === 'not-found'
      if (refusal && feed !== 'activities') continue
      return res
    }
    all.push(...res.value)
  }
  return ok(all)
}

/** Time spent, an activity by someone else (by user id; by name where a feed names its writer only,
 * as Pulseway's notes do), or a last change by someone else. */
function workedOn(
  ticket: unknown,
  activities: readonly unknown[],
  mine: number | null,
  myName: string | null,
): boolean {
  if ((num(ticket, 'totalTimeSpent') ?? 0) > 0) return true
  const someoneElse = (by: number | null) => mine !== null && by !== null && by !== mine
  if (someoneElse(num(ticket, 'modifiedBy'))) return true
  const namedElse = (a: unknown) => {
    const name = str(a, 'createdByName')?.trim()
    return num(a, 'createdBy') === null && myName !== null && !!name && name !== myName.trim()
  }
  return activities.some(
    (a) =>
      (num(a, 'timeSpent') ?? 0) > 0 ||
      /time/i.test(str(a, 'activityType') ?? '') ||
      someoneElse(num(a, 'createdBy')) ||
      namedElse(a),
  )
}

/** The last change's author by name: an activity of theirs names them, else their BMS user id. */
function changedBy(
  ticket: unknown,
  activities: readonly unknown[],
  mine: number | null,
  myName: string | null,
  short: string,
): string | null {
  const by = num(ticket, 'modifiedBy')
  if (by === null) return null
  const named = activities
    .filter((a) => num(a, 'createdBy') === by)
    .map((a) => str(a, 'createdByName')?.trim())
    .find((n) => n)
  return named ?? (by === mine && myName ? myName : `${short} user ${by}`)
}

/**
 * The ticket that absorbed this (completed) one: only when an activity says it was merged, the related
 * ticket whose number that activity names, else the only related ticket; null when not merged.
 */
async function absorber(
  client: V2Client,
  ticketId: string,
  activities: readonly unknown[],
  call: PsaCall,
): Promise<PsaResult<string | null>> {
  const notes = activities
    .filter((a) => /\bmerged?\b/i.test(str(a, 'notes') ?? '') || bool(a, 'isMerged') === true)
    .map((a) => str(a, 'notes') ?? '')
  if (notes.length === 0) return ok(null)
  const related = await client.api('GET', `/servicedesk/tickets/${ticketId}/relatedTickets`, call)
  if (!related.ok) return related.failure.kind === 'not-found' ? ok(null) : related
  const others = rows(related.value.result).flatMap((r) => {
    const ids = [str(r, 'relatedTicketId'), str(r, 'ticketId')].filter((id) => id && id !== ticketId)
    const id = ids[0]
    return id ? [{ id, number: str(r, 'ticketNumber') }] : []
  })
  const named = others.find((o) => o.number && notes.some((n) => n.includes(o.number ?? '')))
  if (named) return ok(named.id)
  const only = others.length === 1 && notes.some((n) => /merged into/i.test(n)) ? others[0] : undefined
  return ok(only?.id ?? null)
}

export async function reopenTicket(
  c: PsaSyncConnection,
  ticketId: string,
  reopen: ReopenRequest,
  call: NoteCall,
): Promise<PsaResult<null>> {
  if (!isId(ticketId)) return refused(`${c.client.psa.name} ticket ids are numbers, not '${ticketId}'`)
  const statuses = await c.lists.statuses(call)
  if (!statuses.ok) return statuses
  await c.completion.ensure(c.client, statuses.value, call)
  let target: V2Status | null
  if (reopen.openStatus) {
    target = byIdOrName(statuses.value, reopen.openStatus)
    if (!target) return refused(`${c.client.psa.name} has no status '${reopen.openStatus}'`)
    if (c.completion.of(target, statuses.value) === true)
      return refused(
        `${c.client.psa.name} status '${target.name}' completes a ticket; reopening needs an open one`,
      )
  } else {
    // The status a new ticket gets (fields.ts): BMS has no per-queue default, TicketInputDto names one.
    target = c.completion.opening(statuses.value)
    if (!target) return refused(`${c.client.psa.name} lists no active status to reopen a ticket with`)
  }
  return writeNote(c, ticketId, reopen.note, target.id, call)
}

/** alertbridge's API user: /v2/security/userinfo's userId and fullName (a server without the route,
 * not known on Pulseway: unnamed, and the ticket's creator stands for alertbridge). */
export async function readApiUser(client: V2Client, call: PsaCall): Promise<PsaResult<ApiUser>> {
  const info = await client.api('GET', '/security/userinfo', call)
  if (!info.ok) return info.failure.kind === 'not-found' ? ok({ id: null, name: null }) : info
  const r = info.value.result
  return ok({
    id: num(r, 'userId'),
    name: str(r, 'fullName')?.trim() || str(r, 'emailAddress') || null,
  })
}
