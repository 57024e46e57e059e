// The simulator's tickets (its actions are in actions.ts). GET /api/Tickets applies only query
// parameters Halo's published API lists (ticketids, client_id, status_id, open_only/closed_only,
// search/search_summary/search_details, datesearch with startdate/enddate, order/orderdesc, paging): any
// other one (third_party_id_string, say) is ignored, as Halo ignores what it does not know. POST
// /api/Tickets takes an array of Faults: without id a create (summary and client required, the team by
// name, the type's own mandatory fields, every id checked), with id an update (a new client_id must
// exist and come with a site of that client). A ticket in a closed status has hasbeenclosed and
// dateclosed.
import {
  type Answer,
  type ApiRequest,
  answer,
  flag,
  intParam,
  num,
  oneOrMany,
  paged,
  param,
  records,
  refuse,
} from './answers.js'
import type { HaloState, HaloTicket } from './types.js'

/** The summary's limit (a guess: Halo documents none; 255 is the width of its short text columns). */
export const summaryMax = 255
/**
 * Details and action notes: Halo documents no limit (its swagger gives maxLength on other schemas, none
 * on Faults.details or Actions.note). The simulator refuses beyond 100,000 characters, the adapter's own
 * cap (a guess), so that a test shows the adapter fits what it sends.
 */
export const textMax = 100_000

export function ticketRoutes(req: ApiRequest, state: HaloState): Answer | null {
  const [resource, id, more] = req.segments
  if (resource === 'tickets' && more === undefined) {
    if (req.method === 'GET' && id === undefined) return listTickets(req.params, state)
    if (req.method === 'GET' && id !== undefined) {
      const t = state.tickets.find((x) => String(x.id) === id)
      return t ? answer(t) : refuse(404, `Ticket ${id} not found`)
    }
    if (req.method === 'POST' && id === undefined) return postTickets(req.body, state)
  }
  return null
}

function listTickets(params: URLSearchParams, state: HaloState): Answer {
  const clientId = intParam(params, 'client_id')
  const statusId = intParam(params, 'status_id')
  const dates = dateWindow(params, ticketDateFields)
  if (typeof dates === 'string') return refuse(400, dates)
  const contains = (text: string, name: string) => {
    const v = param(params, name)?.toLowerCase()
    return !v || text.toLowerCase().includes(v)
  }
  const closed = (t: HaloTicket) => state.closedStatusIds.includes(t.status_id)
  // ticketids: "Returns only the tickets specified" (the swagger), a comma-separated list of ids.
  const ids = param(params, 'ticketids')
    ?.split(',')
    .map((x) => x.trim())
  const found = state.tickets.filter(
    (t) =>
      (!ids || ids.includes(String(t.id))) &&
      (clientId === null || t.client_id === clientId) &&
      (statusId === null || t.status_id === statusId) &&
      !(flag(params, 'open_only') && closed(t)) &&
      !(flag(params, 'closed_only') && !closed(t)) &&
      contains(`${t.id} ${t.summary} ${t.details}`, 'search') &&
      contains(t.summary, 'search_summary') &&
      contains(t.details, 'search_details') &&
      (dates === null || dates.holds(t as unknown as Record<string, unknown>)),
  )
  const listed = state.briefTicketLists
    ? found.map(({ third_party_id_string: _ref, details: _d, ...brief }) => brief)
    : found
  return paged(ordered(listed, params), params, 'tickets')
}

/** `datesearch`'s values as Halo's swagger gives them (its own spelling), and the fields they mean. */
const ticketDateFields: Record<string, string> = { dateoccured: 'dateoccurred', datecleared: 'dateclosed' }

/**
 * The date window of `datesearch` (a field Halo names) with `startdate`/`enddate`; for actions, the
 * action's date. An unknown field applies none; a date that is not one is refused.
 */
export function dateWindow(
  params: URLSearchParams,
  fields: Record<string, string> | string,
): { holds(r: Record<string, unknown>): boolean } | null | string {
  const field = typeof fields === 'string' ? fields : fields[param(params, 'datesearch')?.toLowerCase() ?? '']
  if (!field) return null
  const bound = (name: string) => {
    const v = param(params, name)
    if (v === null || v === '') return null
    const at = Date.parse(v)
    return Number.isFinite(at) ? at : `'${v}' is not a valid ${name}.`
  }
  const start = bound('startdate')
  const end = bound('enddate')
  if (typeof start === 'string') return start
  if (typeof end === 'string') return end
  if (start === null && end === null) return null
  return {
    holds: (r) => {
      const v = r[field]
      const at = typeof v === 'string' ? Date.parse(v) : Number.NaN
      return Number.isFinite(at) && (start === null || at >= start) && (end === null || at <= end)
    },
  }
}

/** Ordered by `order` (a field of the records) and `orderdesc`; without a known field, by id, oldest
 * first (Halo's default order is not documented). */
function ordered<T extends { id: number }>(items: T[], params: URLSearchParams): T[] {
  const field = param(params, 'order')?.toLowerCase()
  const known = field !== undefined && items.some((t) => field in t)
  const key = known ? field : 'id'
  const desc = known && flag(params, 'orderdesc')
  const value = (t: T) => (t as unknown as Record<string, unknown>)[key]
  const sorted = [...items].sort((a, b) => {
    const x = value(a)
    const y = value(b)
    const c =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''))
    return c !== 0 ? c : a.id - b.id
  })
  return desc ? sorted.reverse() : sorted
}

function postTickets(body: unknown, state: HaloState): Answer {
  const posted = records(body)
  if (!posted || posted.length === 0) return refuse(400, 'The request body must be an array of tickets.')
  const checked: (() => HaloTicket)[] = []
  for (const r of posted) {
    const made =
      r.id === undefined || r.id === null || r.id === 0 ? checkNew(r, state) : checkUpdate(r, state)
    if (typeof made === 'string') return refuse(400, made)
    checked.push(made)
  }
  return oneOrMany(checked.map((apply) => apply()))
}

/** A new ticket's problems as Halo's text, or the function that makes it. */
function checkNew(r: Record<string, unknown>, state: HaloState): string | (() => HaloTicket) {
  const summary = typeof r.summary === 'string' ? r.summary.trim() : ''
  if (summary === '') return 'Please enter a Summary.'
  if (summary.length > summaryMax) return `Summary cannot be longer than ${summaryMax} characters.`
  if (typeof r.details === 'string' && r.details.length > textMax)
    return `Details cannot be longer than ${textMax} characters.`
  const client = state.clients.find((c) => c.id === num(r.client_id))
  if (!client) return `Client ${String(r.client_id)} does not exist.`
  const typeId = num(r.tickettype_id) ?? 1
  const type = state.ticketTypes.find((t) => t.id === typeId && !t.inactive)
  if (!type) return `Ticket Type ${typeId} does not exist.`
  for (const field of type.required) {
    const v = r[field]
    if (typeof v !== 'string' || v.trim() === '')
      return `The field '${field}' is mandatory for tickets of type ${type.name}.`
  }
  const checked = checkFields(r, state)
  if (typeof checked === 'string') return checked
  return () => {
    const now = new Date().toISOString()
    const ticket: HaloTicket = {
      id: state.nextId.ticket++,
      summary,
      details: typeof r.details === 'string' ? r.details : '',
      client_id: client.id,
      client_name: client.name,
      site_id: client.main_site_id,
      tickettype_id: type.id,
      status_id: type.initial_status,
      priority_id: 3,
      team: '',
      agent_id: 0,
      third_party_id_string: typeof r.third_party_id_string === 'string' ? r.third_party_id_string : null,
      hasbeenclosed: false,
      dateoccurred: now,
      dateclosed: null,
    }
    Object.assign(ticket, checked)
    setStatus(ticket, ticket.status_id, state)
    state.tickets.push(ticket)
    return ticket
  }
}

function checkUpdate(r: Record<string, unknown>, state: HaloState): string | (() => HaloTicket) {
  const ticket = state.tickets.find((t) => t.id === num(r.id))
  if (!ticket) return `Ticket ${String(r.id)} does not exist.`
  const checked = checkFields(r, state)
  if (typeof checked === 'string') return checked
  const moved = checkClient(r, ticket, state)
  if (typeof moved === 'string') return moved
  return () => {
    const { status_id: status, ...rest } = checked
    Object.assign(ticket, rest, moved)
    if (typeof r.summary === 'string') ticket.summary = r.summary
    if (status !== undefined) setStatus(ticket, status, state)
    return ticket
  }
}

/**
 * An update's client and site: the client must exist, and the ticket's site (the one sent, else the one
 * it has) must be the client's; each client here has one site, its main one. So a move to another
 * client that sends no site_id is refused, as the old client's site is not the new one's.
 */
function checkClient(
  r: Record<string, unknown>,
  t: HaloTicket,
  state: HaloState,
): string | Partial<HaloTicket> {
  if (r.client_id === undefined && r.site_id === undefined) return {}
  const clientId = r.client_id === undefined ? t.client_id : num(r.client_id)
  const client = state.clients.find((c) => c.id === clientId)
  if (!client) return `Client ${String(r.client_id)} does not exist.`
  const siteId = r.site_id === undefined ? t.site_id : num(r.site_id)
  if (siteId !== client.main_site_id) return `Site ${String(siteId)} does not belong to Client ${client.id}.`
  return { client_id: client.id, client_name: client.name, site_id: siteId }
}

/** The optional fields a ticket post may set, each checked against the instance's lists. */
function checkFields(r: Record<string, unknown>, state: HaloState): string | Partial<HaloTicket> {
  const fields: Partial<HaloTicket> = {}
  if (r.status_id !== undefined) {
    const id = num(r.status_id)
    if (!state.statuses.some((s) => s.id === id)) return `Status ${String(r.status_id)} does not exist.`
    fields.status_id = id ?? 0
  }
  if (r.priority_id !== undefined) {
    const id = num(r.priority_id)
    if (!state.priorities.some((p) => p.priorityid === id))
      return `Priority ${String(r.priority_id)} does not exist.`
    fields.priority_id = id ?? 0
  }
  if (r.team !== undefined && r.team !== '') {
    const team = state.teams.find(
      (t) => typeof r.team === 'string' && t.name.toLowerCase() === r.team.toLowerCase() && !t.inactive,
    )
    if (!team) return `Team '${String(r.team)}' does not exist.`
    fields.team = team.name
  }
  return fields
}

export function setStatus(ticket: HaloTicket, statusId: number, state: HaloState): void {
  ticket.status_id = statusId
  if (state.closedStatusIds.includes(statusId)) {
    ticket.hasbeenclosed = true
    ticket.dateclosed ??= new Date().toISOString()
  } else {
    ticket.dateclosed = null
  }
}
