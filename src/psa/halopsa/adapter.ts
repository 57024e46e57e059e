// HaloPSA (also HaloITSM / HaloServiceDesk), as its published API describes it (docs/psa/halopsa.md):
// tickets posted to /api/Tickets as an array of one (the answer is the ticket, or an array of it), our
// reference in third_party_id_string (read back to adopt a ticket a lost answer made: adopt.ts finds it
// among the client's tickets of the last day, newest first), the team given by name, notes as hidden
// actions at /api/Actions (a retry looks for the alert's marker among the ticket's actions first), and
// closing with an action whose new_status is the status Halo treats as closed (see lists.ts: never a
// status picked by its name). Texts are fitted to the limits below. Usage counts set the quantity of a
// recurring invoice line (billing.ts).
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
import type { PsaKindOptions } from '../core/http.js'
import { ConnectionLimiter } from '../core/limiter.js'
import { byIdOrName, externalRef } from '../core/names.js'
import { fitText, fitTicket } from '../core/text.js'
import { haloTicketUrl } from '../core/ticket-urls.js'
import { type PsaKindEntry, psaKind } from '../registry.js'
import { findTicket, hasActionWith, readTicket } from './adopt.js'
import { billingLines, setQuantity } from './billing.js'
import { firstOf, HaloClient, type HaloItem } from './client.js'
import { closingStatus, HaloLists, type HaloStatus, idText, nameOf } from './lists.js'
import { HaloPsaSettings, haloPsaSecrets } from './settings.js'
import { connectionTest } from './test.js'

type Settings = Static<typeof HaloPsaSettings>
type Conn = PsaConnection<Settings>

const psaName = 'HaloPSA'
/**
 * Halo documents no lengths (its swagger gives none for Faults.summary, Faults.details or Actions.note,
 * while it does for other schemas' fields). The summary is kept to 250 characters: it is a one-line
 * subject shown in lists and e-mail subjects, and 255 is the width such short texts are believed to
 * have (a guess). Details and notes are capped at 100,000 characters (a guess as well: enough for any
 * alert, and a bounded request).
 */
export const limits = { title: 250, description: 100_000, note: 100_000 }
/** Our reference in third_party_id_string: Halo documents no length; 64 fits every reference we make. */
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

  async appendNote(conn: Conn, ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    if (!/^\d+$/.test(ticketId)) return fail(refusal(`HaloPSA ticket ids are numbers, not '${ticketId}'`))
    const { client } = this.pool.of(conn)
    // A retry after a lost answer: the note is there already if an action carries the marker.
    if (call.adopt && call.marker !== '') {
      const there = await hasActionWith(client, ticketId, call.marker, call)
      if (!there.ok) return there
      if (there.value) return ok(null)
    }
    const res = await client.api('POST', '/Actions', call, {
      body: [action(conn.settings, ticketId, fitText(note, limits.note, psaName))],
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
    const ticket = await readTicket(client, ticketId, call)
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
    // A retry: an action with the marker is the earlier attempt's resolution note, and the ticket is
    // still open, so only the status is left to set.
    if (call.adopt && call.marker !== '') {
      const there = await hasActionWith(client, ticketId, call.marker, call)
      if (!there.ok) return there
      if (there.value) return this.setStatus(client, ticketId, target.id, call)
    }
    // The resolution and the status in one action, which Halo's audit shows as the closing note.
    const noted = await client.api('POST', '/Actions', call, {
      body: [
        {
          ...action(conn.settings, ticketId, fitText(close.note, limits.note, psaName)),
          new_status: Number(target.id),
        },
      ],
    })
    if (!noted.ok) return noted
    // Where the action did not move the status (new_status not honoured), the ticket is updated.
    const after = await readTicket(client, ticketId, call)
    if (!after.ok) return after
    if (idText(after.value.status_id) === target.id) return ok({ alreadyClosed: false })
    return this.setStatus(client, ticketId, target.id, call)
  }

  private async setStatus(
    client: HaloClient,
    ticketId: string,
    statusId: string,
    call: PsaCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    const updated = await client.api('POST', '/Tickets', call, {
      body: [{ id: Number(ticketId), status_id: Number(statusId) }],
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
