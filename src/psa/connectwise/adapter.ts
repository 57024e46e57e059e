// ConnectWise PSA (Manage), as its API pages describe it (docs/psa/connectwise.md): tickets at
// /service/tickets (summary at most 100 characters, our correlationId in externalXRef), notes with a
// visibility flag, closing with a status of the ticket's board that ConnectWise marks closedStatus, and
// the look-ups of the mapping screens; billing lines are agreement additions (usage.ts). Board,
// status, type and priority settings may name a PSA id or its name; names are resolved against the
// board's own lists. A retry after a lost answer first looks for what the lost call made: the ticket
// by its externalXRef, a note by the Message ID line its text ends with.
import type { Static } from 'typebox'
import {
  type BillingLine,
  type CloseCall,
  type CloseRequest,
  type CreateCall,
  fail,
  type LookupKind,
  type LookupScope,
  type NewPsaTicket,
  type NoteCall,
  ok,
  type PsaAdapter,
  type PsaCall,
  type PsaConnection,
  type PsaEntity,
  type PsaResult,
  type UsageCall,
} from '../adapter.js'
import { CachedResult, ConnectionPool, cachedIn } from '../core/connections.js'
import { PsaHttp, type PsaKindOptions } from '../core/http.js'
import { ConnectionLimiter } from '../core/limiter.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { fitText, fitTicket } from '../core/text.js'
import { connectWiseTicketUrl } from '../core/ticket-urls.js'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { ConnectWiseClient, connectWiseErrorText } from './client.js'
import { ConnectWiseSettings, connectWiseSecrets } from './settings.js'
import { connectionTest } from './test.js'
import { billingLines, setQuantity } from './usage.js'

type Settings = Static<typeof ConnectWiseSettings>
type Conn = PsaConnection<Settings>
type Ref = { id: number; name?: string }
interface CwTicket {
  id: number
  closedFlag?: boolean
  board?: Ref
  status?: Ref
}
interface CwStatus {
  id: number
  name: string
  closedStatus?: boolean
  inactive?: boolean
  sortOrder?: number
}

/**
 * Text limits (docs/psa/connectwise.md, "Limits"): summary and externalXRef at most 100 characters, as
 * ConnectWise's model says; initialDescription and a note's text have no published limit, so they are
 * kept to 32,000 characters (our own bound: any alert fits, and a request stays small).
 */
export const limits = { summary: 100, description: 32_000, note: 32_000 }
const xrefMax = 100
const psaName = 'ConnectWise'
const listsKeptMs = 5 * 60 * 1000
/** How many of a look-up's newest matches are read: ours is among the first (ordered by id, newest first). */
const lookBack = 100
/**
 * A value that goes into a quoted condition string as is: no quote or backslash to escape, and no LIKE
 * wildcard but `_` (any one character: a `contains` may then match more, and each match is checked).
 */
const plainValue = /^[A-Za-z0-9._:@+=~-]+$/

/** What one connection keeps: its client, and the lists names are resolved against. */
class State {
  readonly boards = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly priorities = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly statuses = new Map<number, CachedResult<CwStatus[]>>()
  readonly types = new Map<number, CachedResult<PsaEntity[]>>()
  constructor(readonly client: ConnectWiseClient) {}
}

interface CwListed {
  id: number
  name: string
  inactiveFlag?: boolean
}

const entity = (r: { id: number; name: string }): PsaEntity => ({ id: String(r.id), name: r.name })
/** Entries a partner may still pick: inactive boards and types are left out. */
const active = (list: CwListed[]) => list.filter((r) => r.inactiveFlag !== true).map(entity)

export class ConnectWisePsa implements PsaAdapter<Settings> {
  private readonly pool: ConnectionPool<Settings, State>

  constructor({ http, log, requestTimeoutMs }: PsaKindOptions) {
    this.pool = new ConnectionPool((conn) => {
      const limiter = new ConnectionLimiter({ perEndpoint: conn.settings.maxConcurrent ?? 4 })
      const core = new PsaHttp({
        http,
        limiter,
        name: psaName,
        log,
        requestTimeoutMs,
        errorText: connectWiseErrorText,
        defaultRetryAfterMs: 10_000,
      })
      return new State(new ConnectWiseClient(core, conn.settings))
    })
  }

  test(conn: Conn, call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return connectionTest(this.pool.of(conn).client, call)
  }

  async createTicket(
    conn: Conn,
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const state = this.pool.of(conn)
    const { client } = state
    const xref = xrefOf(call.ref)
    if (call.adopt) {
      const made = await ticketWithRef(client, xref, call)
      if (!made.ok) return made
      if (made.value !== null) return ok({ ticketId: String(made.value), adopted: true })
    }
    const board = t.board === null ? null : await this.boardOf(state, t.board, call)
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
      [
        'priority',
        t.priority,
        () => state.priorities.get((c) => this.list(client, '/service/priorities', c), call),
      ],
      ['status', t.status, boardId === null ? null : () => this.statusEntities(state, boardId, call)],
      ['type', t.type, boardId === null ? null : () => this.typesOf(state, boardId, call)],
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

  async appendNote(conn: Conn, ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    const { client } = this.pool.of(conn)
    // A retry after a lost answer: the note may be there already.
    if (call.adopt) {
      const written = await noteWithMarker(client, ticketId, call.marker, call)
      if (!written.ok) return written
      if (written.value) return ok(null)
    }
    const flag =
      conn.settings.noteVisibility === 'discussion' ? 'detailDescriptionFlag' : 'internalAnalysisFlag'
    const res = await client.api('POST', `/service/tickets/${ticketId}/notes`, call, {
      body: { text: fitText(note, limits.note, psaName), [flag]: true, processNotifications: false },
    })
    return res.ok ? ok(null) : res
  }

  async closeTicket(
    conn: Conn,
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const state = this.pool.of(conn)
    const { client } = state
    const got = await client.api('GET', `/service/tickets/${ticketId}`, call)
    if (!got.ok) return got
    const ticket = got.value.body as CwTicket
    // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
    if (ticket.closedFlag === true) return ok({ alreadyClosed: !call.adopt })
    const boardId = ticket.board?.id
    if (boardId === undefined) return fail(unexpected(`ticket ${ticketId} has no board`))
    const statuses = await this.statusesOf(state, boardId, call)
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
      const noted = await client.api('POST', `/service/tickets/${ticketId}/notes`, call, {
        body: {
          text: fitText(close.note, limits.note, psaName),
          resolutionFlag: true,
          internalAnalysisFlag: true,
          processNotifications: false,
        },
      })
      if (!noted.ok) return noted
    }
    const patched = await client.api('PATCH', `/service/tickets/${ticketId}`, call, {
      body: [{ op: 'replace', path: 'status', value: { id: Number(target.id) } }],
    })
    return patched.ok ? ok({ alreadyClosed: false }) : patched
  }

  ticketUrl(conn: Conn, ticketId: string): string | null {
    const { client } = this.pool.of(conn)
    return connectWiseTicketUrl(client.root, conn.settings.codebase ?? client.knownCodebase(), ticketId)
  }

  billingLines(conn: Conn, companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    return billingLines(this.pool.of(conn).client, companyId, call)
  }

  setQuantity(
    conn: Conn,
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    return setQuantity(this.pool.of(conn).client, lineId, quantity, call)
  }

  async lookup(
    conn: Conn,
    what: LookupKind,
    scope: LookupScope,
    call: PsaCall,
  ): Promise<PsaResult<PsaEntity[]>> {
    const state = this.pool.of(conn)
    const { client } = state
    switch (what) {
      case 'companies': {
        const all = await client.all<{ id: number; name: string }>('/company/companies', call, {
          fields: 'id,identifier,name',
          conditions: 'deletedFlag=false',
        })
        return all.ok ? ok(all.value.map(entity)) : all
      }
      case 'boards':
        return state.boards.get((c) => this.list(client, '/service/boards', c), call, true)
      case 'priorities':
        return state.priorities.get((c) => this.list(client, '/service/priorities', c), call, true)
      case 'statuses':
      case 'types': {
        const board = scope.board ?? conn.settings.defaults?.board
        if (!board) {
          return fail({
            kind: 'needs-input',
            retryable: false,
            message: `ConnectWise ${what} belong to a board: name one (board=…)`,
          })
        }
        const id = await this.boardOf(state, board, call)
        if (!id.ok) return id
        if (what === 'types') return this.typesOf(state, id.value, call, true)
        const statuses = await this.statusesOf(state, id.value, call, true)
        return statuses.ok
          ? ok(statuses.value.filter((s) => s.inactive !== true).map(statusEntity))
          : statuses
      }
      // Lists this PSA does not have (or that no setting of this kind picks from): none.
      case 'sources':
      case 'noteTypes':
      case 'categories':
        return ok([])
    }
  }

  private async list(
    client: ConnectWiseClient,
    path: string,
    call: PsaCall,
  ): Promise<PsaResult<PsaEntity[]>> {
    const all = await client.all<CwListed>(path, call)
    return all.ok ? ok(active(all.value)) : all
  }

  private async boardOf(state: State, board: string, call: PsaCall): Promise<PsaResult<number>> {
    const boards = await state.boards.get((c) => this.list(state.client, '/service/boards', c), call)
    if (!boards.ok) return boards
    const found = byIdOrName(boards.value, board)
    return found
      ? ok(Number(found.id))
      : fail({ kind: 'rejected', retryable: false, message: `ConnectWise has no board '${board}'` })
  }

  private statusesOf(
    state: State,
    boardId: number,
    call: PsaCall,
    fresh = false,
  ): Promise<PsaResult<CwStatus[]>> {
    return cachedIn(state.statuses, boardId, listsKeptMs).get(
      (c) => state.client.all<CwStatus>(`/service/boards/${boardId}/statuses`, c),
      call,
      fresh,
    )
  }

  private async statusEntities(
    state: State,
    boardId: number,
    call: PsaCall,
  ): Promise<PsaResult<PsaEntity[]>> {
    const statuses = await this.statusesOf(state, boardId, call)
    return statuses.ok ? ok(statuses.value.map(statusEntity)) : statuses
  }

  private typesOf(
    state: State,
    boardId: number,
    call: PsaCall,
    fresh = false,
  ): Promise<PsaResult<PsaEntity[]>> {
    return cachedIn(state.types, boardId, listsKeptMs).get(
      (c) => this.list(state.client, `/service/boards/${boardId}/types`, c),
      call,
      fresh,
    )
  }
}

const statusEntity = (s: CwStatus): PsaEntity => ({
  id: String(s.id),
  name: s.name,
  closed: s.closedStatus === true,
})

/** A reference for a setting: resolved to an id through its list, or sent by name where no list applies. */
async function reference(
  value: string,
  list: (() => Promise<PsaResult<PsaEntity[]>>) | null,
  field: string,
): Promise<PsaResult<Ref | { name: string }>> {
  if (list === null) return ok(/^\d+$/.test(value) ? { id: Number(value) } : { name: value })
  const entries = await list()
  if (!entries.ok) return entries
  const found = byIdOrName(entries.value, value)
  return found
    ? ok({ id: Number(found.id) })
    : fail({
        kind: 'rejected',
        retryable: false,
        message: `ConnectWise has no ${field} '${value}'${field === 'priority' ? '' : " on the ticket's board"}`,
      })
}

const unexpected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

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

/**
 * Whether the ticket has a note carrying `marker` (our Message ID line): the ticket's notes whose text
 * contains it, newest first, each checked for the marker as a word of its own. Where the marker cannot
 * go into a condition, or ConnectWise refuses the condition (400), the newest notes are read instead.
 */
async function noteWithMarker(
  client: ConnectWiseClient,
  ticketId: string,
  marker: string,
  call: PsaCall,
): Promise<PsaResult<boolean>> {
  const path = `/service/tickets/${ticketId}/notes`
  const newest = { orderBy: 'id desc', pageSize: lookBack, fields: 'id,text' }
  let res = plainValue.test(marker)
    ? await client.api('GET', path, call, { query: { ...newest, conditions: `text contains "${marker}"` } })
    : await client.api('GET', path, call, { query: newest })
  if (!res.ok && res.failure.status === 400 && plainValue.test(marker))
    res = await client.api('GET', path, call, { query: newest })
  if (!res.ok) return res
  const carries = new RegExp(`(^|[\\s:])${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\s|$)`)
  return ok(
    listOf<{ text?: unknown }>(res.value.body).some(
      (n) => typeof n.text === 'string' && carries.test(n.text),
    ),
  )
}

const listOf = <T>(body: unknown): T[] => (Array.isArray(body) ? (body as T[]) : [])

/** The ConnectWise kind, talking through the service's outbound client. */
export function connectWisePsa(options: PsaKindOptions): PsaKindEntry {
  return psaKind({
    kind: 'connectwise',
    settings: ConnectWiseSettings,
    secretFields: connectWiseSecrets,
    adapter: new ConnectWisePsa(options),
    problems: (s) => (s.baseUrl || s.site ? [] : ['psa needs site (e.g. na.myconnectwise.net) or baseUrl']),
  })
}
