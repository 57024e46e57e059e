// One connection to a PSA on the Kaseya v2 engine (docs/psa/kaseya-bms.md, docs/psa/pulseway-psa.md):
// tickets at /v2/servicedesk/tickets with every field TicketInputDto requires (the account's main
// location, a status, priority, ticket type and source, the open date), our reference on the last line
// of the Details (tag.ts), notes at …/tickets/{id}/notes, and closing with …/tickets/{id}/resolve and a
// status the PSA classes as completed (completion.ts). Settings may name an id or its name; names are
// resolved against the PSA's look-ups. A retry after a lost answer looks before it writes: for the
// ticket (tag.ts), for a note carrying the alert's marker (notes.ts). Two-way sync: reads and reopen
// (psa-sync.ts); no kind on the engine takes a push, so the poll also lists what changed (changes.ts).
// What differs between the kinds
// is in V2Kind (docs/decisions/psa/kaseya-v2-shared.md).
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
import { byIdOrName } from '../core/names.js'
import { fitText, fitTicket } from '../core/text.js'
import type { PsaTicketRead, ReopenRequest, RetiredPush } from '../psa-sync-port.js'
import { billingLines, type ServicesWay, setQuantity } from './billing.js'
import { changedSince } from './changes.js'
import type { V2Client } from './client.js'
import { Completion, completedDateOf } from './completion.js'
import { checkConnection } from './connection-check.js'
import { ticketFields } from './fields.js'
import { Lists } from './lists.js'
import { lookup } from './lookups.js'
import { noteMax, writeNote } from './notes.js'
import { type ApiUser, readApiUser, readTickets, reopenTicket } from './psa-sync.js'
import type { V2Settings } from './settings.js'
import { findByTag, refTag, type TagSearch } from './tag.js'
import type { V2Kind } from './variant.js'
import { num, str } from './wire.js'

/** Neither PSA publishes lengths (TicketInputDto gives none): conservative guesses, docs/psa/kaseya-bms.md. */
const limits = { title: 250, details: 32_000 }

const refused = <T>(message: string): PsaResult<T> => fail({ kind: 'rejected', retryable: false, message })

/** One connection: its client, its look-up lists, and what it learned of the tenant. */
export class V2Connection implements PsaOperations {
  readonly lists: Lists
  readonly completion: Completion
  readonly services: ServicesWay = { read: null, units: null }
  readonly tags: TagSearch = { sortRefused: false }
  /** No kind on the engine takes a push (variant.ts): the poll alone hears the PSA. */
  readonly push = null
  readonly pollOnlyReason?: string
  readonly retiredPush?: RetiredPush
  /** The open tickets changed since a time (changes.ts), so that the poll hears a ticket a technician
   * reopened. */
  readonly changedSince: (since: string, call: PsaCall) => Promise<PsaResult<{ ticketIds: string[] }>>
  /** alertbridge's own API user: its notes and changes are not a technician's work. */
  private readonly me = new CachedResult<ApiUser>(6 * 60 * 60 * 1000)

  constructor(
    readonly client: V2Client,
    readonly s: V2Settings,
    private readonly kind: V2Kind,
  ) {
    this.lists = new Lists(client, s)
    this.completion = new Completion(s.completedStatusTypes)
    this.changedSince = (since, call) => changedSince(client, since, call)
    this.pollOnlyReason = kind.pollOnlyReason
    this.retiredPush = kind.retiredPush?.(client)
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
    return checkConnection(this, this.kind.syncWords, call)
  }

  async createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const psa = this.client.psa.name
    if (!/^\d+$/.test(t.companyId)) return refused(`${psa} account ids are numbers, not '${t.companyId}'`)
    const tag = refTag(call.ref)
    // The tag is the Details' last line, out of reach of the cut.
    const fitted = fitTicket(
      t,
      { title: limits.title, description: limits.details - tag.length - 2 },
      this.client.psa.name,
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
    if (id === null) return refused(`${psa} answered the new ticket without its id`)
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
    const psa = client.psa.name
    if (!/^\d+$/.test(ticketId)) return refused(`${psa} ticket ids are numbers, not '${ticketId}'`)
    const got = await client.api('GET', `/servicedesk/tickets/${ticketId}`, call)
    if (!got.ok) return got
    const ticket = got.value.result
    if (!ticket || typeof ticket !== 'object')
      return fail({ kind: 'not-found', retryable: false, message: `${psa} has no ticket ${ticketId}` })
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
      if (!named) return refused(`${psa} has no status '${close.closedStatus}'`)
      target = named
      const completes = completion.of(named, statuses.value)
      // A status the PSA does not class as completed moves the ticket without resolving it.
      if (completes === false) return this.move(ticketId, close.note, named.id, call)
      unclassed = completes === null
    }
    // Without a completed status known, the PSA's resolve picks its own.
    const resolved = await client.api('POST', `/servicedesk/tickets/${ticketId}/resolve`, call, {
      body: {
        Comment: fitText(close.note, noteMax, this.client.psa.name),
        IsInternal: true,
        ...(target ? { StatusId: Number(target.id) } : {}),
      },
    })
    if (!resolved.ok) {
      // A named status the PSA will not resolve with (not a completed one, it turns out): move the ticket to it.
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

  /** No ticket URL: the web app lives on another host than the API, and no source shows its form. */
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
