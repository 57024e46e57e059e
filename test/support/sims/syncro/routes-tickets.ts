// Tickets and their comments, as Syncro's API docs describe them (docs/psa/syncro.md):
//   GET  /tickets?customer_id=&number=&status=&created_after=&since_updated_at=&resolved_after=&query=&page=
//                            25 a page, newest first (ticketOrder); any other parameter (per_page, sort,
//                            problem_type …) is not applied, as Syncro publishes none
//   POST /tickets            customer_id, subject (≤ 255) and problem_type required; comments_attributes
//   GET  /tickets/{id}       {ticket} with its comments (the one published way to read them)
//   PUT  /tickets/{id}       a status from the account's list; a closing one sets resolved_at
//   DELETE /tickets/{id}     gone: a 404 from then on
//   POST /tickets/{id}/comment   {subject, body, hidden, do_not_email}; some subjects move the status
// List entries leave the comments out. "Not Closed" as a status filter means not in a closing status.
// `query` matches the subject and the number only (what else Syncro's search covers is not published).
// Dates compare by their day: `created_after=2024-06-13` keeps tickets made that day and later.
// A comment body is refused over 65,535 characters (an assumed limit: Syncro publishes none).
import type { FastifyInstance } from 'fastify'
import { fail, idOf, invalid, now, paged } from './answers.js'
import type { Comment, SyncroState, Ticket } from './types.js'

type Body = Record<string, unknown>
type Query = Record<string, string | undefined>

/** Comment subjects that move a ticket's status, as Syncro's ticket workflow does. */
const statusBySubject: Record<string, string> = {
  diagnosis: 'In Progress',
  'parts arrival': 'In Progress',
  'parts order': 'Waiting for Parts',
}

/** The longest comment body taken (assumed; see the header). */
export const COMMENT_MAX = 65_535
export const SUBJECT_MAX = 255

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))

function listEntry(t: Ticket) {
  const { comments: _comments, ...rest } = t
  return rest
}

const day = (v: string) => v.slice(0, 10)

/** The documented filters of GET /tickets; nothing else is applied. */
function matches(t: Ticket, q: Query, state: SyncroState): boolean {
  if (q.customer_id && String(t.customer_id) !== q.customer_id) return false
  if (q.number && String(t.number) !== q.number) return false
  if (q.status) {
    const closed = state.closingStatuses.includes(t.status)
    if (q.status === 'Not Closed' ? closed : t.status !== q.status) return false
  }
  if (q.created_after && day(t.created_at) < day(q.created_after)) return false
  if (q.since_updated_at && day(t.updated_at) < day(q.since_updated_at)) return false
  if (q.resolved_after && (t.resolved_at === null || day(t.resolved_at) < day(q.resolved_after))) return false
  if (q.query) {
    const needle = q.query.toLowerCase()
    if (![t.subject, String(t.number)].some((h) => h.toLowerCase().includes(needle))) return false
  }
  return true
}

function setStatus(state: SyncroState, t: Ticket, status: string) {
  t.status = status
  if (state.closingStatuses.includes(status)) t.resolved_at ??= now()
  else t.resolved_at = null
}

function newComment(state: SyncroState, ticketId: number, b: Body): Comment {
  return {
    id: state.nextId.comment++,
    ticket_id: ticketId,
    subject: str(b.subject) || 'Update',
    body: str(b.body),
    hidden: b.hidden === true || b.hidden === 'true',
    do_not_email: b.do_not_email === true || b.do_not_email === 'true',
    tech: typeof b.tech === 'string' ? b.tech : null,
    user_id: null,
    created_at: now(),
  }
}

/** Rails-style errors for a new ticket, by field (empty when valid). */
function ticketErrors(state: SyncroState, b: Body): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, m: string) => {
    errors[field] = [...(errors[field] ?? []), m]
  }
  const customerId = idOf(str(b.customer_id))
  if (customerId === null || !state.customers.some((c) => c.id === customerId)) add('customer', 'must exist')
  const subject = str(b.subject).trim()
  if (subject === '') add('subject', "can't be blank")
  if (subject.length > SUBJECT_MAX) add('subject', `is too long (maximum is ${SUBJECT_MAX} characters)`)
  const problem = str(b.problem_type)
  if (problem === '') add('problem_type', "can't be blank")
  else if (!state.problemTypes.includes(problem)) add('problem_type', 'is not included in the list')
  if (b.status !== undefined && !state.statuses.includes(str(b.status)))
    add('status', 'is not included in the list')
  if (b.priority !== undefined && b.priority !== null && !state.priorities.includes(str(b.priority)))
    add('priority', 'is not included in the list')
  const comments = b.comments_attributes
  const list = Array.isArray(comments)
    ? comments
    : comments && typeof comments === 'object'
      ? Object.values(comments)
      : []
  if (list.some((c) => !c || typeof c !== 'object' || str((c as Body).body).trim() === ''))
    add('comments.body', "can't be blank")
  if (list.some((c) => c && typeof c === 'object' && str((c as Body).body).length > COMMENT_MAX))
    add('comments.body', `is too long (maximum is ${COMMENT_MAX} characters)`)
  return errors
}

export function ticketRoutes(app: FastifyInstance, state: SyncroState) {
  const find = (id: string) => state.tickets.find((t) => t.id === idOf(id))

  app.get('/api/v1/tickets', async (request) => {
    const q = request.query as Query
    const found = state.tickets
      .filter((t) => matches(t, q, state))
      .sort((a, b) => (state.ticketOrder === 'newest' ? b.id - a.id : a.id - b.id))
    return paged(state, 'tickets', found.map(listEntry), q)
  })

  app.post('/api/v1/tickets', async (request, reply) => {
    const b = (request.body ?? {}) as Body
    const errors = ticketErrors(state, b)
    if (Object.keys(errors).length > 0) return invalid(reply, state, errors)
    const customer = state.customers.find((c) => c.id === Number(b.customer_id))!
    const id = state.nextId.ticket++
    const props = b.properties && typeof b.properties === 'object' ? (b.properties as Body) : {}
    const at = now()
    const ticket: Ticket = {
      id,
      number: state.nextId.number++,
      subject: str(b.subject).trim(),
      customer_id: customer.id,
      customer_business_then_name: customer.business_name ?? customer.fullname ?? customer.email ?? '',
      problem_type: str(b.problem_type),
      status: 'New',
      priority: b.priority === undefined || b.priority === null ? null : str(b.priority),
      properties: Object.fromEntries(
        Object.entries(props).filter(([k]) => state.ticketCustomFields.includes(k)),
      ),
      created_at: at,
      updated_at: at,
      resolved_at: null,
      comments: [],
      ticket_timers: [],
    }
    const attrs = b.comments_attributes
    const list = Array.isArray(attrs) ? attrs : attrs && typeof attrs === 'object' ? Object.values(attrs) : []
    for (const c of list) ticket.comments.push(newComment(state, id, c as Body))
    if (b.status !== undefined) setStatus(state, ticket, str(b.status))
    state.tickets.push(ticket)
    return { ticket }
  })

  app.get<{ Params: { id: string } }>('/api/v1/tickets/:id', async (request, reply) => {
    const t = find(request.params.id)
    return t ? { ticket: t } : fail(reply, 404, 'Record not found')
  })

  app.put<{ Params: { id: string } }>('/api/v1/tickets/:id', async (request, reply) => {
    const t = find(request.params.id)
    if (!t) return fail(reply, 404, 'Record not found')
    const b = (request.body ?? {}) as Body
    if (b.status !== undefined && !state.statuses.includes(str(b.status)))
      return invalid(reply, state, { status: ['is not included in the list'] })
    if (b.problem_type !== undefined && !state.problemTypes.includes(str(b.problem_type)))
      return invalid(reply, state, { problem_type: ['is not included in the list'] })
    if (typeof b.subject === 'string' && b.subject.trim().length > SUBJECT_MAX)
      return invalid(reply, state, { subject: [`is too long (maximum is ${SUBJECT_MAX} characters)`] })
    if (typeof b.subject === 'string' && b.subject.trim() !== '') t.subject = b.subject.trim()
    if (b.problem_type !== undefined) t.problem_type = str(b.problem_type)
    if (b.priority !== undefined) t.priority = str(b.priority)
    if (b.status !== undefined) setStatus(state, t, str(b.status))
    t.updated_at = now()
    return { ticket: t }
  })

  // Deleted: gone from every list, and a 404 from then on (Syncro keeps no deleted state to read).
  app.delete<{ Params: { id: string } }>('/api/v1/tickets/:id', async (request, reply) => {
    const t = find(request.params.id)
    if (!t) return fail(reply, 404, 'Record not found')
    state.tickets.splice(state.tickets.indexOf(t), 1)
    return { message: `Ticket ${t.id} deleted` }
  })

  app.post<{ Params: { id: string } }>('/api/v1/tickets/:id/comment', async (request, reply) => {
    const t = find(request.params.id)
    if (!t) return fail(reply, 404, 'Record not found')
    const b = (request.body ?? {}) as Body
    if (str(b.body).trim() === '') return invalid(reply, state, { body: ["can't be blank"] })
    if (str(b.body).length > COMMENT_MAX)
      return invalid(reply, state, { body: [`is too long (maximum is ${COMMENT_MAX} characters)`] })
    const comment = newComment(state, t.id, b)
    t.comments.push(comment)
    const moved = statusBySubject[comment.subject.toLowerCase()]
    if (moved) setStatus(state, t, moved)
    t.updated_at = now()
    return { comment }
  })
}
