// The simulated NinjaOne's ticketing routes, as its Public API v2 spec describes them:
//   POST /v2/ticketing/ticket                      NewTicket: clientId, ticketFormId, subject (≤ 200), status (an id string) required
//   GET  /v2/ticketing/ticket/{id}                 TicketDTO (status as {statusId, name, displayName, parentId}); 404 when deleted
//   PUT  /v2/ticketing/ticket/{id}                 UpdateTicket: `version` must be the current one (409 otherwise); partial bodies taken
//   POST /v2/ticketing/ticket/{id}/comment         multipart, part `comment` = JSON {public, body, timeTracked?}; 200 {}
//   GET  /v2/ticketing/ticket/{id}/log-entry       ?type=&pageSize=&anchorId= newest first
//   POST /v2/ticketing/trigger/board/{id}/run      {searchCriteria, pageSize, lastCursorId, sortBy}: {data, metadata}
//   GET  /v2/ticketing/statuses | ticket-form | trigger/boards, GET /v2/organizations?pageSize=&after=
// A comment raises the ticket's version as a save does (a guess). Writes need a user's token.
import type { NinjaLogEntry, NinjaState, NinjaTicket } from './types.js'
import { apiUserId } from './types.js'

export interface Answer {
  status: number
  body: unknown
}

export interface ApiRequest {
  method: string
  segments: string[]
  params: URLSearchParams
  body: unknown
  /** The token stands for a user (not a machine-to-machine application). */
  user: boolean
}

export const refuse = (status: number, errorMessage: string, resultCode = 'FAILURE'): Answer => ({
  status,
  body: { resultCode, errorMessage, incidentId: `inc-${Date.now().toString(36)}` },
})

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}

export function ticketDto(state: NinjaState, t: NinjaTicket) {
  const s = state.statuses.find((x) => x.statusId === t.statusId)
  const { log: _log, statusId: _s, ...rest } = t
  return {
    ...rest,
    status: s ?? { statusId: t.statusId, name: 'UNKNOWN', displayName: 'Unknown', parentId: null },
    source: 'TECHNICIAN',
  }
}

export function addLog(state: NinjaState, t: NinjaTicket, e: Omit<NinjaLogEntry, 'id' | 'createTime'>) {
  t.log.push({ ...e, id: state.nextId.log++, createTime: Date.now() / 1000 })
  t.version++
  t.lastUpdated = Date.now() / 1000
}

const denyMachine = (r: ApiRequest): Answer | null =>
  r.user ? null : refuse(403, 'This action requires a user context.', 'user_context_required')

export function ticketRoutes(r: ApiRequest, state: NinjaState): Answer | null {
  const [a, b, c, d, e] = r.segments
  if (a === 'organizations' && b === undefined && r.method === 'GET') {
    const size = Math.min(Number(r.params.get('pageSize') ?? 1000) || 1000, 1000)
    const after = Number(r.params.get('after') ?? 0) || 0
    return { status: 200, body: state.organizations.filter((o) => o.id > after).slice(0, size) }
  }
  if (a !== 'ticketing') return null
  if (r.method === 'GET' && b === 'statuses' && c === undefined) return { status: 200, body: state.statuses }
  if (r.method === 'GET' && b === 'ticket-form' && c === undefined) return { status: 200, body: state.forms }
  if (r.method === 'GET' && b === 'trigger' && c === 'boards')
    return denyMachine(r) ?? { status: 200, body: state.boards }
  if (r.method === 'POST' && b === 'trigger' && c === 'board' && e === 'run') return runBoard(r, state, d)
  if (b !== 'ticket') return null
  if (c === undefined && r.method === 'POST') return denyMachine(r) ?? create(r, state)
  const t = state.tickets.find((x) => String(x.id) === c && !x.deleted)
  if (!t) return refuse(404, `Ticket ${c} not found`, 'NOT_FOUND')
  if (d === undefined && r.method === 'GET') return { status: 200, body: ticketDto(state, t) }
  if (d === undefined && r.method === 'PUT') return denyMachine(r) ?? update(r, state, t)
  if (d === 'comment' && r.method === 'POST') return denyMachine(r) ?? comment(r, state, t)
  if (d === 'log-entry' && r.method === 'GET') {
    const type = r.params.get('type')
    const size = Math.min(Number(r.params.get('pageSize') ?? 50) || 50, 1000)
    const anchor = Number(r.params.get('anchorId') ?? 0) || null
    const entries = [...t.log]
      .reverse()
      .filter((x) => (!type || x.type === type) && (anchor === null || x.id < anchor))
    return { status: 200, body: entries.slice(0, size) }
  }
  return null
}

function create(r: ApiRequest, state: NinjaState): Answer {
  const b = record(r.body)
  const problems: string[] = []
  const org = state.organizations.find((o) => o.id === b.clientId)
  if (!org) problems.push('clientId: unknown organization')
  if (!state.forms.some((f) => f.id === b.ticketFormId)) problems.push('ticketFormId: unknown ticket form')
  if (typeof b.subject !== 'string' || b.subject.trim() === '') problems.push('subject is required')
  else if (b.subject.length > 200) problems.push('subject: size must be between 0 and 200')
  if (typeof b.status !== 'string') problems.push('status is required (a status id as a string)')
  else if (!state.statuses.some((s) => String(s.statusId) === b.status)) problems.push('status: unknown')
  const desc = b.description === undefined ? null : record(b.description)
  if (desc && typeof desc.public !== 'boolean') problems.push('description.public is required')
  for (const [field, values] of [
    ['priority', ['NONE', 'LOW', 'MEDIUM', 'HIGH']],
    ['severity', ['NONE', 'MINOR', 'MODERATE', 'MAJOR', 'CRITICAL']],
    ['type', ['PROBLEM', 'QUESTION', 'INCIDENT', 'TASK']],
  ] as const)
    if (b[field] !== undefined && !(values as readonly unknown[]).includes(b[field]))
      problems.push(`${field}: must be one of ${values.join(', ')}`)
  if (problems.length > 0) return refuse(400, problems.join('; '), 'VALIDATION_ERROR')
  const t: NinjaTicket = {
    id: state.nextId.ticket++,
    version: 1,
    clientId: Number(b.clientId),
    ticketFormId: Number(b.ticketFormId),
    subject: String(b.subject),
    statusId: Number(b.status),
    type: typeof b.type === 'string' ? b.type : null,
    priority: typeof b.priority === 'string' ? b.priority : 'NONE',
    severity: typeof b.severity === 'string' ? b.severity : 'NONE',
    tags: Array.isArray(b.tags) ? b.tags.map(String) : [],
    createTime: Date.now() / 1000,
    lastUpdated: Date.now() / 1000,
    deleted: false,
    requesterUid: null,
    totalTimeTracked: 0,
    log: [],
  }
  if (desc)
    t.log.push({
      id: state.nextId.log++,
      type: 'DESCRIPTION',
      body: String(desc.body ?? ''),
      publicEntry: desc.public === true,
      system: false,
      createTime: t.createTime,
      timeTracked: 0,
      appUserContactId: apiUserId,
    })
  state.tickets.push(t)
  return { status: 200, body: ticketDto(state, t) }
}

function update(r: ApiRequest, state: NinjaState, t: NinjaTicket): Answer {
  const b = record(r.body)
  if (typeof b.version !== 'number') return refuse(400, 'version is required', 'VALIDATION_ERROR')
  if (b.version !== t.version)
    return refuse(409, `Stale version ${b.version}: the ticket is at version ${t.version}`, 'CONFLICT')
  if (b.status !== undefined) {
    if (typeof b.status !== 'string' || !state.statuses.some((s) => String(s.statusId) === b.status))
      return refuse(400, 'status: unknown (a status id as a string)', 'VALIDATION_ERROR')
    t.statusId = Number(b.status)
  }
  if (typeof b.subject === 'string') {
    if (b.subject.length > 200)
      return refuse(400, 'subject: size must be between 0 and 200', 'VALIDATION_ERROR')
    t.subject = b.subject
  }
  addLog(state, t, {
    type: 'SAVE',
    body: '',
    publicEntry: false,
    system: false,
    timeTracked: 0,
    appUserContactId: apiUserId,
  })
  return { status: 200, body: ticketDto(state, t) }
}

function comment(r: ApiRequest, state: NinjaState, t: NinjaTicket): Answer {
  const parts = record(r.body)
  const raw = parts.comment
  if (typeof raw !== 'string')
    return refuse(400, 'the multipart part "comment" is required', 'VALIDATION_ERROR')
  let c: Record<string, unknown>
  try {
    c = record(JSON.parse(raw))
  } catch {
    return refuse(400, 'the part "comment" is not JSON', 'VALIDATION_ERROR')
  }
  if (typeof c.public !== 'boolean') return refuse(400, 'comment.public is required', 'VALIDATION_ERROR')
  if (typeof c.body !== 'string' || c.body === '')
    return refuse(400, 'comment.body is required', 'VALIDATION_ERROR')
  const tracked = typeof c.timeTracked === 'number' ? c.timeTracked : 0
  t.totalTimeTracked += tracked
  addLog(state, t, {
    type: 'COMMENT',
    body: c.body,
    publicEntry: c.public,
    system: false,
    timeTracked: tracked,
    appUserContactId: apiUserId,
  })
  return { status: 200, body: {} }
}

/** A board's run: the tickets matching `searchCriteria` (in the subject or the tags), newest first, or
 * last updated first (sortBy lastUpdated); paged by the last row's id. */
function runBoard(r: ApiRequest, state: NinjaState, boardId: string | undefined): Answer {
  const board = state.boards.find((x) => String(x.id) === boardId)
  if (!board) return refuse(404, `Board ${boardId} not found`, 'NOT_FOUND')
  const b = record(r.body)
  const search = typeof b.searchCriteria === 'string' ? b.searchCriteria.toLowerCase() : ''
  if (search.length > 512) return refuse(400, 'searchCriteria: at most 512 characters', 'VALIDATION_ERROR')
  const size = Math.min(Number(b.pageSize ?? 50) || 50, 1000)
  const cursor = typeof b.lastCursorId === 'number' ? b.lastCursorId : null
  const sort = Array.isArray(b.sortBy) ? record(b.sortBy[0]) : {}
  const byUpdate = sort.field === 'lastUpdated'
  const matching = state.tickets
    .filter((t) => !t.deleted)
    .filter((t) => board.name !== 'Open tickets' || ![5000, 6000, 7002].includes(t.statusId))
    .filter(
      (t) =>
        search === '' ||
        t.subject.toLowerCase().includes(search) ||
        t.tags.some((tag) => tag.toLowerCase().includes(search)),
    )
    .sort(byUpdate ? (x, y) => y.lastUpdated - x.lastUpdated || y.id - x.id : (x, y) => y.id - x.id)
  const from = cursor === null ? 0 : matching.findIndex((t) => t.id === cursor) + 1
  const page = matching.slice(from, from + size)
  // The rows carry the board's columns, not the ticket's tags.
  const data = page.map((t) => ({
    id: t.id,
    summary: t.subject,
    status: state.statuses.find((s) => s.statusId === t.statusId)?.displayName,
    organization: state.organizations.find((o) => o.id === t.clientId)?.name,
    createTime: t.createTime,
    lastUpdated: t.lastUpdated,
  }))
  return {
    status: 200,
    body: { data, metadata: { lastCursorId: page.at(-1)?.id ?? null, columns: Object.keys(data[0] ?? {}) } },
  }
}
