// ConnectWise tickets (docs/psa/connectwise.md): created at /service/tickets (summary at most 100
// characters, our correlationId in externalXRef, the board, status, type and priority a setting names
// resolved against the board's own lists), and closed with a status of the ticket's board that
// ConnectWise marks closedStatus, after a resolution note. A retry after a lost answer first looks for
// what the lost call made: the ticket by its externalXRef, the resolution note by its Message ID line.
import {
  type CloseCall,
  type CloseRequest,
  type CreateCall,
  fail,
  type NewPsaTicket,
  ok,
  type PsaCall,
  type PsaResult,
} from '../adapter.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { fitTicket } from '../core/text.js'
import type { ConnectWiseClient } from './client.js'
import { type ConnectWiseLists, type Ref, reference, statusEntity } from './lists.js'
import { noteWithMarker, writeResolution } from './notes.js'
import { limits, listOf, lookBack, plainValue, psaName } from './wire.js'

interface CwTicket {
  id: number
  closedFlag?: boolean
  board?: Ref
  status?: Ref
}

const xrefMax = 100

const unexpected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

export async function createTicket(
  client: ConnectWiseClient,
  lists: ConnectWiseLists,
  t: NewPsaTicket,
  call: CreateCall,
): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
  const xref = xrefOf(call.ref)
  if (call.adopt) {
    const made = await ticketWithRef(client, xref, call)
    if (!made.ok) return made
    if (made.value !== null) return ok({ ticketId: String(made.value), adopted: true })
  }
  const board = t.board === null ? null : await lists.boardOf(t.board, call)
  if (board && !board.ok) return board
  const boardId = board?.value ?? null
  const fitted = fitTicket(t, { title: limits.summary, description: limits.description }, psaName)
  const body: Record<string, unknown> = {
    summary: fitted.title,
    company: /^\d+$/.test(t.companyId) ? { id: Number(t.companyId) } : { identifier: t.companyId },
    initialDescription: fitted.description,
    externalXRef: xref,
    processNotifications: false,
  }
  if (boardId !== null) body.board = { id: boardId }
  for (const [field, value, list] of [
    ['priority', t.priority, () => lists.priorityList(call)],
    ['status', t.status, boardId === null ? null : () => lists.statusEntities(boardId, call)],
    ['type', t.type, boardId === null ? null : () => lists.typesOf(boardId, call)],
  ] as const) {
    if (value === null) continue
    const ref = await reference(value, list, field)
    if (!ref.ok) return ref
    body[field] = ref.value
  }
  const made = await client.api('POST', '/service/tickets', call, { body })
  if (!made.ok) return made
  const id = (made.value.body as { id?: unknown } | null)?.id
  if (typeof id !== 'number') return fail(unexpected('the created ticket has no id'))
  return ok({ ticketId: String(id), adopted: false })
}

export async function closeTicket(
  client: ConnectWiseClient,
  lists: ConnectWiseLists,
  ticketId: string,
  close: CloseRequest,
  call: CloseCall,
): Promise<PsaResult<{ alreadyClosed: boolean }>> {
  const got = await client.api('GET', `/service/tickets/${ticketId}`, call)
  if (!got.ok) return got
  const ticket = got.value.body as CwTicket
  // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
  if (ticket.closedFlag === true) return ok({ alreadyClosed: !call.adopt })
  const boardId = ticket.board?.id
  if (boardId === undefined) return fail(unexpected(`ticket ${ticketId} has no board`))
  const statuses = await lists.statusesOf(boardId, call)
  if (!statuses.ok) return statuses
  const target = close.closedStatus
    ? byIdOrName(statuses.value.map(statusEntity), close.closedStatus)
    : ([...statuses.value]
        .filter((s) => s.closedStatus === true && s.inactive !== true)
        .sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0))
        .map(statusEntity)[0] ?? null)
  if (!target) {
    const why = close.closedStatus
      ? `board ${ticket.board?.name ?? boardId} has no status '${close.closedStatus}'`
      : `board ${ticket.board?.name ?? boardId} has no status marked closed`
    return fail({ kind: 'rejected', retryable: false, message: why })
  }
  // The resolution first, then the status; on a retry, the resolution an earlier attempt wrote is kept.
  const written = call.adopt ? await noteWithMarker(client, ticketId, call.marker, call) : ok(false)
  if (!written.ok) return written
  if (!written.value) {
    const noted = await writeResolution(client, ticketId, close.note, call)
    if (!noted.ok) return noted
  }
  const patched = await client.api('PATCH', `/service/tickets/${ticketId}`, call, {
    body: [{ op: 'replace', path: 'status', value: { id: Number(target.id) } }],
  })
  return patched.ok ? ok({ alreadyClosed: false }) : patched
}

/**
 * Our reference as externalXRef holds it: the correlationId (intake allows only characters that need no
 * quoting in a condition), else a digest of it (too long, or a character a condition cannot carry).
 */
function xrefOf(ref: string): string {
  const tagged = externalRef(ref, xrefMax)
  return plainValue.test(tagged) ? tagged : externalRef(ref.padEnd(xrefMax + 1, ' '), xrefMax)
}

/**
 * The ticket an earlier attempt made, by the reference it carries in externalXRef (null: none). The
 * condition is ConnectWise's `conditions` on the ticket list, newest first; its `=` ignores case, so
 * each candidate's reference is compared exactly, and the earliest exact one is adopted.
 */
async function ticketWithRef(
  client: ConnectWiseClient,
  xref: string,
  call: PsaCall,
): Promise<PsaResult<number | null>> {
  const found = await client.api('GET', '/service/tickets', call, {
    query: {
      conditions: `externalXRef="${xref}"`,
      orderBy: 'id desc',
      pageSize: lookBack,
      fields: 'id,externalXRef',
    },
  })
  if (!found.ok) return found
  const ids = listOf<{ id?: unknown; externalXRef?: unknown }>(found.value.body)
    .filter((t) => t.externalXRef === xref && typeof t.id === 'number')
    .map((t) => t.id as number)
  return ok(ids.length > 0 ? Math.min(...ids) : null)
}
