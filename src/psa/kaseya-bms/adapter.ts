// Kaseya BMS (API v2), as its published OpenAPI and working clients describe it (docs/psa/kaseya-bms.md):
// tickets at /v2/servicedesk/tickets with every field TicketInputDto requires (the account's main
// location, a status, priority, ticket type and source, the open date), our reference on the last line
// of the Details (tag.ts), notes at …/tickets/{id}/notes, and closing with …/tickets/{id}/resolve and a
// status BMS classes as completed (completion.ts). Settings may name a BMS id or its name; names are
// resolved against BMS's look-ups. A retry after a lost answer looks before it writes: for the ticket
// (tag.ts), for a note carrying the alert's marker (notes.ts). Two-way sync: reads, reopen (psa-sync.ts)
// and BMS's webhooks (push.ts).
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
  type PsaCall,
  type PsaEntity,
  type PsaOperations,
  type PsaResult,
  type UsageCall,
} from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import type { PsaKindOptions } from '../core/http.js'
import { remotePsaKind } from '../core/kind.js'
import { byIdOrName } from '../core/names.js'
import { fitText, fitTicket } from '../core/text.js'
import type { PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import type { PsaKindEntry } from '../registry.js'
import { billingLines, type ServicesWay, setQuantity } from './billing.js'
import { KaseyaBmsClient } from './client.js'
import { Completion, completedDateOf } from './completion.js'
import { checkConnection } from './connection-check.js'
import { ticketFields } from './fields.js'
import { Lists } from './lists.js'
import { lookup } from './lookups.js'
import { noteMax, psaName, writeNote } from './notes.js'
import { type ApiUser, readApiUser, readTickets, reopenTicket } from './psa-sync.js'
import { KaseyaBmsPush } from './push.js'
import { KaseyaBmsSettings, kaseyaBmsSecrets } from './settings.js'
import { findByTag, refTag, type TagSearch } from './tag.js'
import { bmsErrorText, num, str } from './wire.js'

type Settings = Static<typeof KaseyaBmsSettings>

/** BMS publishes no lengths (TicketInputDto gives none): conservative guesses, docs/psa/kaseya-bms.md. */
const limits = { title: 250, details: 32_000 }

const refused = <T>(message: string): PsaResult<T> => fail({ kind: 'rejected', retryable: false, message })

/** The Kaseya BMS kind, talking through the service's outbound client. */
export function kaseyaBmsPsa(options: PsaKindOptions): PsaKindEntry {
  return remotePsaKind(options, {
    kind: 'kaseya-bms',
    settings: KaseyaBmsSettings,
    secretFields: kaseyaBmsSecrets,
    // BMS does not say how it signals its hourly limit; a 429 without Retry-After waits a minute.
    dialect: { name: psaName, errorText: bmsErrorText, defaultRetryAfterMs: 60_000 },
    limits: (s) => ({
      perEndpoint: s.maxConcurrent ?? 4,
      // BMS counts requests per endpoint per hour (1,500 on its current help page).
      budgets: [{ points: s.hourlyBudgetPerEndpoint ?? 1500, perSeconds: 3600, per: 'endpoint' }],
    }),
    connect: ({ http, limiter }, conn) =>
      new KaseyaBmsConnection(new KaseyaBmsClient(http, limiter, conn.settings), conn.settings),
  })
}

/** One connection: its client, its look-up lists, and what it learned of the tenant. */
class KaseyaBmsConnection implements PsaOperations {
  readonly lists: Lists
  readonly completion: Completion
  readonly services: ServicesWay = { read: null, units: null }
  readonly tags: TagSearch = { sortRefused: false }
  readonly push: KaseyaBmsPush
  /** alertbridge's own BMS user: its notes and changes are not a technician's work. */
  private readonly me = new CachedResult<ApiUser>(6 * 60 * 60 * 1000)

  constructor(
    readonly client: KaseyaBmsClient,
    readonly s: Settings,
  ) {
    this.lists = new Lists(client, s)
    this.completion = new Completion(s.completedStatusTypes)
    this.push = new KaseyaBmsPush(client)
  }

  apiUser(call: PsaCall): Promise<PsaResult<ApiUser>> {
    return this.me.get((own) => readApiUser(this.client, own), call)
  }

  readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    return readTickets(this, ticketIds, call)
  }

  reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    return reopenTicket(this, ticketId, reopen, call)
  }

  test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return checkConnection(this, call)
  }

  async createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    if (!/^\d+$/.test(t.companyId)) return refused(`Kaseya BMS account ids are numbers, not '${t.companyId}'`)
    const tag = refTag(call.ref)
    // The tag is the Details' last line, out of reach of the cut.
    const fitted = fitTicket(
      t,
      { title: limits.title, description: limits.details - tag.length - 2 },
      psaName,
    )
    if (call.adopt) {
      const found = await findByTag(this.client, this.tags, tag, fitted.title, t.companyId, call)
      if (!found.ok) return found
      if (found.value) return ok({ ticketId: found.value, adopted: true })
    }
    const fields = await ticketFields(this.lists, this.completion, this.s, t, call)
    if (!fields.ok) return fields
    const body = {
      Title: fitted.title,
      Details: `${fitted.description}\n\n${tag}`,
      AccountId: Number(t.companyId),
      OpenDate: new Date().toISOString(),
      ...fields.value,
    }
    const made = await this.client.api('POST', '/servicedesk/tickets', call, { body })
    if (!made.ok) return made
    const id =
      num(made.value.result, 'id') ?? (typeof made.value.result === 'number' ? made.value.result : null)
    if (id === null) return refused('Kaseya BMS answered the new ticket without its id')
    return ok({ ticketId: String(id), adopted: false })
  }

  appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    return writeNote(this, ticketId, note, null, call)
  }

  async closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const { client, lists, completion } = this
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
      if (completes === false) return this.move(ticketId, close.note, named.id, call)
      unclassed = completes === null
    }
    // Without a completed status known, BMS's resolve picks its own.
    const resolved = await client.api('POST', `/servicedesk/tickets/${ticketId}/resolve`, call, {
      body: {
        Comment: fitText(close.note, noteMax, psaName),
        IsInternal: true,
        ...(target ? { StatusId: Number(target.id) } : {}),
      },
    })
    if (!resolved.ok) {
      // A named status BMS will not resolve with (not a completed one, it turns out): move the ticket to it.
      if (unclassed && target && resolved.failure.kind === 'rejected')
        return this.move(ticketId, close.note, target.id, call)
      return resolved
    }
    completion.learn(resolved.value.result, statuses.value)
    return ok({ alreadyClosed: false })
  }

  /** The note, and the ticket moved to a status that does not complete it (one call: on a retry, a
   * note with the marker means the earlier attempt did both). */
  private async move(
    ticketId: string,
    note: string,
    statusId: string,
    call: NoteCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const moved = await writeNote(this, ticketId, note, statusId, call)
    return moved.ok ? ok({ alreadyClosed: false }) : moved
  }

  lookup(what: LookupKind, _scope: unknown, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    return lookup(this, what, call)
  }

  /** No ticket URL: BMS's web app lives on another host than its API, and no source shows its form. */
  ticketUrl(_ticketId: string): string | null {
    return null
  }

  billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    return billingLines(this.client, this.services, companyId, call)
  }

  setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    return setQuantity(this.client, this.services, lineId, quantity, call)
  }
}
