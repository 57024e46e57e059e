// Syncro (SyncroMSP), as its API docs describe it (reference/psa-apis.md §5): tickets at /tickets
// (customer, subject and problem type required; the description as the first, hidden comment; our
// reference in a custom field and that comment), alert updates as hidden comments that e-mail no one,
// closing with the status Syncro treats as closed ("Resolved", which sets resolved_at) after a
// resolution comment, the look-ups of the mapping screens, and invoice-schedule line items for usage.
// Within Syncro's 180 requests a minute, kept per connection before Syncro has to refuse.
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
import { CachedResult, ConnectionPool } from '../core/connections.js'
import { cut, PsaHttp, type PsaKindOptions } from '../core/http.js'
import { ConnectionLimiter } from '../core/limiter.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { syncroTicketUrl } from '../core/ticket-urls.js'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { billingLines, setQuantity } from './billing.js'
import { itemOf, SyncroClient, syncroErrorText } from './client.js'
import { closingStatus, companies, customerId, priorityOf, problemTypes, ticketSettings } from './lookups.js'
import { SyncroSettings, syncroSecrets } from './settings.js'
import { connectionTest } from './test.js'
import { findByRef, isClosed, refLine, refProperty, type SyncroTicket } from './tickets.js'

type Settings = Static<typeof SyncroSettings>
type Conn = PsaConnection<Settings>

/** Syncro's limit: 180 requests a minute (per IP address, which a connection's calls share). */
const perMinute = 180
const subjectMax = 255
const refMax = 100
const listsKeptMs = 5 * 60 * 1000

/** What one connection keeps: its client, and the lists names are resolved against. */
class State {
  readonly problemTypes = new CachedResult<PsaEntity[]>(listsKeptMs)
  readonly ticketSettings = new CachedResult<{ statuses: PsaEntity[]; priorities: PsaEntity[] }>(listsKeptMs)
  constructor(readonly client: SyncroClient) {}
}

const rejected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

export class SyncroPsa implements PsaAdapter<Settings> {
  private readonly pool: ConnectionPool<Settings, State>

  constructor({ http, log, requestTimeoutMs }: PsaKindOptions) {
    this.pool = new ConnectionPool((conn) => {
      const limiter = new ConnectionLimiter({
        perEndpoint: conn.settings.maxConcurrent ?? 4,
        budgets: [{ points: perMinute, perSeconds: 60, per: 'connection' }],
      })
      const core = new PsaHttp({
        http,
        limiter,
        name: 'Syncro',
        log,
        requestTimeoutMs,
        errorText: syncroErrorText,
        // Syncro counts a minute and sends no Retry-After: wait the window out.
        defaultRetryAfterMs: 60_000,
      })
      return new State(new SyncroClient(core, conn.settings))
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
    const customer = await customerId(client, t.companyId, call)
    if (!customer.ok) return customer
    const ref = externalRef(call.ref, refMax)
    const subject = cut(t.summary, subjectMax)
    if (call.adopt) {
      const found = await findByRef(client, { ref, customerId: customer.value, subject }, call)
      if (!found.ok) return found
      if (found.value !== null) return ok({ ticketId: found.value, adopted: true })
    }
    const problemType = await this.problemTypeOf(state, t.board ?? t.type, call)
    if (!problemType.ok) return problemType
    const description = t.summary.length > subjectMax ? `${t.summary}\n\n${t.description}` : t.description
    const body: Record<string, unknown> = {
      customer_id: customer.value,
      subject,
      problem_type: problemType.value,
      properties: { [refProperty]: ref },
      comments_attributes: [
        {
          subject: 'Initial Issue',
          body: `${description}\n\n${refLine(ref)}`,
          hidden: true,
          do_not_email: true,
        },
      ],
    }
    if (t.status !== null || t.priority !== null) {
      const settings = await state.ticketSettings.get((c) => ticketSettings(client, c), call)
      if (!settings.ok) return settings
      if (t.status !== null) {
        const status = byIdOrName(settings.value.statuses, t.status)
        if (!status) return fail(rejected(`Syncro has no ticket status '${t.status}'`))
        body.status = status.name
      }
      if (t.priority !== null) body.priority = priorityOf(settings.value.priorities, t.priority)
    }
    const made = await client.api('POST', '/tickets', call, { body })
    if (!made.ok) return made
    const id = itemOf<SyncroTicket>(made.value.body, 'ticket')?.id
    if (id === undefined || id === null || id === '') return fail(rejected('Syncro answered no ticket id'))
    return ok({ ticketId: String(id), adopted: false })
  }

  async appendNote(conn: Conn, ticketId: string, note: string, call: TicketCall): Promise<PsaResult<null>> {
    return this.comment(this.pool.of(conn).client, ticketId, 'Update', note, call)
  }

  async closeTicket(
    conn: Conn,
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const state = this.pool.of(conn)
    const { client } = state
    const got = await client.api('GET', `/tickets/${ticketId}`, call)
    if (!got.ok) return got
    const ticket = itemOf<SyncroTicket>(got.value.body, 'ticket')
    if (!ticket)
      return fail({ kind: 'not-found', retryable: false, message: `Syncro has no ticket ${ticketId}` })
    // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
    if (isClosed(ticket)) return ok({ alreadyClosed: !call.adopt })
    const settings = await state.ticketSettings.get((c) => ticketSettings(client, c), call)
    if (!settings.ok) return settings
    const target = close.closedStatus
      ? byIdOrName(settings.value.statuses, close.closedStatus)
      : closingStatus(settings.value.statuses)
    if (!target) {
      return fail(
        rejected(
          close.closedStatus
            ? `Syncro has no ticket status '${close.closedStatus}'`
            : 'Syncro lists no ticket status it treats as closed (Resolved)',
        ),
      )
    }
    // The resolution first, then the status.
    const noted = await this.comment(client, ticketId, 'Resolution', close.note, call)
    if (!noted.ok) return noted
    const put = await client.api('PUT', `/tickets/${ticketId}`, call, { body: { status: target.name } })
    return put.ok ? ok({ alreadyClosed: false }) : put
  }

  async lookup(
    conn: Conn,
    what: LookupKind,
    _scope: unknown,
    call: PsaCall,
  ): Promise<PsaResult<PsaEntity[]>> {
    const state = this.pool.of(conn)
    const { client } = state
    switch (what) {
      case 'companies':
        return companies(client, call)
      // Syncro has no boards: a ticket's problem type is what sorts it (and what its types are).
      case 'boards':
      case 'types':
        return state.problemTypes.get((c) => problemTypes(client, c), call, true)
      case 'statuses':
      case 'priorities': {
        const settings = await state.ticketSettings.get((c) => ticketSettings(client, c), call, true)
        return settings.ok ? ok(settings.value[what]) : settings
      }
    }
  }

  ticketUrl(conn: Conn, ticketId: string): string | null {
    return syncroTicketUrl(this.pool.of(conn).client.root, ticketId)
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
    // Syncro dates nothing on a schedule line: the quantity is what the schedule's next invoice bills.
    return setQuantity(this.pool.of(conn).client, lineId, quantity, call)
  }

  /** The problem type a setting names, or (Syncro requires one) the account's first. */
  private async problemTypeOf(state: State, value: string | null, call: PsaCall): Promise<PsaResult<string>> {
    const read = (fresh: boolean) => state.problemTypes.get((c) => problemTypes(state.client, c), call, fresh)
    let list = await read(false)
    // A problem type added in Syncro since the list was kept: read it again before refusing.
    if (list.ok && value !== null && !byIdOrName(list.value, value)) list = await read(true)
    if (!list.ok) return list
    const found = value === null ? (list.value[0] ?? null) : byIdOrName(list.value, value)
    if (found) return ok(found.name)
    return fail(
      rejected(value === null ? 'Syncro lists no problem types' : `Syncro has no problem type '${value}'`),
    )
  }

  /** A hidden comment that e-mails no one. */
  private async comment(
    client: SyncroClient,
    ticketId: string,
    subject: string,
    body: string,
    call: PsaCall,
  ): Promise<PsaResult<null>> {
    const res = await client.api('POST', `/tickets/${ticketId}/comment`, call, {
      body: { subject, body, hidden: true, do_not_email: true },
    })
    return res.ok ? ok(null) : res
  }
}

/** The Syncro kind, talking through the service's outbound client. */
export function syncroPsa(options: PsaKindOptions): PsaKindEntry {
  return psaKind({
    kind: 'syncro',
    settings: SyncroSettings,
    secretFields: syncroSecrets,
    adapter: new SyncroPsa(options),
    problems: (s) =>
      s.baseUrl || s.subdomain ? [] : ['psa needs subdomain (e.g. acme for acme.syncromsp.com) or baseUrl'],
  })
}
