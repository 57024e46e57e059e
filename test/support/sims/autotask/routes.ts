// The REST routes under `{zone root}V1.0/`, matched case-insensitively, for Tickets (with their Notes
// child collection), TicketNotes and Companies, and for billing: Contracts (with their Services and
// ServiceAdjustments children), Services, ContractServices and ContractServiceUnits (query and read
// only) and ContractServiceAdjustments (create only: no query, no read; see billing.ts). What is not an Autotask route answers the way ASP.NET
// Web API does (404 for an unknown URI, 405 for a method the route lacks), with the body in Autotask's
// error shape. Notably: PATCH/PUT go to the entity root with the id in the body (`PATCH /Tickets/{id}`
// is 405), notes are created only through `POST /Tickets/{id}/Notes` (`POST /TicketNotes` is 404), a
// page after the first of a POST query is fetched by POSTing the same query body to `nextPageUrl`
// (a GET there is 405), while a GET query's `nextPageUrl` carries its `search` and is followed by GET.
import { createAdjustment } from './billing.js'
import {
  MAX_RECORDS,
  type PageToken,
  pageOf,
  parseQuery,
  parseToken,
  project,
  type Query,
  select,
} from './query.js'
import { entityName, fieldSpecs } from './seed.js'
import { webhookTicketFields } from './sync-seed.js'
import { createNote, createTicket, lengthIn, requiredIn, updateTicket } from './tickets.js'
import type { AutotaskState } from './types.js'

export interface ApiRequest {
  method: string
  /** Path segments after "V1.0/", as sent. */
  segments: string[]
  params: URLSearchParams
  body: unknown
  /** The absolute REST root the call came in on, ending in "ATServicesRest/". */
  root: string
  /** The path as sent, for error texts. */
  path: string
}

export interface ApiAnswer {
  status: number
  body: unknown
}

const ok = (body: unknown): ApiAnswer => ({ status: 200, body })
export const errors = (status: number, ...messages: string[]): ApiAnswer => ({
  status,
  body: { errors: messages },
})
const notFound = (r: ApiRequest) =>
  errors(
    404,
    `No HTTP resource was found that matches the request URI '${r.root}V1.0/${r.segments.join('/')}'.`,
  )
const notAllowed = (r: ApiRequest) =>
  errors(405, `The requested resource does not support http method '${r.method}'.`)

/** Every entity a call touches (a child collection counts as its own entity), for permissions. */
export function entitiesOf(segments: string[]): string[] {
  const [first = '', , child = ''] = segments
  const entities = [entityName(first) ?? first]
  const parent = first.toLowerCase()
  const sub = child.toLowerCase()
  if (parent === 'tickets' && sub === 'notes') entities.push('TicketNotes')
  if (parent === 'contracts' && sub === 'services') entities.push('ContractServices')
  if (parent === 'contracts' && sub === 'serviceadjustments') entities.push('ContractServiceAdjustments')
  return entities
}

function itemsOf(state: AutotaskState, entity: string): object[] {
  if (entity === 'Tickets') return state.tickets
  if (entity === 'TicketNotes') return Object.values(state.notes).flat()
  if (entity === 'Contracts') return state.contracts
  if (entity === 'Services') return state.services
  if (entity === 'ContractServices') return state.contractServices
  if (entity === 'ContractServiceUnits') return state.contractServiceUnits
  if (entity === 'ContractServiceAdjustments') return []
  if (entity === 'Resources') return state.resources
  if (entity === 'TimeEntries') return state.timeEntries
  if (entity === 'TicketWebhooks') return state.ticketWebhooks
  if (entity === 'TicketWebhookFields') return state.ticketWebhookFields
  if (entity === 'TicketWebhookExcludedResources') return state.ticketWebhookExcludedResources
  return state.companies
}

/** Contracts/{id}/Services (read) and Contracts/{id}/ServiceAdjustments (create only). */
function contractChildren(
  r: ApiRequest,
  state: AutotaskState,
  contractId: number,
  rest: string[],
): ApiAnswer {
  const [child = '', ...more] = rest
  if (more.length > 0) return notFound(r)
  if (child.toLowerCase() === 'serviceadjustments')
    return r.method === 'POST' ? written(createAdjustment(state, r.body, contractId)) : notAllowed(r)
  if (child.toLowerCase() !== 'services') return notFound(r)
  if (r.method !== 'GET') return notAllowed(r)
  const page = state.contractServices.filter((s) => s.contractID === contractId).slice(0, MAX_RECORDS)
  return ok({
    items: page,
    pageDetails: { count: page.length, requestCount: MAX_RECORDS, prevPageUrl: null, nextPageUrl: null },
  })
}

function fields(state: AutotaskState, entity: string) {
  return (fieldSpecs[entity] ?? []).map((s) => ({
    name: s.name,
    dataType: s.dataType,
    length: lengthIn(state, entity, s) ?? 0,
    isRequired: !!s.required || requiredIn(state, entity, s.name),
    isReadOnly: !!s.readOnly,
    isQueryable: !state.rules.unqueryable.includes(`${entity}.${s.name}`),
    isReference: !!s.reference,
    referenceEntityType: s.reference ?? '',
    isPickList: !!s.picklist,
    picklistValues: s.picklist ? (state.picklists[entity]?.[s.name] ?? []) : null,
    picklistParentValueField: s.parentField ?? '',
    isSupportedWebhookField: entity === 'Tickets' && webhookTicketFields.some(([, , n]) => n === s.name),
  }))
}

function entityInformation(r: ApiRequest, state: AutotaskState, entity: string, rest: string[]): ApiAnswer {
  if (r.method !== 'GET') return notAllowed(r)
  const what = rest.join('/').toLowerCase()
  if (what === '') {
    const info = { name: entity, canCreate: true, canUpdate: true, canDelete: false, canQuery: true }
    return ok({
      info: { ...info, hasUserDefinedFields: entity !== 'TicketNotes', supportsWebhookCallouts: true },
    })
  }
  if (what === 'fields') return ok({ fields: fields(state, entity) })
  if (what === 'userdefinedfields') return ok({ fields: [] })
  return notFound(r)
}

/** The query a call carries: its body (POST) or its `search` parameter (GET). */
function queryOf(r: ApiRequest, state: AutotaskState, entity: string) {
  const unqueryable = state.rules.unqueryable
    .filter((f) => f.toLowerCase().startsWith(`${entity.toLowerCase()}.`))
    .map((f) => f.slice(entity.length + 1))
  if (r.method === 'POST') return parseQuery(entity, r.body, unqueryable)
  const search = r.params.get('search')
  let parsed: unknown
  try {
    parsed = search === null ? undefined : JSON.parse(search)
  } catch {
    return { ok: false as const, status: 500, message: 'The search parameter is not valid JSON.' }
  }
  return parseQuery(entity, parsed, unqueryable)
}

function pageUrl(
  r: ApiRequest,
  entity: string,
  way: 'next' | 'previous',
  token: PageToken | null,
): string | null {
  if (!token) return null
  const search = r.method === 'GET' ? r.params.get('search') : null
  const tail = search === null ? '' : `&search=${encodeURIComponent(search)}`
  return `${r.root}V1.0/${entity}/query/${way}?paging=${encodeURIComponent(JSON.stringify(token))}${tail}`
}

function runQuery(r: ApiRequest, state: AutotaskState, entity: string, rest: string[]): ApiAnswer {
  if (r.method !== 'POST' && r.method !== 'GET') return notAllowed(r)
  const sub = rest.join('/').toLowerCase()
  const paged = sub === 'next' || sub === 'previous'
  if (sub !== '' && sub !== 'count' && !paged) return notFound(r)
  // ASP.NET selects the GET action of a next/previous page by its `search` parameter: without it, 405.
  if (paged && r.method === 'GET' && r.params.get('search') === null) return notAllowed(r)
  const parsed = queryOf(r, state, entity)
  if (!parsed.ok) return errors(parsed.status, parsed.message)
  const q: Query = parsed.value
  const matched = select(itemsOf(state, entity), q)
  if (sub === 'count') return ok({ queryCount: matched.length })
  const includesId = q.includeFields?.some((n) => n.toLowerCase() === 'id') ?? true
  if (!includesId && matched.length > MAX_RECORDS) {
    return errors(500, 'A query that returns more than 500 records must include id in IncludeFields.')
  }
  let token: PageToken | null = null
  if (paged) {
    token = parseToken(r.params.get('paging') ?? undefined)
    if (!token) return errors(500, 'The paging parameter is missing or not valid.')
  }
  const page = pageOf(matched, token?.pageSize ?? q.maxRecords, token)
  return ok({
    items: page.items.map((item) => project(entity, item, q.includeFields)),
    pageDetails: {
      count: page.items.length,
      requestCount: token?.pageSize ?? q.maxRecords,
      prevPageUrl: pageUrl(r, entity, 'previous', page.previous),
      nextPageUrl: pageUrl(r, entity, 'next', page.next),
    },
  })
}

function written(outcome: { ok: true; value: number } | { ok: false; status: number; errors: string[] }) {
  return outcome.ok ? ok({ itemId: outcome.value }) : errors(outcome.status, ...outcome.errors)
}

function ticketNotes(r: ApiRequest, state: AutotaskState, ticketId: number, rest: string[]): ApiAnswer {
  const notes = state.notes[String(ticketId)] ?? []
  if (rest.length === 0) {
    if (r.method === 'POST') return written(createNote(state, ticketId, r.body))
    if (r.method !== 'GET') return notAllowed(r)
    const page = notes.slice(0, MAX_RECORDS)
    return ok({
      items: page,
      pageDetails: { count: page.length, requestCount: MAX_RECORDS, prevPageUrl: null, nextPageUrl: null },
    })
  }
  if (rest.length === 1 && /^\d+$/.test(rest[0] ?? '')) {
    if (r.method !== 'GET') return notAllowed(r)
    return ok({ item: notes.find((n) => n.id === Number(rest[0])) ?? null })
  }
  return notFound(r)
}

export function routeApi(r: ApiRequest, state: AutotaskState): ApiAnswer {
  const [first = '', second, ...rest] = r.segments
  if (first.toLowerCase() === 'thresholdinformation' && second === undefined) {
    if (r.method !== 'GET') return notAllowed(r)
    const { externalRequestThreshold, requestThresholdTimeframe, presetCount, requestTimes } = state.usage
    const currentTimeframeRequestCount = presetCount + requestTimes.length
    return ok({ externalRequestThreshold, requestThresholdTimeframe, currentTimeframeRequestCount })
  }
  const entity = entityName(first)
  if (!entity) return notFound(r)
  if (second === undefined) {
    if (entity === 'Tickets' && r.method === 'POST') return written(createTicket(state, r.body))
    if (entity === 'Tickets' && (r.method === 'PATCH' || r.method === 'PUT')) {
      return written(updateTicket(state, r.body, r.method === 'PUT'))
    }
    if (entity === 'ContractServiceAdjustments')
      return r.method === 'POST' ? written(createAdjustment(state, r.body)) : notAllowed(r)
    return entity === 'TicketNotes' && r.method !== 'GET' ? notFound(r) : notAllowed(r)
  }
  const lower = second.toLowerCase()
  if (lower === 'entityinformation') return entityInformation(r, state, entity, rest)
  // Adjustments are written, never read: Autotask has no query or read route for them.
  if (entity === 'ContractServiceAdjustments') return notFound(r)
  if (lower === 'query') return runQuery(r, state, entity, rest)
  if (!/^\d+$/.test(second)) return notFound(r)
  const id = Number(second)
  if (entity === 'Tickets' && rest[0]?.toLowerCase() === 'notes')
    return ticketNotes(r, state, id, rest.slice(1))
  if (entity === 'Contracts' && rest.length > 0) return contractChildren(r, state, id, rest)
  if (rest.length > 0) return notFound(r)
  if (r.method !== 'GET') return notAllowed(r)
  // An id that does not exist (or that the API user may not see) is not an error: the item is null.
  return ok({ item: itemsOf(state, entity).find((i) => (i as { id: number }).id === id) ?? null })
}
