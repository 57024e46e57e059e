// Autotask, as its REST API pages describe it (docs/psa/autotask.md): tickets at /V1.0/Tickets (our
// correlationId in externalID; the answer is only an itemId), created only with a queue, a status and a
// priority (plan.ts works them out, or refuses in one sentence), notes at /V1.0/Tickets/{id}/Notes
// (notes.ts), completing with status 5 (Complete) by a PATCH with the id in the body (a catch-all
// ticket moves to another company by such a PATCH too: move.ts), and queues, statuses, priorities,
// issue types, sources and ticket categories read as picklists of Tickets/entityInformation/fields.
// Settings may name a picklist value or its label. Every text is fitted to the tenant's field lengths.
// Billing lines are contract services, their units changed by adjustments (usage.ts). Two-way sync
// reads tickets back and reopens them (psa-sync.ts) and registers a ticket webhook that excludes the API
// user's own changes (push.ts).
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
  type TicketCall,
  type UsageCall,
} from '../adapter.js'
import type { PsaKindOptions } from '../core/http.js'
import { remotePsaKind } from '../core/kind.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { fitText, fitTicket } from '../core/text.js'
import { autotaskTicketUrl } from '../core/ticket-urls.js'
import type { PsaPush, PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import type { PsaKindEntry } from '../registry.js'
import { BudgetGuard } from './budget.js'
import { AutotaskClient, autotaskErrorText } from './client.js'
import { checkConnection } from './connection-check.js'
import { moveTicket } from './move.js'
import { hasNoteWith, writeNote } from './notes.js'
import { complete, entries, lengthOf, planTicket } from './plan.js'
import { AutotaskPsaSync } from './psa-sync.js'
import { AutotaskPush } from './push.js'
import { AutotaskSettings, autotaskSecrets } from './settings.js'
import { billingLines, setQuantity } from './usage.js'

type Settings = Static<typeof AutotaskSettings>

/** Ticket field lengths where the tenant's field information does not say (docs/psa/autotask.md, "Limits"). */
const limits = { title: 255, description: 8000, resolution: 32000, externalId: 50 }

/** Where Autotask looks zones up. */
export const zoneLookupRoot = 'https://webservices2.autotask.net/ATServicesRest/'

export interface AutotaskOptions extends PsaKindOptions {
  /** Where zones are looked up: Autotask's own host, a simulator in tests. */
  lookupRoot?: string
}

/** The Autotask kind, talking through the service's outbound client. */
export function autotaskPsa({ lookupRoot = zoneLookupRoot, ...options }: AutotaskOptions): PsaKindEntry {
  return remotePsaKind(options, {
    kind: 'autotask',
    settings: AutotaskSettings,
    secretFields: autotaskSecrets,
    dialect: {
      name: 'Autotask',
      errorText: autotaskErrorText,
      textual500IsRefusal: true,
      // The thread limit clears as soon as a call ends; the hourly threshold does not.
      defaultRetryAfterMs: (text) => (/thread/i.test(text) ? 2000 : 60_000),
    },
    // 3 threads per endpoint and 10,000 requests an hour per tenant (Autotask's own limits).
    limits: () => ({ perEndpoint: 3, hourlyBudget: 10_000 }),
    connect: ({ http, limiter }, conn) => {
      const client = new AutotaskClient(http, conn.settings, lookupRoot)
      return new AutotaskConnection(client, new BudgetGuard(client, limiter), conn.settings)
    },
  })
}

/** One connection: its client, and the guard of the tenant's hourly threshold every operation passes. */
class AutotaskConnection implements PsaOperations {
  private readonly psaSync: AutotaskPsaSync
  readonly push: PsaPush
  /** A read is three queries whatever the number of ids (psa-sync.ts): the poll reads a page at once. */
  readonly readBatch = 50

  constructor(
    private readonly client: AutotaskClient,
    private readonly budget: BudgetGuard,
    private readonly s: Settings,
  ) {
    this.psaSync = new AutotaskPsaSync(client, s)
    this.push = new AutotaskPush(
      client,
      (call) => this.psaSync.ownResource(call),
      (call) => budget.check(call),
    )
  }

  test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return checkConnection(this.client, this.s, call)
  }

  async createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const { client, budget } = this
    await budget.check(call)
    const ref = externalRef(call.ref, limits.externalId)
    // A retry after a lost answer: the ticket an earlier attempt made carries the ref in externalID.
    if (call.adopt) {
      const found = await client.query<{ id: number; externalID?: unknown }>(
        'Tickets',
        [{ op: 'eq', field: 'externalID', value: ref }],
        ['id', 'externalID'],
        call,
      )
      if (!found.ok) return found
      const made = found.value.find((x) => x.externalID === undefined || x.externalID === ref)
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
    const { s } = this
    const plan = planTicket(f, {
      board: t.board,
      status: t.status,
      priority: t.priority,
      type: t.type,
      category: s.ticketCategory ?? null,
      source: s.source ?? null,
    })
    if (!plan.ok) return plan
    const text = fitTicket(
      t,
      {
        title: lengthOf(f, 'title', limits.title),
        description: lengthOf(f, 'description', limits.description),
      },
      'Autotask',
    )
    const made = await client.api('POST', 'Tickets', call, {
      companyID: Number(t.companyId),
      title: text.title,
      description: text.description,
      externalID: ref,
      ...plan.value.body,
    })
    if (!made.ok) return made
    const itemId = (made.value.body as { itemId?: unknown } | null)?.itemId
    if (typeof itemId !== 'number')
      return fail({ kind: 'rejected', retryable: false, message: 'Autotask answered no itemId' })
    return ok({ ticketId: String(itemId), adopted: false })
  }

  async appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    const { client, budget } = this
    await budget.check(call)
    // A retry after a lost answer: the note is there already if one carries the marker.
    if (call.adopt && call.marker !== '') {
      const there = await hasNoteWith(client, ticketId, call.marker, call)
      if (!there.ok) return there
      if (there.value) return ok(null)
    }
    return writeNote(client, this.s, ticketId, note, call)
  }

  async closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const { client, budget } = this
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
    const fields = await client.picklists('Tickets', call)
    if (!fields.ok) return fields
    let status = Number(complete)
    if (close.closedStatus) {
      const found = byIdOrName(entries(fields.value, 'status'), close.closedStatus)
      if (!found) {
        return fail({
          kind: 'rejected',
          retryable: false,
          message: `Autotask has no status '${close.closedStatus}'`,
        })
      }
      status = Number(found.id)
    }
    // The resolution note first, then the status; a retry does not write a note an earlier attempt wrote.
    const written =
      call.adopt && call.marker !== '' ? await hasNoteWith(client, ticketId, call.marker, call) : ok(false)
    if (!written.ok) return written
    if (!written.value) {
      const noted = await writeNote(client, this.s, ticketId, close.note, call)
      if (!noted.ok) return noted
    }
    const patched = await client.api('PATCH', 'Tickets', call, {
      id: Number(ticketId),
      status,
      resolution: fitText(close.note, lengthOf(fields.value, 'resolution', limits.resolution), 'Autotask'),
    })
    return patched.ok ? ok({ alreadyClosed: false }) : patched
  }

  async moveTicket(
    ticketId: string,
    to: { companyId: string; board: string | null },
    call: TicketCall,
  ): Promise<PsaResult<null>> {
    await this.budget.check(call)
    return moveTicket(this.client, ticketId, to, call)
  }

  /** Two-way sync's read-back and reopen (psa-sync.ts); the push is Autotask's ticket webhook (push.ts). */
  async readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    await this.budget.check(call)
    return this.psaSync.readTickets(ticketIds, call)
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    await this.budget.check(call)
    return this.psaSync.reopenTicket(ticketId, reopen, call)
  }

  ticketUrl(ticketId: string): string | null {
    return autotaskTicketUrl(this.s.baseUrl ?? this.client.knownZone(), ticketId)
  }

  async billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    await this.budget.check(call)
    return billingLines(this.client, companyId, call)
  }

  async setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    await this.budget.check(call)
    return setQuantity(this.client, lineId, quantity, call)
  }

  /**
   * Look-ups for the portal's pick lists: companies (a query, every page), and the picklists behind
   * each setting: boards → queueID (defaults.board), priorities, statuses (defaults.status and
   * closedStatus), types → issueType, sources → source, categories → ticketCategory, noteTypes →
   * TicketNotes' noteType.
   */
  async lookup(what: LookupKind, _scope: unknown, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const { client, budget } = this
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
    if (what === 'noteTypes') {
      const notes = await client.picklists('TicketNotes', call, true)
      return notes.ok ? ok(entries(notes.value, 'noteType')) : notes
    }
    const fields = await client.picklists('Tickets', call, true)
    if (!fields.ok) return fields
    const field = {
      boards: 'queueID',
      priorities: 'priority',
      statuses: 'status',
      types: 'issueType',
      sources: 'source',
      categories: 'ticketCategory',
    }[what]
    return ok(entries(fields.value, field))
  }
}
