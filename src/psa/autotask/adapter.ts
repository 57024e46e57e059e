// Autotask, as its REST API pages describe it (reference/psa-apis.md §2): tickets at /V1.0/Tickets
// (title at most 255 characters, our correlationId in externalID; the answer is only an itemId), notes
// at /V1.0/Tickets/{id}/Notes with their required noteType and publish, completing with status 5
// (Complete) by a PATCH with the id in the body, and queues, statuses, priorities and issue types read
// as picklists of Tickets/entityInformation/fields. Settings may name a picklist value or its label.
// Billing lines are contract services, their units changed by adjustments (usage.ts).
import type { Static } from 'typebox'
import {
  type BillingLine,
  type CloseCall,
  type CloseRequest,
  type CreateCall,
  fail,
  type LookupKind,
  type NewPsaTicket,
  ok,
  type PsaAdapter,
  type PsaCall,
  type PsaConnection,
  type PsaEntity,
  type PsaResult,
  type TicketCall,
  type UsageCall,
} from '../adapter.js'
import { ConnectionPool } from '../core/connections.js'
import { cut, PsaHttp, type PsaKindOptions } from '../core/http.js'
import { ConnectionLimiter } from '../core/limiter.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { autotaskTicketUrl } from '../core/ticket-urls.js'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { AutotaskClient, autotaskErrorText, type Picklist } from './client.js'
import { AutotaskSettings, autotaskSecrets } from './settings.js'
import { BudgetGuard, connectionTest } from './test.js'
import { billingLines, setQuantity } from './usage.js'

type Settings = Static<typeof AutotaskSettings>
type Conn = PsaConnection<Settings>

/** Autotask's system status Complete: a ticket in it is closed. */
const complete = '5'
/** Field lengths where the tenant's field information does not say (the smaller of what sources give). */
const limits = {
  title: 255,
  description: 8000,
  noteTitle: 250,
  note: 3200,
  resolution: 32000,
  externalId: 50,
}

/** The field's length as the tenant's field information gives it, else the documented one. */
function lengthOf(fields: Picklist[], name: string, fallback: number): number {
  const length = fields.find((f) => f.name.toLowerCase() === name.toLowerCase())?.length
  return typeof length === 'number' && length > 0 ? length : fallback
}
/** Where Autotask looks zones up. */
export const zoneLookupRoot = 'https://webservices2.autotask.net/ATServicesRest/'

export interface AutotaskOptions extends PsaKindOptions {
  /** Where zones are looked up: Autotask's own host, a simulator in tests. */
  lookupRoot?: string
}

interface State {
  client: AutotaskClient
  budget: BudgetGuard
}

/** A picklist's active values as look-up entries. */
function entries(fields: Picklist[], name: string): PsaEntity[] {
  const field = fields.find((f) => f.name.toLowerCase() === name.toLowerCase())
  return (field?.picklistValues ?? [])
    .filter((v) => v.isActive !== false)
    .sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0))
    .map((v) => ({
      id: String(v.value),
      name: v.label,
      ...(name === 'status' ? { closed: String(v.value) === complete } : {}),
    }))
}

function defaultOf(fields: Picklist[], name: string): string | null {
  const field = fields.find((f) => f.name.toLowerCase() === name.toLowerCase())
  const value = field?.picklistValues?.find((v) => v.isDefaultValue && v.isActive !== false)
  return value ? String(value.value) : null
}

/** A setting (value or label) resolved in a picklist, or the refusal naming it. */
function pick(fields: Picklist[], name: string, value: string, what: string): PsaResult<number> {
  const found = byIdOrName(entries(fields, name), value)
  return found
    ? ok(Number(found.id))
    : fail({ kind: 'rejected', retryable: false, message: `Autotask has no ${what} '${value}'` })
}

export class AutotaskPsa implements PsaAdapter<Settings> {
  private readonly pool: ConnectionPool<Settings, State>

  constructor({ http, log, requestTimeoutMs, lookupRoot = zoneLookupRoot }: AutotaskOptions) {
    this.pool = new ConnectionPool((conn) => {
      // 3 threads per endpoint and 10,000 requests an hour per tenant (Autotask's own limits).
      const limiter = new ConnectionLimiter({ perEndpoint: 3, hourlyBudget: 10_000 })
      const core = new PsaHttp({
        http,
        limiter,
        name: 'Autotask',
        log,
        requestTimeoutMs,
        errorText: autotaskErrorText,
        textual500IsRefusal: true,
        // The thread limit clears as soon as a call ends; the hourly threshold does not.
        defaultRetryAfterMs: (text) => (/thread/i.test(text) ? 2000 : 60_000),
      })
      const client = new AutotaskClient(core, conn.settings, lookupRoot)
      return { client, budget: new BudgetGuard(client, limiter) }
    })
  }

  test(conn: Conn, call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return connectionTest(this.pool.of(conn).client, conn.settings, call)
  }

  async createTicket(
    conn: Conn,
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const { client, budget } = this.pool.of(conn)
    await budget.check(call)
    const ref = externalRef(call.ref, limits.externalId)
    if (call.adopt) {
      const found = await client.query<{ id: number }>(
        'Tickets',
        [{ op: 'eq', field: 'externalID', value: ref }],
        ['id'],
        call,
      )
      if (!found.ok) return found
      const [made] = found.value
      if (made) return ok({ ticketId: String(made.id), adopted: true })
    }
    if (!/^\d+$/.test(t.companyId)) {
      return fail({
        kind: 'rejected',
        retryable: false,
        message: `Autotask company ids are numbers, not '${t.companyId}'`,
      })
    }
    const fields = await client.picklists('Tickets', call)
    if (!fields.ok) return fields
    const f = fields.value
    const titleMax = lengthOf(f, 'title', limits.title)
    const body: Record<string, unknown> = {
      companyID: Number(t.companyId),
      title: cut(t.summary, titleMax),
      description: cut(
        t.summary.length > titleMax ? `${t.summary}\n\n${t.description}` : t.description,
        lengthOf(f, 'description', limits.description),
      ),
      externalID: ref,
    }
    const settings: [string, string, string | null, string][] = [
      ['queueID', 'queueID', t.board, 'queue'],
      ['status', 'status', t.status ?? defaultOf(f, 'status') ?? '1', 'status'],
      ['priority', 'priority', t.priority ?? defaultOf(f, 'priority'), 'priority'],
      ['issueType', 'issueType', t.type, 'issue type'],
    ]
    for (const [field, list, value, what] of settings) {
      if (value === null) continue
      const id = pick(f, list, value, what)
      if (!id.ok) return id
      body[field] = id.value
    }
    const made = await client.api('POST', 'Tickets', call, body)
    if (!made.ok) return made
    const itemId = (made.value.body as { itemId?: unknown } | null)?.itemId
    if (typeof itemId !== 'number')
      return fail({ kind: 'rejected', retryable: false, message: 'Autotask answered no itemId' })
    return ok({ ticketId: String(itemId), adopted: false })
  }

  async appendNote(conn: Conn, ticketId: string, note: string, call: TicketCall): Promise<PsaResult<null>> {
    const state = this.pool.of(conn)
    await state.budget.check(call)
    return this.note(state.client, conn.settings, ticketId, note, call)
  }

  async closeTicket(
    conn: Conn,
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const { client, budget } = this.pool.of(conn)
    await budget.check(call)
    const got = await client.api('GET', `Tickets/${ticketId}`, call)
    if (!got.ok) return got
    const item = (got.value.body as { item?: { status?: unknown; completedDate?: unknown } | null } | null)
      ?.item
    if (!item)
      return fail({ kind: 'not-found', retryable: false, message: `Autotask has no ticket ${ticketId}` })
    // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
    if (String(item.status) === complete || (item.completedDate !== null && item.completedDate !== undefined))
      return ok({ alreadyClosed: !call.adopt })
    let status = Number(complete)
    if (close.closedStatus) {
      const fields = await client.picklists('Tickets', call)
      if (!fields.ok) return fields
      const id = pick(fields.value, 'status', close.closedStatus, 'status')
      if (!id.ok) return id
      status = id.value
    }
    // The resolution first, then the status.
    const noted = await this.note(client, conn.settings, ticketId, close.note, call)
    if (!noted.ok) return noted
    const patched = await client.api('PATCH', 'Tickets', call, {
      id: Number(ticketId),
      status,
      resolution: cut(close.note, limits.resolution),
    })
    return patched.ok ? ok({ alreadyClosed: false }) : patched
  }

  ticketUrl(conn: Conn, ticketId: string): string | null {
    return autotaskTicketUrl(conn.settings.baseUrl ?? this.pool.of(conn).client.knownZone(), ticketId)
  }

  async billingLines(conn: Conn, companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    const { client, budget } = this.pool.of(conn)
    await budget.check(call)
    return billingLines(client, companyId, call)
  }

  async setQuantity(
    conn: Conn,
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    const { client, budget } = this.pool.of(conn)
    await budget.check(call)
    return setQuantity(client, lineId, quantity, call)
  }

  async lookup(
    conn: Conn,
    what: LookupKind,
    _scope: unknown,
    call: PsaCall,
  ): Promise<PsaResult<PsaEntity[]>> {
    const { client, budget } = this.pool.of(conn)
    await budget.check(call)
    if (what === 'companies') {
      const all = await client.query<{ id: number; companyName: string }>(
        'Companies',
        [{ op: 'eq', field: 'isActive', value: true }],
        ['id', 'companyName'],
        call,
      )
      return all.ok ? ok(all.value.map((c) => ({ id: String(c.id), name: c.companyName }))) : all
    }
    const fields = await client.picklists('Tickets', call, true)
    if (!fields.ok) return fields
    const field = { boards: 'queueID', priorities: 'priority', statuses: 'status', types: 'issueType' }[what]
    return ok(entries(fields.value, field))
  }

  private async note(
    client: AutotaskClient,
    s: Settings,
    ticketId: string,
    text: string,
    call: PsaCall,
  ): Promise<PsaResult<null>> {
    const fields = await client.picklists('TicketNotes', call)
    if (!fields.ok) return fields
    const values: Record<string, number> = {}
    for (const [field, setting, fallback] of [
      ['noteType', s.noteType, defaultOf(fields.value, 'noteType')],
      ['publish', s.notePublish, defaultOf(fields.value, 'publish') ?? '1'],
    ] as const) {
      const value = setting ?? fallback ?? entries(fields.value, field)[0]?.id
      if (value === undefined)
        return fail({ kind: 'rejected', retryable: false, message: `Autotask offers no ${field}` })
      const id = pick(fields.value, field, value, field === 'noteType' ? 'note type' : 'publish option')
      if (!id.ok) return id
      values[field] = id.value
    }
    const res = await client.api('POST', `Tickets/${ticketId}/Notes`, call, {
      ticketID: Number(ticketId),
      title: cut(text.split('\n')[0] || 'Alert', lengthOf(fields.value, 'title', limits.noteTitle)),
      description: cut(text, lengthOf(fields.value, 'description', limits.note)),
      ...values,
    })
    return res.ok ? ok(null) : res
  }
}

/** The Autotask kind, talking through the service's outbound client. */
export function autotaskPsa(options: AutotaskOptions): PsaKindEntry {
  return psaKind({
    kind: 'autotask',
    settings: AutotaskSettings,
    secretFields: autotaskSecrets,
    adapter: new AutotaskPsa(options),
  })
}
