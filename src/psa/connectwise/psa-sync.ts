// ConnectWise tickets read back for two-way sync, and reopened (docs/psa/connectwise.md, "Two-way
// sync"). Tickets are read in lists of `id in (…)`, 100 ids a condition; one the list leaves out is read
// by itself, and a 404 there means deleted. Merged: ConnectWise closes the absorbed ticket and names the
// survivor in `mergedParentTicket`. Worked: time on the ticket (`actualHours`), its last change or its
// close by someone other than the API member that entered it (`_info.updatedBy`, `closedBy` against
// `_info.enteredBy`), or, for an open ticket none of those mark, a note written by someone else.
import type { Static } from 'typebox'
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import type { ConnectWiseClient } from './client.js'
import { type ConnectWiseLists, type CwStatus, type Ref, statusEntity } from './lists.js'
import { appendNote } from './notes.js'
import type { ConnectWiseSettings } from './settings.js'
import { listOf, plainValue } from './wire.js'

type Settings = Static<typeof ConnectWiseSettings>

interface CwPsaSyncTicket {
  id: number
  board?: Ref
  status?: Ref
  closedFlag?: boolean
  closedBy?: string
  actualHours?: number
  mergedParentTicket?: { id?: number } | null
  enteredBy?: string
  _info?: { updatedBy?: string; enteredBy?: string }
}

/** Ids per `id in (…)` condition: a URL stays well under what servers and proxies accept. */
const chunk = 100
const fields = 'id,board,status,closedFlag,closedBy,actualHours,mergedParentTicket,enteredBy,_info'

const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()

export async function readTickets(
  client: ConnectWiseClient,
  ids: readonly string[],
  call: PsaCall,
): Promise<PsaResult<PsaTicketRead[]>> {
  const numeric = [...new Set(ids.filter((id) => /^\d+$/.test(id)))]
  const found = new Map<string, CwPsaSyncTicket>()
  for (let i = 0; i < numeric.length; i += chunk) {
    const part = numeric.slice(i, i + chunk)
    const listed = await client.all<CwPsaSyncTicket>('/service/tickets', call, {
      conditions: `id in (${part.join(',')})`,
      fields,
    })
    if (!listed.ok) return listed
    for (const t of listed.value) found.set(String(t.id), t)
  }
  const reads: PsaTicketRead[] = []
  for (const id of ids) {
    let t = found.get(id)
    // Not listed: read by itself, so that only ConnectWise's own 404 says deleted.
    if (!t && /^\d+$/.test(id)) {
      const one = await client.api('GET', `/service/tickets/${id}`, call, { query: { fields } })
      if (!one.ok && one.failure.kind !== 'not-found') return one
      if (one.ok) t = one.value.body as CwPsaSyncTicket
    }
    if (!t) {
      // A 404, or an id no ConnectWise ticket can have.
      reads.push(deletedRead(id))
      continue
    }
    const read = readOf(id, t)
    if (read.state === 'open' && !read.worked) {
      const noted = await notedByOthers(client, id, t._info?.enteredBy ?? t.enteredBy, call)
      if (!noted.ok) return noted
      read.worked = noted.value
    }
    reads.push(read)
  }
  return ok(reads)
}

function readOf(id: string, t: CwPsaSyncTicket): PsaTicketRead {
  const parent = t.mergedParentTicket?.id
  const us = t._info?.enteredBy ?? t.enteredBy
  const updatedBy = t._info?.updatedBy
  const byOthers = (who: string | undefined) => us !== undefined && who !== undefined && !same(who, us)
  return {
    ticketId: id,
    state: typeof parent === 'number' ? 'merged' : t.closedFlag === true ? 'closed' : 'open',
    statusName: t.status?.name ?? null,
    mergedInto: typeof parent === 'number' ? String(parent) : null,
    worked:
      (typeof t.actualHours === 'number' && t.actualHours > 0) ||
      byOthers(updatedBy) ||
      (t.closedFlag === true && byOthers(t.closedBy)),
    changedBy: updatedBy ?? null,
  }
}

/**
 * Whether anyone but `us` (the member who entered the ticket: alertbridge's API member) wrote a note on
 * it: one note of theirs asked for by a condition on createdBy; where ConnectWise refuses the condition
 * (400) or the member's identifier cannot go into one, every note is read.
 */
async function notedByOthers(
  client: ConnectWiseClient,
  ticketId: string,
  us: string | undefined,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  if (us === undefined) return ok(false)
  const path = `/service/tickets/${ticketId}/notes`
  const theirs = (notes: { createdBy?: unknown }[]) =>
    notes.some((n) => typeof n.createdBy === 'string' && !same(n.createdBy, us))
  if (plainValue.test(us)) {
    const res = await client.api('GET', path, call, {
      query: { conditions: `createdBy!="${us}"`, fields: 'id,createdBy', pageSize: 1 },
    })
    if (res.ok) return ok(theirs(listOf(res.value.body)))
    if (res.failure.status !== 400) return res.failure.kind === 'not-found' ? ok(false) : res
  }
  const all = await client.all<{ createdBy?: unknown }>(path, call, { fields: 'id,createdBy' })
  if (!all.ok) return all.failure.kind === 'not-found' ? ok(false) : all
  return ok(theirs(all.value))
}

/**
 * Back to an open status of the ticket's board (the one named, else the board's default: the status a
 * new ticket gets), after the note; a retry finds the note the lost attempt wrote (appendNote) and a
 * ticket already open is not changed again.
 */
export async function reopenTicket(
  client: ConnectWiseClient,
  lists: ConnectWiseLists,
  s: Settings,
  ticketId: string,
  reopen: ReopenRequest,
  call: NoteCall,
): Promise<PsaResult<null>> {
  const got = await client.api('GET', `/service/tickets/${ticketId}`, call, { query: { fields } })
  if (!got.ok) return got
  const t = got.value.body as CwPsaSyncTicket
  const parent = t.mergedParentTicket?.id
  if (typeof parent === 'number')
    return fail(refusal(`ConnectWise ticket ${ticketId} was merged into ticket ${parent}: reopen that one`))
  let target: CwStatus | null = null
  if (t.closedFlag === true) {
    const boardId = t.board?.id
    if (boardId === undefined) return fail(refusal(`ticket ${ticketId} has no board`))
    const statuses = await lists.statusesOf(boardId, call)
    if (!statuses.ok) return statuses
    const open = statuses.value.filter((x) => x.closedStatus !== true && x.inactive !== true)
    target = reopen.openStatus
      ? (open.find((x) => x.id === Number(byIdOrName(open.map(statusEntity), reopen.openStatus ?? '')?.id)) ??
        null)
      : (open.find((x) => x.defaultFlag === true) ??
        [...open].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0))[0] ??
        null)
    if (!target) {
      const board = t.board?.name ?? boardId
      return fail(
        refusal(
          reopen.openStatus
            ? `board ${board} has no open status '${reopen.openStatus}'`
            : `board ${board} has no open status to reopen with`,
        ),
      )
    }
  }
  const noted = await appendNote(client, s, ticketId, reopen.note, call)
  if (!noted.ok || target === null) return noted
  const patched = await client.api('PATCH', `/service/tickets/${ticketId}`, call, {
    body: [{ op: 'replace', path: 'status', value: { id: target.id } }],
  })
  return patched.ok ? ok(null) : patched
}

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })
