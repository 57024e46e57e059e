// HaloPSA's side of two-way sync (docs/psa/halopsa.md, "Two-way sync"):
// - reading tickets back: GET /api/Tickets?ticketids=… (the swagger: "Returns only the tickets
//   specified"), 100 ids a call; an id the list leaves out is read alone (GET /api/Tickets/{id}: 404 →
//   deleted), and so is a listed ticket that is not open where the list leaves out merged_into_id
//   (which columns Halo's list carries is not documented). merged: merged_into_id set; closed: a status
//   Halo treats as closed (lists.ts); worked: time on the ticket (timetaken) or an action by anyone but
//   alertbridge's API application, from GET /api/Actions?ticket_id=… (one call a ticket: Halo lists
//   actions per ticket only); changedBy: the newest action's author (`who`).
// - reopening: an action with the note and, as new_status, the open status asked for or the ticket
//   type's initial_status (what a new ticket of its type gets); a retry looks for the marker first.
import type { Static } from 'typebox'
import { fail, type NoteCall, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import { byIdOrName } from '../core/names.js'
import { fitText } from '../core/text.js'
import { deletedRead, type PsaTicketRead, type ReopenRequest } from '../psa-sync-port.js'
import { action, isClosed } from './actions.js'
import { hasActionWith, readTicket } from './adopt.js'
import { firstOf, type HaloClient, type HaloItem, limits, listOf, psaName } from './client.js'
import { type HaloLists, type HaloStatus, idText } from './lists.js'
import type { HaloPsaSettings } from './settings.js'

type Settings = Static<typeof HaloPsaSettings>

/** Ids a list call names at most: Halo's page size limit (100), so one page answers them all. */
export const idsPerCall = 100
const hourMs = 60 * 60 * 1000

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })
const numeric = (id: string) => /^\d+$/.test(id)

export class HaloPsaSync {
  /** The agent the API application acts as (GET /api/Agent/me), asked only where an action does not
   * name the application it came through. */
  private readonly me = new CachedResult<string | null>(6 * hourMs)

  constructor(
    private readonly client: HaloClient,
    private readonly lists: HaloLists,
    private readonly s: Settings,
  ) {}

  async readTickets(ids: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    const bad = ids.find((id) => !numeric(id))
    if (bad !== undefined) return fail(refusal(`HaloPSA ticket ids are numbers, not '${bad}'`))
    const wanted = [...new Set(ids)]
    const tickets = new Map<string, HaloItem | null>()
    for (let i = 0; i < wanted.length; i += idsPerCall) {
      const chunk = wanted.slice(i, i + idsPerCall)
      const listed = await this.client.api('GET', '/Tickets', call, {
        query: { ticketids: chunk.join(','), pageinate: true, page_size: idsPerCall, page_no: 1 },
      })
      if (!listed.ok) return listed
      // A server that ignores ticketids answers other tickets: only the ones asked for count.
      for (const t of listOf(listed.value.body, 'tickets').list) {
        const id = idText(t.id)
        if (id !== null && chunk.includes(id)) tickets.set(id, t)
      }
    }
    const statuses = await this.lists.statusList(call)
    if (!statuses.ok) return statuses
    const reads: PsaTicketRead[] = []
    for (const id of wanted) {
      let t = tickets.get(id) ?? null
      if (t === null || (!('merged_into_id' in t) && !isOpen(t, statuses.value))) {
        const full = await readTicket(this.client, id, call)
        if (!full.ok && full.failure.kind !== 'not-found') return full
        t = full.ok ? full.value : null
      }
      if (t === null || t.deleted === true) {
        reads.push(deletedRead(id))
        continue
      }
      const work = await this.work(id, t, call)
      if (!work.ok) return work
      const mergedInto = idText(t.merged_into_id)
      const merged = mergedInto !== null && mergedInto !== '0'
      reads.push({
        ticketId: id,
        state: merged ? 'merged' : isClosed(t, statuses.value) ? 'closed' : 'open',
        statusName: statusName(t, statuses.value),
        mergedInto: merged ? mergedInto : null,
        ...work.value,
      })
    }
    const byId = new Map(reads.map((r) => [r.ticketId, r]))
    return ok(ids.flatMap((id) => byId.get(id) ?? []))
  }

  async reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    const { client } = this
    if (!numeric(ticketId)) return fail(refusal(`HaloPSA ticket ids are numbers, not '${ticketId}'`))
    const ticket = await readTicket(client, ticketId, call)
    if (!ticket.ok) return ticket
    const statuses = await this.lists.statusList(call)
    if (!statuses.ok) return statuses
    const target = await this.openStatus(ticket.value, reopen.openStatus, statuses.value, call)
    if (!target.ok) return target
    const closed = isClosed(ticket.value, statuses.value)
    // A retry after a lost answer: the note is there; only the status may be left to set.
    if (call.adopt && call.marker !== '') {
      const there = await hasActionWith(client, ticketId, call.marker, call)
      if (!there.ok) return there
      if (there.value) return closed ? this.setStatus(ticketId, target.value.id, call) : ok(null)
    }
    const text =
      call.marker === '' || reopen.note.includes(call.marker)
        ? reopen.note
        : `${reopen.note}\n\nMessage ID: ${call.marker}`
    // A ticket open already (a technician reopened it) gets the note without a status change.
    const noted = await client.api('POST', '/Actions', call, {
      body: [
        {
          ...action(this.s, ticketId, fitText(text, limits.note, psaName)),
          ...(closed ? { new_status: Number(target.value.id) } : {}),
        },
      ],
    })
    if (!noted.ok || !closed) return noted.ok ? ok(null) : noted
    // Where the action did not move the status (new_status not honoured), the ticket is updated.
    const after = await readTicket(client, ticketId, call)
    if (!after.ok) return after
    return isClosed(after.value, statuses.value) ? this.setStatus(ticketId, target.value.id, call) : ok(null)
  }

  /** The open status named, or the ticket type's initial_status, or the first open status. */
  private async openStatus(
    ticket: HaloItem,
    named: string | null,
    statuses: HaloStatus[],
    call: PsaCall,
  ): Promise<PsaResult<HaloStatus>> {
    if (named !== null) {
      const found = byIdOrName(statuses, named)
      if (!found) return fail(refusal(`HaloPSA has no status '${named}'`))
      if (found.closed) return fail(refusal(`HaloPSA's status '${found.name}' is a closed status`))
      return ok(found)
    }
    const typeId = idText(ticket.tickettype_id)
    if (typeId !== null) {
      const type = await this.client.api('GET', `/TicketType/${typeId}`, call)
      if (!type.ok && type.failure.kind !== 'not-found') return type
      const initial = type.ok ? idText(firstOf(type.value.body, 'tickettypes')?.initial_status) : null
      const status = statuses.find((s) => s.id === initial && !s.closed)
      if (status) return ok(status)
    }
    const open = statuses.filter((s) => !s.closed).sort((a, b) => a.sequence - b.sequence)
    return open[0] ? ok(open[0]) : fail(refusal('HaloPSA lists no open status'))
  }

  private async setStatus(ticketId: string, statusId: string, call: PsaCall): Promise<PsaResult<null>> {
    const updated = await this.client.api('POST', '/Tickets', call, {
      body: [{ id: Number(ticketId), status_id: Number(statusId) }],
    })
    return updated.ok ? ok(null) : updated
  }

  /** worked and changedBy, from the ticket's time and its actions (system actions left out). */
  private async work(
    id: string,
    t: HaloItem,
    call: PsaCall,
  ): Promise<PsaResult<{ worked: boolean; changedBy: string | null }>> {
    const res = await this.client.api('GET', '/Actions', call, {
      query: { ticket_id: id, excludesys: true },
    })
    if (!res.ok) return res
    const actions = listOf(res.value.body, 'actions').list
    let worked = Number(t.timetaken) > 0
    for (const a of actions) {
      if (worked) break
      const ours = await this.isOurs(a, call)
      if (!ours.ok) return ours
      worked = !ours.value || Number(a.timetaken) > 0
    }
    const newest = actions.reduce<HaloItem | null>(
      (n, a) => (n === null || stamp(a) >= stamp(n) ? a : n),
      null,
    )
    const who = newest?.who
    return ok({ worked, changedBy: typeof who === 'string' && who.trim() !== '' ? who.trim() : null })
  }

  /** Written by alertbridge: through its API application (actionby_application_id is our client id),
   * or, where the action does not say, by the agent the application acts as. */
  private async isOurs(a: HaloItem, call: PsaCall): Promise<PsaResult<boolean>> {
    const app = a.actionby_application_id
    if (typeof app === 'string' && app.trim() !== '')
      return ok(app.trim().toLowerCase() === this.s.clientId.trim().toLowerCase())
    const me = await this.me.get(async (c) => {
      const res = await this.client.api('GET', '/Agent/me', c)
      return res.ok ? ok(idText(firstOf(res.value.body, 'agents')?.id)) : res
    }, call)
    if (!me.ok) return me
    return ok(me.value !== null && idText(a.who_agentid ?? a.actionby_agent_id) === me.value)
  }
}

/** The status as Halo names it: the ticket's status_name, else the status list's name. */
function statusName(t: HaloItem, statuses: HaloStatus[]): string | null {
  if (typeof t.status_name === 'string' && t.status_name.trim() !== '') return t.status_name.trim()
  return statuses.find((s) => s.id === idText(t.status_id))?.name ?? null
}

const isOpen = (t: HaloItem, statuses: HaloStatus[]) => !isClosed(t, statuses)

/** An action's order: its date, then its id. */
function stamp(a: HaloItem): string {
  const at = typeof a.datetime === 'string' ? Date.parse(a.datetime) : Number.NaN
  const id = Number(idText(a.id) ?? 0)
  return `${String(Number.isFinite(at) ? at : 0).padStart(15, '0')}:${String(id).padStart(12, '0')}`
}
