// Syncro (SyncroMSP), as its API docs describe it (docs/psa/syncro.md): tickets at /tickets (customer,
// subject and problem type required; the description as the first, hidden comment; our reference in a
// custom field and that comment), alert updates as hidden comments that e-mail no one, closing with the
// status Syncro treats as closed ("Resolved", which sets resolved_at) after a resolution comment, the
// look-ups of the mapping screens, and invoice-schedule line items for usage. A retry after a lost
// answer finds what the earlier attempt made (tickets.ts) instead of making it twice. Syncro's 180
// requests a minute are counted per client address, shared by every connection (limits.ts). Two-way
// sync (psa-sync.ts): no push, tickets read back one by one, what changed listed by since_updated_at.
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
import { byIdOrName, externalRef } from '../core/names.js'
import { fitText, fitTicket } from '../core/text.js'
import { syncroTicketUrl } from '../core/ticket-urls.js'
import type { PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import type { PsaKindEntry } from '../registry.js'
import { billingLines, setQuantity } from './billing.js'
import { itemOf, rootOf, SyncroClient, syncroErrorText } from './client.js'
import { checkConnection } from './connection-check.js'
import { SyncroLimits } from './limits.js'
import { closingStatus, companies, customerId, priorityOf, problemTypes, ticketSettings } from './lookups.js'
import { SyncroPsaSync } from './psa-sync.js'
import { SyncroSettings, syncroSecrets } from './settings.js'
import {
  findByRef,
  hasComment,
  isClosed,
  ourTech,
  refLine,
  refProperty,
  type SyncroTicket,
} from './tickets.js'

/** A ticket's subject, at most (Syncro publishes none; see docs/psa/syncro.md, "Text limits"). */
export const subjectMax = 255
/** A comment's body, at most (the same): the description, a note, the resolution. */
export const commentMax = 30_000
const refMax = 100
const listsKeptMs = 5 * 60 * 1000

const rejected = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

/** The kind's settings beyond a connection's: Syncro's per-address budget (default 180 a minute). */
export interface SyncroTuning {
  perMinute?: number
}

/** The Syncro kind, talking through the service's outbound client. */
export function syncroPsa(options: PsaKindOptions, tuning: SyncroTuning = {}): PsaKindEntry {
  const { limiters, egress } = options
  // One budget and one 429 pause per Syncro and egress address, for every connection of the process.
  const limits = new SyncroLimits({ limiters, egress, perMinute: tuning.perMinute })
  return remotePsaKind(options, {
    kind: 'syncro',
    settings: SyncroSettings,
    secretFields: syncroSecrets,
    problems: (s) =>
      s.baseUrl || s.subdomain ? [] : ['psa needs subdomain (e.g. acme for acme.syncromsp.com) or baseUrl'],
    // Syncro counts a minute and sends no Retry-After: wait the window out.
    dialect: { name: 'Syncro', errorText: syncroErrorText, defaultRetryAfterMs: 60_000 },
    limits: (s) => ({ perEndpoint: s.maxConcurrent ?? 4, shared: [limits.budget(rootOf(s))] }),
    connect: ({ http }, conn) =>
      new SyncroConnection(new SyncroClient(http, conn.settings, limits), conn.settings.defaults ?? {}),
  })
}

/** One connection: its client, and the lists names are resolved against. */
class SyncroConnection implements PsaOperations {
  private readonly problemTypes = new CachedResult<PsaEntity[]>(listsKeptMs)
  private readonly ticketSettings = new CachedResult<{ statuses: PsaEntity[]; priorities: PsaEntity[] }>(
    listsKeptMs,
  )

  private readonly psaSync: SyncroPsaSync
  /** Syncro has no ticket push an API client can register: the poll alone hears technicians. */
  readonly push = null

  constructor(
    private readonly client: SyncroClient,
    defaults: { status?: string; closedStatus?: string },
  ) {
    this.psaSync = new SyncroPsaSync({
      client,
      initialStatus: defaults.status ?? null,
      closedStatus: defaults.closedStatus ?? null,
      statuses: async (call) => {
        const settings = await this.ticketSettings.get((c) => ticketSettings(client, c), call)
        return settings.ok ? ok(settings.value.statuses) : settings
      },
      comment: (ticketId, subject, body, call) => this.comment(client, ticketId, subject, body, call),
    })
  }

  test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return checkConnection(this.client, call)
  }

  async createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const { client } = this
    const customer = await customerId(client, t.companyId, call)
    if (!customer.ok) return customer
    const ref = externalRef(call.ref, refMax)
    // The description opens with the whole title where the subject is cut, and keeps room for our
    // reference line at its end.
    const tag = `\n\n${refLine(ref)}`
    const fitted = fitTicket(t, { title: subjectMax, description: commentMax - tag.length }, 'Syncro')
    const subject = fitted.title
    if (call.adopt) {
      const found = await findByRef(client, { ref, customerId: customer.value, subject }, call)
      if (!found.ok) return found
      if (found.value !== null) return ok({ ticketId: found.value, adopted: true })
    }
    const problemType = await this.problemTypeOf(t.board ?? t.type, call)
    if (!problemType.ok) return problemType
    const body: Record<string, unknown> = {
      customer_id: customer.value,
      subject,
      problem_type: problemType.value,
      properties: { [refProperty]: ref },
      comments_attributes: [
        {
          subject: 'Initial Issue',
          body: `${fitted.description}${tag}`,
          hidden: true,
          do_not_email: true,
          tech: ourTech,
        },
      ],
    }
    if (t.status !== null || t.priority !== null) {
      const settings = await this.ticketSettings.get((c) => ticketSettings(client, c), call)
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

  async appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    const { client } = this
    if (call.adopt && call.marker !== '') {
      // An earlier attempt's comment, its answer lost: the ticket's comments come with the ticket.
      const got = await client.api('GET', `/tickets/${ticketId}`, call)
      if (!got.ok) return got
      const ticket = itemOf<SyncroTicket>(got.value.body, 'ticket')
      if (ticket && hasComment(ticket, call.marker) === true) return ok(null)
    }
    return this.comment(client, ticketId, 'Update', note, call)
  }

  async closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const { client } = this
    const got = await client.api('GET', `/tickets/${ticketId}`, call)
    if (!got.ok) return got
    const ticket = itemOf<SyncroTicket>(got.value.body, 'ticket')
    if (!ticket)
      return fail({ kind: 'not-found', retryable: false, message: `Syncro has no ticket ${ticketId}` })
    // Closed already: by a technician, or (on a retry) by the attempt whose answer was lost.
    if (isClosed(ticket)) return ok({ alreadyClosed: !call.adopt })
    const settings = await this.ticketSettings.get((c) => ticketSettings(client, c), call)
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
    // The resolution first, then the status; an earlier attempt's resolution (its answer, or the status
    // change's, lost) is not written again.
    const written = call.adopt && call.marker !== '' && hasComment(ticket, call.marker) === true
    if (!written) {
      const noted = await this.comment(client, ticketId, 'Resolution', close.note, call)
      if (!noted.ok) return noted
    }
    const put = await client.api('PUT', `/tickets/${ticketId}`, call, { body: { status: target.name } })
    return put.ok ? ok({ alreadyClosed: false }) : put
  }

  async lookup(what: LookupKind, _scope: unknown, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const { client } = this
    switch (what) {
      case 'companies':
        return companies(client, call)
      // Syncro has no boards: a ticket's problem type is what sorts it (and what its types are).
      case 'boards':
      case 'types':
        return this.problemTypes.get((c) => problemTypes(client, c), call, true)
      case 'statuses':
      case 'priorities': {
        const settings = await this.ticketSettings.get((c) => ticketSettings(client, c), call, true)
        return settings.ok ? ok(settings.value[what]) : settings
      }
      // Lists this PSA does not have (or that no setting of this kind picks from): none.
      case 'sources':
      case 'noteTypes':
      case 'categories':
        return ok([])
    }
  }

  readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    return this.psaSync.readTickets(ticketIds, call)
  }

  reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    return this.psaSync.reopenTicket(ticketId, reopen, call)
  }

  changedSince(since: string, call: PsaCall): Promise<PsaResult<{ ticketIds: string[] }>> {
    return this.psaSync.changedSince(since, call)
  }

  ticketUrl(ticketId: string): string | null {
    return syncroTicketUrl(this.client.root, ticketId)
  }

  billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    return billingLines(this.client, companyId, call)
  }

  setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    // Syncro dates nothing on a schedule line: the quantity is what the schedule's next invoice bills.
    return setQuantity(this.client, lineId, quantity, call)
  }

  /** The problem type a setting names, or (Syncro requires one) the account's first. */
  private async problemTypeOf(value: string | null, call: PsaCall): Promise<PsaResult<string>> {
    const read = (fresh: boolean) => this.problemTypes.get((c) => problemTypes(this.client, c), call, fresh)
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

  /** A hidden comment that e-mails no one, fitted to Syncro's limit, under our name (`ourTech`). */
  private async comment(
    client: SyncroClient,
    ticketId: string,
    subject: string,
    body: string,
    call: PsaCall,
  ): Promise<PsaResult<null>> {
    const text = fitText(body, commentMax, 'Syncro')
    const comment = { subject, body: text, hidden: true, do_not_email: true, tech: ourTech }
    const res = await client.api('POST', `/tickets/${ticketId}/comment`, call, { body: comment })
    return res.ok ? ok(null) : res
  }
}
