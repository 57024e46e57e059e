// HaloPSA (also HaloITSM / HaloServiceDesk), as its API describes it (reference/psa-apis.md §3):
// tickets posted to /api/Tickets as an array of one (the answer is the ticket, or an array of it), our
// correlationId in third_party_id_string (which GET /api/Tickets filters on), the team given by name,
// notes as hidden actions at /api/Actions, and closing with an action whose new_status is the status
// Halo treats as closed (see lists.ts: never a status picked by its name). Usage counts set the
// quantity of a recurring invoice line (billing.ts).
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
import { cut, type PsaKindOptions } from '../core/http.js'
import { ConnectionLimiter } from '../core/limiter.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { haloTicketUrl } from '../core/ticket-urls.js'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { billingLines, setQuantity } from './billing.js'
import { firstOf, HaloClient, type HaloItem, listOf } from './client.js'
import { closingStatus, HaloLists, type HaloStatus, idText, nameOf } from './lists.js'
import { HaloPsaSettings, haloPsaSecrets } from './settings.js'
import { connectionTest } from './test.js'

type Settings = Static<typeof HaloPsaSettings>
type Conn = PsaConnection<Settings>

/** Halo documents no lengths; these fit its ticket list and a reference field. */
const summaryMax = 250
const refMax = 64
/**
 * Requests per minute where the settings do not say: Halo's rate is set per instance, commonly 700 per
 * five minutes for the whole instance; 120 a minute stays below it with room for its other integrations.
 */
const defaultPerMinute = 120
/** A 429 without Retry-After: the HaloAPI module's first back-off. */
const defaultRetryAfterMs = 5000

interface State {
  client: HaloClient
  lists: HaloLists
}

export class HaloPsa implements PsaAdapter<Settings> {
  private readonly pool: ConnectionPool<Settings, State>

  constructor({ http, log, requestTimeoutMs }: PsaKindOptions) {
    this.pool = new ConnectionPool((conn) => {
      const s = conn.settings
      const limiter = new ConnectionLimiter({
        perEndpoint: s.maxConcurrent ?? 4,
        budgets: [{ points: s.rateLimitPerMinute ?? defaultPerMinute, perSeconds: 60, per: 'connection' }],
      })
      const client = new HaloClient({ http, limiter, log, requestTimeoutMs, defaultRetryAfterMs }, s)
      return { client, lists: new HaloLists(client) }
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
    const { client, lists } = this.pool.of(conn)
    if (!/^\d+$/.test(t.companyId))
      return fail(refusal(`HaloPSA client ids are numbers, not '${t.companyId}'`))
    const ref = externalRef(call.ref, refMax)
    if (call.adopt) {
      const found = await this.findByRef(client, ref, call)
      if (!found.ok) return found
      if (found.value !== null) return ok({ ticketId: found.value, adopted: true })
    }
    const body: HaloItem = {
      summary: cut(t.summary, summaryMax),
      details: t.summary.length > summaryMax ? `${t.summary}\n\n${t.description}` : t.description,
      client_id: Number(t.companyId),
      third_party_id_string: ref,
    }
    const settings = [
      ['team', t.board, () => lists.teamList(call), 'team'],
      ['priority_id', t.priority, () => lists.priorityList(call), 'priority'],
      ['tickettype_id', t.type, () => lists.typeList(call), 'ticket type'],
      ['status_id', t.status, () => lists.statusList(call), 'status'],
    ] as const
    for (const [field, value, list, what] of settings) {
      if (value === null) continue
      const entries = await list()
      if (!entries.ok) return entries
      const found = byIdOrName(entries.value, value)
      if (!found) return fail(refusal(`HaloPSA has no ${what} '${value}'`))
      // Halo takes a ticket's team by its name (its tickets have no team id field).
      if (field === 'team') body.team = found.name
      else if (/^\d+$/.test(found.id)) body[field] = Number(found.id)
      else return fail(refusal(`HaloPSA's ${what} '${value}' has no numeric id`))
    }
    const made = await client.api('POST', '/Tickets', call, { body: [body] })
    if (!made.ok) return made
    const id = idText(firstOf(made.value.body, 'tickets')?.id)
    if (id === null) return fail(refusal('HaloPSA answered the new ticket without its id'))
    return ok({ ticketId: id, adopted: false })
  }

  async appendNote(conn: Conn, ticketId: string, note: string, call: TicketCall): Promise<PsaResult<null>> {
    if (!/^\d+$/.test(ticketId)) return fail(refusal(`HaloPSA ticket ids are numbers, not '${ticketId}'`))
    const res = await this.pool.of(conn).client.api('POST', '/Actions', call, {
      body: [action(conn.settings, ticketId, note)],
    })
    return res.ok ? ok(null) : res
  }

  async closeTicket(
    conn: Conn,
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const { client, lists } = this.pool.of(conn)
    if (!/^\d+$/.test(ticketId)) return fail(refusal(`HaloPSA ticket ids are numbers, not '${ticketId}'`))
    const ticket = await this.ticket(client, ticketId, call)
    if (!ticket.ok) return ticket
    const statuses = await lists.statusList(call)
    if (!statuses.ok) return statuses
    // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
    if (isClosed(ticket.value, statuses.value)) return ok({ alreadyClosed: !call.adopt })
    const target = close.closedStatus
      ? byIdOrName(statuses.value, close.closedStatus)
      : closingStatus(statuses.value)
    if (!target) {
      return fail(
        refusal(
          close.closedStatus
            ? `HaloPSA has no status '${close.closedStatus}'`
            : 'HaloPSA lists no status it treats as closed',
        ),
      )
    }
    // The resolution and the status in one action, which Halo's audit shows as the closing note.
    const noted = await client.api('POST', '/Actions', call, {
      body: [{ ...action(conn.settings, ticketId, close.note), new_status: Number(target.id) }],
    })
    if (!noted.ok) return noted
    // Where the action did not move the status (new_status not honoured), the ticket is updated.
    const after = await this.ticket(client, ticketId, call)
    if (!after.ok) return after
    if (idText(after.value.status_id) === target.id) return ok({ alreadyClosed: false })
    const updated = await client.api('POST', '/Tickets', call, {
      body: [{ id: Number(ticketId), status_id: Number(target.id) }],
    })
    return updated.ok ? ok({ alreadyClosed: false }) : updated
  }

  async lookup(
    conn: Conn,
    what: LookupKind,
    _scope: unknown,
    call: PsaCall,
  ): Promise<PsaResult<PsaEntity[]>> {
    const { client, lists } = this.pool.of(conn)
    switch (what) {
      case 'companies': {
        const all = await client.all('/Client', 'clients', call)
        if (!all.ok) return all
        const clients = all.value.filter((c) => c.inactive !== true && idText(c.id) !== null)
        return ok(clients.map((c) => ({ id: idText(c.id) ?? '', name: nameOf(c, 'Client') })))
      }
      case 'boards':
        return lists.teamList(call, true)
      case 'priorities':
        return lists.priorityList(call, true)
      case 'types':
        return lists.typeList(call, true)
      case 'statuses': {
        const statuses = await lists.statusList(call, true)
        return statuses.ok
          ? ok(statuses.value.map(({ id, name, closed }) => ({ id, name, closed })))
          : statuses
      }
    }
  }

  ticketUrl(conn: Conn, ticketId: string): string | null {
    return haloTicketUrl(this.pool.of(conn).client.root, ticketId)
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

  /** The ticket tagged with `ref`, if Halo has one: filtered by third_party_id_string, checked on each. */
  private async findByRef(client: HaloClient, ref: string, call: PsaCall): Promise<PsaResult<string | null>> {
    const res = await client.api('GET', '/Tickets', call, {
      query: { third_party_id_string: ref, pageinate: true, page_size: 100, page_no: 1 },
    })
    if (!res.ok) return res
    const listed = listOf(res.value.body, 'tickets').list
    const match = listed.find((t) => t.third_party_id_string === ref)
    if (match) return ok(idText(match.id))
    // A list that leaves the field out is checked ticket by ticket (a few: the filter narrowed it).
    for (const t of listed.filter((x) => !('third_party_id_string' in x)).slice(0, 5)) {
      const id = idText(t.id)
      if (id === null) continue
      const full = await this.ticket(client, id, call)
      if (!full.ok) return full
      if (full.value.third_party_id_string === ref) return ok(id)
    }
    return ok(null)
  }

  private async ticket(client: HaloClient, id: string, call: PsaCall): Promise<PsaResult<HaloItem>> {
    const got = await client.api('GET', `/Tickets/${id}`, call)
    if (!got.ok) return got
    const ticket = firstOf(got.value.body, 'tickets')
    return ticket
      ? ok(ticket)
      : fail({ kind: 'not-found', retryable: false, message: `HaloPSA has no ticket ${id}` })
  }
}

/** A note as a hidden action that e-mails no one. */
function action(s: Settings, ticketId: string, note: string): HaloItem {
  const outcome = s.noteOutcome ?? 'Private Note'
  return {
    ticket_id: Number(ticketId),
    note,
    ...(/^\d+$/.test(outcome) ? { outcome_id: Number(outcome) } : { outcome }),
    hiddenfromuser: true,
    sendemail: false,
  }
}

/**
 * Closed: its status is one Halo treats as closed. `hasbeenclosed` counts only where the status is not
 * known to be open (it stays true on a ticket a technician reopened).
 */
function isClosed(ticket: HaloItem, statuses: HaloStatus[]): boolean {
  const status = statuses.find((s) => s.id === idText(ticket.status_id))
  return status ? status.closed : ticket.hasbeenclosed === true
}

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

/** The HaloPSA kind, talking through the service's outbound client. */
export function haloPsa(options: PsaKindOptions): PsaKindEntry {
  return psaKind({
    kind: 'halopsa',
    settings: HaloPsaSettings,
    secretFields: haloPsaSecrets,
    adapter: new HaloPsa(options),
  })
}
