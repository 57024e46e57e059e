// /service/tickets: create (POST → 201 with the whole ticket), read one, list with conditions and
// paging, count, and update with PATCH, whose body is a JSON-Patch-like array of
// {op, path, value}. Paths may start with "/" or not; `status` takes a reference object, and
// `status/id` (or `status/name`) takes the bare value. Moving to a status with closedStatus true sets
// closedFlag, closedDate and closedBy; moving back to an open status clears them.
import type { FastifyInstance } from 'fastify'
import { contextOf, type FieldError, idParam, invalidObject, type RouteDeps } from './deps.js'
import { cwError, type ListItem, sendCount, sendList, sendOne } from './paging.js'
import { cwNow, type RenderContext, renderTicket, TICKET_FIELDS } from './render.js'
import { applyClosure, type Changes, newDraft, resolveChanges } from './ticket-input.js'
import type { CwTicket } from './types.js'

type IdParams = { Params: { id: string } }

const PATCHABLE: Record<string, keyof Changes> = {
  summary: 'summary',
  externalxref: 'externalXRef',
  company: 'company',
  board: 'board',
  status: 'status',
  priority: 'priority',
  type: 'type',
  severity: 'severity',
  impact: 'impact',
}
const REFERENCES = new Set<keyof Changes>(['company', 'board', 'status', 'priority', 'type'])

export function ticketItem(ctx: RenderContext, t: CwTicket): ListItem {
  const out = renderTicket(ctx, t)
  return { id: t.id, out, view: { ...out, lastUpdated: t.lastUpdated, dateEntered: t.dateEntered } }
}

/** Turns PATCH operations into Changes, or lists what is wrong with them. */
function changesFromPatch(body: unknown): { changes: Changes; errors: FieldError[] } {
  const changes: Changes = {}
  const errors: FieldError[] = []
  const err = (message: string, field: string) =>
    errors.push({ code: 'InvalidField', message, resource: 'ticket', field })
  if (!Array.isArray(body)) {
    err(
      'The PATCH body must be an array of operations like [{"op":"replace","path":"summary","value":"x"}].',
      'body',
    )
    return { changes, errors }
  }
  for (const [i, raw] of body.entries()) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      err(`Operation ${i} is not an object.`, 'body')
      continue
    }
    const op = raw as Record<string, unknown>
    const verb = String(op.op ?? '').toLowerCase()
    const path = String(op.path ?? '').replace(/^\//, '')
    const [top = '', sub, ...more] = path.split('/')
    const key = PATCHABLE[top.toLowerCase()]
    if (!['replace', 'add', 'remove'].includes(verb)) {
      err(`Operation ${i}: op must be replace, add or remove.`, 'op')
    } else if (top.toLowerCase() === 'closedflag') {
      err('closedFlag cannot be set directly: change status to one whose closedStatus is true.', 'closedFlag')
    } else if (!key || more.length > 0 || (sub !== undefined && !REFERENCES.has(key))) {
      err(`Operation ${i}: the path "${String(op.path)}" cannot be patched.`, path || 'path')
    } else if (verb === 'remove') {
      if (key === 'externalXRef' || key === 'type') changes[key] = null
      else err(`Operation ${i}: ${key} cannot be removed.`, key)
    } else if (!('value' in op)) {
      err(`Operation ${i}: a value is required.`, path)
    } else if (sub !== undefined) {
      const subKey = sub.toLowerCase()
      if (!['id', 'name', 'identifier'].includes(subKey)) err(`Operation ${i}: unknown path "${path}".`, path)
      else if (subKey === 'id' && !Number.isInteger(op.value)) err(`${path} must be an integer.`, path)
      else changes[key] = { [subKey]: op.value }
    } else {
      changes[key] = op.value
    }
  }
  return { changes, errors }
}

export function ticketRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { state } = deps
  const find = (id: string | undefined) => {
    const n = idParam(id)
    return n === null ? undefined : state.tickets.find((t) => t.id === n)
  }
  const notFound = (reply: Parameters<typeof cwError>[0], id: string) =>
    cwError(reply, 404, 'NotFound', `Ticket ${id} not found`)
  const listOptions = { knownFields: TICKET_FIELDS, pageSizeMax: deps.pageSizeMax }

  app.post('/service/tickets', async (request, reply) => {
    const body = request.body
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return reply.code(400).send(
        invalidObject('ticket', [
          {
            code: 'InvalidField',
            message: 'The body must be a ticket object.',
            resource: 'ticket',
            field: 'body',
          },
        ]),
      )
    }
    const b = body as Record<string, unknown>
    const missing: FieldError[] = []
    if (b.summary === undefined || b.summary === null) {
      missing.push({
        code: 'MissingRequiredField',
        message: 'The field summary is required.',
        resource: 'ticket',
        field: 'summary',
      })
    }
    if (b.company === undefined || b.company === null) {
      missing.push({
        code: 'MissingRequiredField',
        message: 'The field company is required.',
        resource: 'ticket',
        field: 'company',
      })
    }
    const fields: (keyof Changes)[] = [
      'summary',
      'externalXRef',
      'company',
      'board',
      'status',
      'priority',
      'type',
      'severity',
      'impact',
    ]
    const changes: Changes = {}
    for (const f of fields) if (b[f] !== undefined && b[f] !== null) changes[f] = b[f]
    const { draft, errors } = resolveChanges(state, newDraft(state), changes)
    const initial = b.initialDescription
    if (initial !== undefined && initial !== null && typeof initial !== 'string') {
      errors.push({
        code: 'InvalidField',
        message: 'The field initialDescription must be a string.',
        resource: 'ticket',
        field: 'initialDescription',
      })
    }
    if (missing.length || errors.length)
      return reply.code(400).send(invalidObject('ticket', [...missing, ...errors]))

    const now = cwNow()
    const ticket: CwTicket = {
      id: state.nextTicketId++,
      ...draft,
      initialDescription: typeof initial === 'string' ? initial : null,
      closedFlag: false,
      closedDate: null,
      closedBy: null,
      dateEntered: now,
      enteredBy: state.memberIdentifier,
      lastUpdated: now,
      updatedBy: state.memberIdentifier,
      notes: [],
    }
    applyClosure(state, ticket, now)
    state.tickets.push(ticket)
    return reply.code(201).send(renderTicket(contextOf(request, state), ticket))
  })

  app.get('/service/tickets', async (request, reply) => {
    const ctx = contextOf(request, state)
    return sendList(
      request,
      reply,
      state.tickets.map((t) => ticketItem(ctx, t)),
      listOptions,
    )
  })

  app.get('/service/tickets/count', async (request, reply) => {
    const ctx = contextOf(request, state)
    return sendCount(
      request,
      reply,
      state.tickets.map((t) => ticketItem(ctx, t)),
      listOptions,
    )
  })

  app.get<IdParams>('/service/tickets/:id', async (request, reply) => {
    const ticket = find(request.params.id)
    if (!ticket) return notFound(reply, request.params.id)
    return sendOne(request, reply, renderTicket(contextOf(request, state), ticket))
  })

  app.patch<IdParams>('/service/tickets/:id', async (request, reply) => {
    const ticket = find(request.params.id)
    if (!ticket) return notFound(reply, request.params.id)
    const parsed = changesFromPatch(request.body)
    if (parsed.errors.length) return reply.code(400).send(invalidObject('ticket', parsed.errors))
    const { draft, errors } = resolveChanges(state, ticket, parsed.changes)
    if (errors.length) return reply.code(400).send(invalidObject('ticket', errors))
    const now = cwNow()
    Object.assign(ticket, draft, { lastUpdated: now, updatedBy: state.memberIdentifier })
    applyClosure(state, ticket, now)
    return reply.send(renderTicket(contextOf(request, state), ticket))
  })
}
