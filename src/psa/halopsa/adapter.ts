// HaloPSA (also HaloITSM / HaloServiceDesk), as its published API describes it (docs/psa/halopsa.md):
// tickets posted to /api/Tickets as an array of one (the answer is the ticket, or an array of it), our
// reference in third_party_id_string (read back to adopt a ticket a lost answer made: adopt.ts finds it
// among the client's tickets of the last day, newest first), the team given by name, notes as hidden
// actions at /api/Actions (a retry looks for the alert's marker among the ticket's actions first),
// closing with an action whose new_status is the status Halo treats as closed (actions.ts; see lists.ts:
// never a status picked by its name), and a catch-all ticket moved to another client by the same POST
// with its id (move.ts). Texts are fitted to the limits client.ts states. Usage counts set the quantity
// of a recurring invoice line (billing.ts). Two-way sync: tickets read back and reopened (psa-sync.ts), and
// the webhook an administrator sets up in Halo (push.ts).
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
import { fitTicket } from '../core/text.js'
import { haloTicketUrl } from '../core/ticket-urls.js'
import type { PsaPush, PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import type { PsaKindEntry } from '../registry.js'
import { appendNote, closeTicket } from './actions.js'
import { findTicket } from './adopt.js'
import { billingLines, setQuantity } from './billing.js'
import { firstOf, HaloClient, type HaloItem, haloErrorText, limits, psaName } from './client.js'
import { checkConnection } from './connection-check.js'
import { HaloLists, idText, nameOf } from './lists.js'
import { moveTicket } from './move.js'
import { HaloPsaSync } from './psa-sync.js'
import { haloPush } from './push.js'
import { HaloPsaSettings, haloPsaSecrets } from './settings.js'

type Settings = Static<typeof HaloPsaSettings>

/** Our reference in third_party_id_string: Halo documents no length; 64 fits every reference we make. */
const refMax = 64
/**
 * Requests per minute where the settings do not say: Halo's rate is set per instance, commonly 700 per
 * five minutes for the whole instance; 120 a minute stays below it with room for its other integrations.
 */
const defaultPerMinute = 120
/** A 429 without Retry-After: the HaloAPI module's first back-off. */
const defaultRetryAfterMs = 5000

/** The HaloPSA kind, talking through the service's outbound client. */
export function haloPsa(options: PsaKindOptions): PsaKindEntry {
  return remotePsaKind(options, {
    kind: 'halopsa',
    settings: HaloPsaSettings,
    secretFields: haloPsaSecrets,
    dialect: { name: psaName, errorText: haloErrorText, defaultRetryAfterMs },
    limits: (s) => ({
      perEndpoint: s.maxConcurrent ?? 4,
      budgets: [{ points: s.rateLimitPerMinute ?? defaultPerMinute, perSeconds: 60, per: 'connection' }],
    }),
    connect: ({ http }, conn) => new HaloConnection(new HaloClient(http, conn.settings), conn.settings),
  })
}

/** One connection: its client, and the lists names are resolved against. */
class HaloConnection implements PsaOperations {
  private readonly lists: HaloLists
  private readonly psaSync: HaloPsaSync
  /** Set up by an administrator in Halo (push.ts): register answers the steps. */
  readonly push: PsaPush = haloPush

  constructor(
    private readonly client: HaloClient,
    private readonly s: Settings,
  ) {
    this.lists = new HaloLists(client)
    this.psaSync = new HaloPsaSync(client, this.lists, s)
  }

  test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return checkConnection(this.client, call)
  }

  async createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    const { client, lists } = this
    if (!/^\d+$/.test(t.companyId))
      return fail(refusal(`HaloPSA client ids are numbers, not '${t.companyId}'`))
    const ref = externalRef(call.ref, refMax)
    // The details carry the correlation id (the service's description ends with it; where the text, as
    // fitted, does not hold it, a line says it): a retry searches the details for it.
    const cid = call.correlationId
    let fitted = fitTicket(t, limits, psaName)
    if (cid !== '' && !fitted.description.includes(cid))
      fitted = fitTicket(
        { ...t, description: withLine(t.description, `Correlation ID: ${cid}`) },
        limits,
        psaName,
      )
    if (call.adopt) {
      const where = { clientId: t.companyId, ref, title: fitted.title, search: cid }
      const found = await findTicket(client, where, call)
      if (!found.ok) return found
      if (found.value !== null) return ok({ ticketId: found.value, adopted: true })
    }
    const body: HaloItem = {
      summary: fitted.title,
      details: fitted.description,
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

  appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    return appendNote(this.client, this.s, ticketId, note, call)
  }

  closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    return closeTicket(this.client, this.lists, this.s, ticketId, close, call)
  }

  moveTicket(
    ticketId: string,
    to: { companyId: string; board: string | null },
    call: TicketCall,
  ): Promise<PsaResult<null>> {
    return moveTicket(this.client, this.lists, ticketId, to, call)
  }

  readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    return this.psaSync.readTickets(ticketIds, call)
  }

  reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    return this.psaSync.reopenTicket(ticketId, reopen, call)
  }

  async lookup(what: LookupKind, _scope: unknown, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const { client, lists } = this
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
      case 'noteTypes':
        return lists.outcomeList(call, true)
      // No setting of this kind takes a ticket source or category.
      case 'sources':
      case 'categories':
        return ok([])
      case 'statuses': {
        const statuses = await lists.statusList(call, true)
        return statuses.ok
          ? ok(statuses.value.map(({ id, name, closed }) => ({ id, name, closed })))
          : statuses
      }
    }
  }

  ticketUrl(ticketId: string): string | null {
    return haloTicketUrl(this.client.root, ticketId)
  }

  billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    return billingLines(this.client, companyId, call)
  }

  setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    return setQuantity(this.client, lineId, quantity, call)
  }
}

/**
 * `line` added to the text's closing paragraph where that is a short one (reference lines, which fitting
 * keeps when it cuts), else as a paragraph of its own.
 */
function withLine(text: string, line: string): string {
  const body = text.trimEnd()
  if (body === '') return line
  const at = body.lastIndexOf('\n\n')
  return body.length - at <= 300 ? `${body}\n${line}` : `${body}\n\n${line}`
}

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })
