// Kaseya BMS (API v2), as its published OpenAPI and working clients describe it (docs/psa/kaseya-bms.md):
// tickets at /v2/servicedesk/tickets with every field TicketInputDto requires (the account's main
// location, a status, priority, ticket type and source, the open date), our reference on the last line
// of the Details (tag.ts), notes at …/tickets/{id}/notes, and closing with …/tickets/{id}/resolve and a
// status BMS classes as completed (completion.ts). Settings may name a BMS id or its name; names are
// resolved against BMS's look-ups. A retry after a lost answer looks before it writes: for the ticket
// (tag.ts), for a note carrying the alert's marker (notes.ts).
import type { Static } from 'typebox'
import {
  type BillingLine,
  type CloseCall,
  type CloseRequest,
  type CreateCall,
  fail,
  type LookupKind,
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
import { ConnectionPool } from '../core/connections.js'
import { PsaHttp, type PsaKindOptions } from '../core/http.js'
import { ConnectionLimiter } from '../core/limiter.js'
import { byIdOrName } from '../core/names.js'
import { fitText, fitTicket } from '../core/text.js'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { billingLines, type ServicesWay, setQuantity } from './billing.js'
import { KaseyaBmsClient } from './client.js'
import { Completion, completedDateOf } from './completion.js'
import { idFromTable, ticketFields } from './fields.js'
import { type BmsEntry, Lists } from './lists.js'
import { hasNoteWith } from './notes.js'
import { KaseyaBmsSettings, kaseyaBmsSecrets } from './settings.js'
import { findByTag, refTag, type TagSearch } from './tag.js'
import { connectionTest } from './test.js'
import { bmsErrorText, field, num, str } from './wire.js'

type Settings = Static<typeof KaseyaBmsSettings>
type Conn = PsaConnection<Settings>

/** BMS publishes no lengths (TicketInputDto gives none): conservative guesses, docs/psa/kaseya-bms.md. */
const limits = { title: 250, details: 32_000, note: 32_000 }
const psaName = 'Kaseya BMS'

export class State {
  readonly lists: Lists
  readonly completion: Completion
  readonly services: ServicesWay = { read: null, units: null }
  readonly tags: TagSearch = { detailsFilterWorks: false }
  constructor(
    readonly client: KaseyaBmsClient,
    readonly s: Settings,
  ) {
    this.lists = new Lists(client, s)
    this.completion = new Completion(s.completedStatusTypes)
  }
}

const refused = <T>(message: string): PsaResult<T> => fail({ kind: 'rejected', retryable: false, message })

export class KaseyaBmsPsa implements PsaAdapter<Settings> {
  private readonly pool: ConnectionPool<Settings, State>

  constructor({ http, log, requestTimeoutMs }: PsaKindOptions) {
    this.pool = new ConnectionPool((conn) => {
      const s = conn.settings
      const limiter = new ConnectionLimiter({
        perEndpoint: s.maxConcurrent ?? 4,
        // BMS counts requests per endpoint per hour (1,500 on its current help page).
        budgets: [{ points: s.hourlyBudgetPerEndpoint ?? 1500, perSeconds: 3600, per: 'endpoint' }],
      })
      const core = new PsaHttp({
        http,
        limiter,
        name: 'Kaseya BMS',
        log,
        requestTimeoutMs,
        errorText: bmsErrorText,
        // BMS does not say how it signals its hourly limit; a 429 without Retry-After waits a minute.
        defaultRetryAfterMs: 60_000,
      })
      return new State(new KaseyaBmsClient(core, limiter, s), s)
    })
  }

  test(conn: Conn, call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return connectionTest(this.pool.of(conn), call)
  }

  async createTicket(
    conn: Conn,
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const state = this.pool.of(conn)
    if (!/^\d+$/.test(t.companyId)) return refused(`Kaseya BMS account ids are numbers, not '${t.companyId}'`)
    const tag = refTag(call.ref)
    if (call.adopt) {
      const found = await findByTag(state.client, state.tags, tag, t.companyId, call)
      if (!found.ok) return found
      if (found.value) return ok({ ticketId: found.value, adopted: true })
    }
    const fields = await ticketFields(state.lists, state.completion, state.s, t, call)
    if (!fields.ok) return fields
    // The tag is the Details' last line, out of reach of the cut.
    const fitted = fitTicket(
      t,
      { title: limits.title, description: limits.details - tag.length - 2 },
      psaName,
    )
    const body = {
      Title: fitted.title,
      Details: `${fitted.description}\n\n${tag}`,
      AccountId: Number(t.companyId),
      OpenDate: new Date().toISOString(),
      ...fields.value,
    }
    const made = await state.client.api('POST', '/servicedesk/tickets', call, { body })
    if (!made.ok) return made
    const id =
      num(made.value.result, 'id') ?? (typeof made.value.result === 'number' ? made.value.result : null)
    if (id === null) return refused('Kaseya BMS answered the new ticket without its id')
    return ok({ ticketId: String(id), adopted: false })
  }

  async appendNote(conn: Conn, ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    return this.note(this.pool.of(conn), ticketId, note, null, call)
  }

  async closeTicket(
    conn: Conn,
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const state = this.pool.of(conn)
    const { client, lists, completion } = state
    if (!/^\d+$/.test(ticketId)) return refused(`Kaseya BMS ticket ids are numbers, not '${ticketId}'`)
    const got = await client.api('GET', `/servicedesk/tickets/${ticketId}`, call)
    if (!got.ok) return got
    const ticket = got.value.result
    if (!ticket || typeof ticket !== 'object')
      return fail({ kind: 'not-found', retryable: false, message: `Kaseya BMS has no ticket ${ticketId}` })
    const statuses = await lists.statuses(call)
    if (!statuses.ok) return statuses
    completion.learn(ticket, statuses.value)
    // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost — resolve
    // writes its Comment and completes the ticket in one call, so its resolution note is there too.
    if (completedDateOf(ticket)) return ok({ alreadyClosed: !call.adopt })
    await completion.ensure(client, statuses.value, call)
    const current = statuses.value.find((s) => s.id === str(ticket, 'statusId'))
    if (current && completion.of(current, statuses.value) === true) return ok({ alreadyClosed: !call.adopt })
    let target = completion.closing(statuses.value)
    let unclassed = false
    if (close.closedStatus) {
      const named = byIdOrName(statuses.value, close.closedStatus)
      if (!named) return refused(`Kaseya BMS has no status '${close.closedStatus}'`)
      target = named
      const completes = completion.of(named, statuses.value)
      // A status BMS does not class as completed moves the ticket without resolving it.
      if (completes === false) return this.move(state, ticketId, close.note, named.id, call)
      unclassed = completes === null
    }
    // Without a completed status known, BMS's resolve picks its own.
    const resolved = await client.api('POST', `/servicedesk/tickets/${ticketId}/resolve`, call, {
      body: {
        Comment: fitText(close.note, limits.note, psaName),
        IsInternal: true,
        ...(target ? { StatusId: Number(target.id) } : {}),
      },
    })
    if (!resolved.ok) {
      // A named status BMS will not resolve with (not a completed one, it turns out): move the ticket to it.
      if (unclassed && target && resolved.failure.kind === 'rejected')
        return this.move(state, ticketId, close.note, target.id, call)
      return resolved
    }
    completion.learn(resolved.value.result, statuses.value)
    return ok({ alreadyClosed: false })
  }

  /** The note, and the ticket moved to a status that does not complete it (one call: on a retry, a
   * note with the marker means the earlier attempt did both). */
  private async move(
    state: State,
    ticketId: string,
    note: string,
    statusId: string,
    call: NoteCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const moved = await this.note(state, ticketId, note, statusId, call)
    return moved.ok ? ok({ alreadyClosed: false }) : moved
  }

  async lookup(
    conn: Conn,
    what: LookupKind,
    _scope: unknown,
    call: PsaCall,
  ): Promise<PsaResult<PsaEntity[]>> {
    const { client, lists, completion } = this.pool.of(conn)
    const plain = (list: readonly BmsEntry[]) =>
      list.filter((e) => e.isActive).map((e) => ({ id: e.id, name: e.name }))
    switch (what) {
      case 'companies': {
        const all = await client.all('/crm/accounts/lookup', call)
        if (!all.ok) return all
        return ok(
          all.value
            .filter((a) => field(a, 'isActive') !== false)
            .map((a) => ({
              id: str(a, 'id') ?? '',
              name: str(a, 'name')?.trim() || `Account ${str(a, 'id')}`,
            }))
            .filter((a) => a.id !== ''),
        )
      }
      case 'boards': {
        const queues = await lists.queues(call, true)
        return queues.ok ? ok(plain(queues.value)) : queues
      }
      case 'priorities': {
        const priorities = await lists.priorities(call, true)
        return priorities.ok ? ok(plain(priorities.value)) : priorities
      }
      case 'types': {
        const types = await lists.table('ticketTypes', call, true)
        return types.ok ? ok(plain(types.value)) : types
      }
      case 'sources': {
        const sources = await lists.table('sources', call, true)
        return sources.ok ? ok(plain(sources.value)) : sources
      }
      case 'noteTypes': {
        const noteTypes = await lists.table('noteTypes', call, true)
        return noteTypes.ok ? ok(plain(noteTypes.value)) : noteTypes
      }
      case 'categories':
        return ok([])
      case 'statuses': {
        const statuses = await lists.statuses(call, true)
        if (!statuses.ok) return statuses
        await completion.ensure(client, statuses.value, call)
        return ok(
          statuses.value
            .filter((s) => s.isActive)
            .map((s) => {
              const closed = completion.of(s, statuses.value)
              return { id: s.id, name: s.name, ...(closed === null ? {} : { closed }) }
            }),
        )
      }
    }
  }

  /** No ticket URL: BMS's web app lives on another host than its API, and no source shows its form. */
  ticketUrl(_conn: Conn, _ticketId: string): string | null {
    return null
  }

  billingLines(conn: Conn, companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    const state = this.pool.of(conn)
    return billingLines(state.client, state.services, companyId, call)
  }

  setQuantity(
    conn: Conn,
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    const state = this.pool.of(conn)
    return setQuantity(state.client, state.services, lineId, quantity, call)
  }

  /** A note (with StatusId: the ticket moved too); on a retry, none when one with the marker is there. */
  private async note(
    state: State,
    ticketId: string,
    text: string,
    statusId: string | null,
    call: NoteCall,
  ): Promise<PsaResult<null>> {
    if (!/^\d+$/.test(ticketId)) return refused(`Kaseya BMS ticket ids are numbers, not '${ticketId}'`)
    if (call.adopt) {
      const there = await hasNoteWith(state.client, ticketId, call.marker, call)
      if (!there.ok) return there
      if (there.value) return ok(null)
    }
    const type = await idFromTable(state.lists, 'noteTypes', state.s.noteType ?? null, call)
    if (!type.ok) return type
    const res = await state.client.api('POST', `/servicedesk/tickets/${ticketId}/notes`, call, {
      body: {
        Details: fitText(text, limits.note, psaName),
        IsInternal: true,
        NoteDate: new Date().toISOString(),
        TypeId: type.value,
        ...(statusId ? { StatusId: Number(statusId) } : {}),
      },
    })
    return res.ok ? ok(null) : res
  }
}

/** The Kaseya BMS kind, talking through the service's outbound client. */
export function kaseyaBmsPsa(options: PsaKindOptions): PsaKindEntry {
  return psaKind({
    kind: 'kaseya-bms',
    settings: KaseyaBmsSettings,
    secretFields: kaseyaBmsSecrets,
    adapter: new KaseyaBmsPsa(options),
  })
}
