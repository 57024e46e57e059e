// A simulator of Syncro's REST API v1 (https://{subdomain}.syncromsp.com/api/v1), written from Syncro's
// API docs and public clients (docs/psa/syncro.md), not from our adapter. Every /api/v1 call is
// checked in Syncro's order: the rate limit first (180 a minute per client address, refused calls
// counted; 429 with a body and no rate headers, a Retry-After only where configured), then the API
// token (`Authorization: Bearer {token}`, the raw token, or the legacy `?api_key=`; else 401), then the
// token's permissions (403, e.g. a token without "Tickets - Create"). The harness's faults act before
// all of these. See routes-*.ts for the resources, technician.ts for a
// technician's changes in the web app (two-way sync).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { listen, type OpCalls, type StartedSim, simApp } from '../harness.js'
import type { PushSender, Technician } from '../push.js'
import { fail } from './answers.js'
import { accountRoutes } from './routes-account.js'
import { scheduleRoutes } from './routes-schedules.js'
import { ticketRoutes } from './routes-tickets.js'
import {
  CLOSING_STATUSES,
  DEFAULT_STATUSES,
  PRIORITIES,
  PROBLEM_TYPES,
  seedCustomers,
  seedSchedules,
  seedTickets,
} from './seed.js'
import { syncroPushes, syncroTechnician, technicianRoutes } from './technician.js'
import type { ApiToken, SyncroState } from './types.js'

export type { SyncroState } from './types.js'

/** The started simulator, with a technician working its tickets in the web app (technician.ts). */
export type SyncroSim = StartedSim<SyncroState> & { technician: Technician; pushes: PushSender }

/** Tickets a fresh account holds: twelve pages of the ticket list, a third of them customer 1001's. */
export const seededTickets = 300

/** The calls of each ticket operation, whose answers a test loses (the harness's loseAnswer). */
export const syncroCalls: OpCalls = {
  create: { method: 'POST', match: '^/api/v1/tickets$' },
  note: { method: 'POST', match: '^/api/v1/tickets/\\d+/comment$' },
  'close-note': { method: 'POST', match: '^/api/v1/tickets/\\d+/comment$' },
  close: { method: 'PUT', match: '^/api/v1/tickets/\\d+$' },
}

export interface SyncroSimOptions {
  port?: number
  /** The token with every permission. */
  apiToken?: string
  /** More tokens (by default also `limited-token`, which lacks "Tickets - Create"). */
  tokens?: ApiToken[]
  customers?: number
  /** Tickets made before the simulator starts (default `seededTickets`). */
  tickets?: number
  ticketOrder?: SyncroState['ticketOrder']
  perMinute?: number
  retryAfterSeconds?: number | null
  authSchemes?: SyncroState['authSchemes']
  errorStyle?: SyncroState['errorStyle']
  withMeta?: boolean
  problemTypesAt?: SyncroState['problemTypesAt']
  schedulesListLines?: boolean
  ticketCustomFields?: string[]
  logger?: boolean
}

const ALL_BUT_CREATE = [
  'Tickets - List/Search',
  'Tickets - View Details',
  'Tickets - Edit',
  'Customers - List/Search',
  'Recurring Invoices - List',
  'Recurring Invoices - Edit',
]

/** The permission a call needs (Syncro's names), or null for what any token may read. */
export function permissionOf(method: string, path: string): string | null {
  if (/^\/tickets\/settings$/.test(path)) return null
  if (/^\/tickets$/.test(path)) return method === 'POST' ? 'Tickets - Create' : 'Tickets - List/Search'
  if (/^\/tickets\/[^/]+$/.test(path) && method === 'DELETE') return 'Tickets - Delete'
  if (/^\/tickets\/[^/]+(\/comments?)?$/.test(path))
    return method === 'GET' ? 'Tickets - View Details' : 'Tickets - Edit'
  if (/^\/customers(\/|$)/.test(path)) return 'Customers - List/Search'
  if (/^\/schedules(\/|$)/.test(path))
    return method === 'GET' ? 'Recurring Invoices - List' : 'Recurring Invoices - Edit'
  return null
}

export async function startSyncroSim(o: SyncroSimOptions = {}): Promise<SyncroSim> {
  const apiToken = o.apiToken ?? 'syncro-api-token'
  const fresh = (): SyncroState => {
    const customers = seedCustomers(o.customers ?? 60)
    const nextId = { ticket: 9000, number: 1500, comment: 40000, timer: 70000 }
    const tickets = seedTickets(customers, o.tickets ?? seededTickets, nextId)
    return {
      tokens: [
        { token: apiToken, name: 'alertbridge', permissions: 'all' },
        ...(o.tokens ?? [
          { token: 'limited-token', name: 'read and edit only', permissions: ALL_BUT_CREATE },
        ]),
      ],
      authSchemes: o.authSchemes ?? ['bearer', 'raw'],
      rate: {
        perMinute: o.perMinute ?? 180,
        retryAfterSeconds: o.retryAfterSeconds ?? null,
        windows: {},
        refused: 0,
      },
      errorStyle: o.errorStyle ?? 'errors',
      withMeta: o.withMeta ?? true,
      ticketOrder: o.ticketOrder ?? 'newest',
      problemTypesAt: o.problemTypesAt ?? 'both',
      schedulesListLines: o.schedulesListLines ?? false,
      customers,
      problemTypes: [...PROBLEM_TYPES],
      statuses: [...DEFAULT_STATUSES],
      closingStatuses: [...CLOSING_STATUSES],
      priorities: [...PRIORITIES],
      ticketCustomFields: [...(o.ticketCustomFields ?? [])],
      tickets,
      schedules: seedSchedules(customers),
      nextId,
    }
  }
  const state = fresh()
  const built = simApp({ errorBody: (_status, message) => ({ error: message }), logger: o.logger ?? false })
  const { app } = built

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    return reply.code(status).send({ error: error.message })
  })
  app.setNotFoundHandler((_request, reply) => fail(reply, 404, 'Not found'))

  const tokenOf = (request: FastifyRequest): ApiToken | null => {
    const header = request.headers.authorization ?? ''
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)
    const given = bearer
      ? state.authSchemes.includes('bearer')
        ? bearer[1]
        : undefined
      : header !== '' && state.authSchemes.includes('raw')
        ? header.trim()
        : ((request.query as Record<string, string | undefined>).api_key ?? undefined)
    return state.tokens.find((t) => t.token === given) ?? null
  }

  const limited = (request: FastifyRequest, reply: FastifyReply) => {
    const { rate } = state
    const key = request.ip
    const at = Date.now()
    let w = rate.windows[key]
    if (!w || at - w.start >= 60_000) {
      w = { start: at, count: 0 }
      rate.windows[key] = w
    }
    w.count++
    if (w.count <= rate.perMinute) return null
    rate.refused++
    if (rate.retryAfterSeconds !== null) reply.header('retry-after', String(rate.retryAfterSeconds))
    return reply.code(429).type('text/plain').send('Retry later\n')
  }

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '')
    if (!path.startsWith('/api/v1/')) return
    const refused = limited(request, reply)
    if (refused) return refused
    const token = tokenOf(request)
    if (!token) return fail(reply, 401, 'Invalid or missing API token')
    const needed = permissionOf(request.method, path.slice('/api/v1'.length))
    if (needed && token.permissions !== 'all' && !token.permissions.includes(needed))
      return fail(reply, 403, `This API token does not have the permission "${needed}"`)
  })

  accountRoutes(app, state)
  ticketRoutes(app, state)
  scheduleRoutes(app, state)
  const technician = syncroTechnician(state)
  const pushes = syncroPushes()
  technicianRoutes(app, technician, pushes)

  const reset = () => Object.assign(state, fresh())
  const sim = await listen(built, state, reset, o.port ?? 0)
  return {
    ...sim,
    technician,
    pushes,
    describe: () =>
      [
        `Syncro API v1 simulator (baseUrl ${sim.url}; the API is ${sim.url}/api/v1)`,
        `  auth:    Authorization: Bearer ${apiToken}  (or the raw token; "limited-token" lacks Tickets - Create)`,
        `  limits:  ${state.rate.perMinute} requests a minute per client address, then 429`,
        `  seeded:  ${state.customers.length} customers (every fourth a person), problem types ${state.problemTypes.join(', ')}`,
        `           statuses ${state.statuses.join(', ')} (closing: ${state.closingStatuses.join(', ')})`,
        `           ${state.tickets.length} tickets of the last days (${state.ticketOrder} first)`,
        '  sync:    POST /__sim/technician/{close|reopen|merge|delete|note|time} {id, into, text}; no push',
        `           ${state.schedules.length} invoice schedules with line items (customers ${[...new Set(state.schedules.map((s) => s.customer_id))].join(', ')})`,
      ].join('\n'),
  }
}
