// The Kaseya v2 engine's simulator, one flavour at a time (SimFlavour in types.ts): Kaseya BMS
// (server.ts, written from BMS's published OpenAPI) and Pulseway PSA (../pulseway-psa/server.ts), which
// runs on the same API. The flavour decides the create's required fields, whether tickets carry their
// custom fields as a JSON string, whether webhooks and the activities feed exist, and how notes name
// their writer; everything else (log-in, envelope, paging, the per-endpoint hourly limit, tickets,
// notes, resolve, look-ups, contracts, the technician) is the same routes.
//   POST /v2/security/authenticate, /v2/security/refreshtoken   forms; tokens (auth.ts)
//   /v2/...                                                      Bearer JWT; 401 when expired or unknown
// Every answer is an envelope `{success, error, result[, totalRecords]}` with camelCase keys; refusals
// (validation, business rules) are `success: false` at HTTP 200. Lists page with PageSize/PageNumber
// (from 1 by default; `firstPage: 0` to count from 0). Each endpoint (the route, whatever the method)
// takes `hourlyLimit` calls per rolling hour, then 429 with an envelope (and Retry-After unless
// `retryAfter: false`): both PSAs publish the number (1,500), not the signal.
import formbody from '@fastify/formbody'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { listen, type OpCalls, type StartedSim, simApp } from '../harness.js'
import type { PushSender, Technician } from '../push.js'
import { authRoutes, bearer } from './auth.js'
import { errorBody } from './envelope.js'
import { seedWebhookEvents, TicketEvents } from './events.js'
import { contractRoutes } from './routes-contracts.js'
import { lookupRoutes } from './routes-lookups.js'
import { syncRoutes } from './routes-sync.js'
import { ticketRoutes } from './routes-tickets.js'
import { webhookRoutes } from './routes-webhooks.js'
import { seedAccounts, seedContracts, seedLists, seedStatuses, seedTickets } from './seed.js'
import type { KaseyaBmsState, LookupRole, SimFlavour } from './types.js'

export interface V2SimOptions {
  port?: number
  tenant?: string
  username?: string
  password?: string
  /** How many accounts to seed (the first four are fixed). */
  accounts?: number
  tokenLifetimeSeconds?: number
  refreshLifetimeSeconds?: number
  hourlyLimit?: number
  retryAfter?: boolean
  firstPage?: 0 | 1
  pageZero?: KaseyaBmsState['paging']['pageZero']
  pageSizeMax?: number
  serviceUnits?: KaseyaBmsState['serviceUnits']
  servicesRoute?: KaseyaBmsState['servicesRoute']
  /** Seed tickets from before (two completed); false: a tenant with none. */
  history?: boolean
  /** How many tickets besides the three fixed ones (default 400: four pages of the ticket list). */
  tickets?: number
  /** The names /v2/system/lookup answers for each list (null: none answers); default TicketType,
   * TicketSource, NoteType. */
  lookupTables?: Partial<Record<LookupRole, string | null>>
  unknownTable?: KaseyaBmsState['unknownTable']
  limits?: Partial<KaseyaBmsState['limits']>
  textFilter?: KaseyaBmsState['textFilter']
  sort?: KaseyaBmsState['sort']
  logger?: boolean
  /** The waits before each retry of a failed push (BMS publishes none). */
  pushRetryDelaysMs?: number[]
}

/** The simulator's handle: its state, the technician working tickets, the pushes it sends (none
 * where the flavour has no webhooks). */
export type V2Sim = StartedSim<KaseyaBmsState> & { technician: Technician; pushes: PushSender }

/** The calls whose answer a test loses: resolve writes the resolution Comment and completes the
 * ticket in one call, so 'close-note' and 'close' are the same call. */
export const v2Calls: OpCalls = {
  create: { method: 'POST', match: '/v2/servicedesk/tickets$' },
  note: { method: 'POST', match: '/v2/servicedesk/tickets/\\d+/notes$' },
  'close-note': { method: 'POST', match: '/v2/servicedesk/tickets/\\d+/resolve$' },
  close: { method: 'POST', match: '/v2/servicedesk/tickets/\\d+/resolve$' },
}

/** How many tickets a fresh simulator holds by default. */
export const seededTickets = 3 + 400

const HOUR = 60 * 60 * 1000

function freshState(o: V2SimOptions, flavour: SimFlavour): KaseyaBmsState {
  return {
    flavour,
    credentials: {
      tenant: o.tenant ?? 'Acme MSP',
      username: o.username ?? 'api@acme-msp.example',
      password: o.password ?? 'bms-password',
    },
    tokenLifetimeSeconds: o.tokenLifetimeSeconds ?? 3600,
    refreshLifetimeSeconds: o.refreshLifetimeSeconds ?? 24 * 3600,
    sessions: {},
    paging: {
      firstPage: o.firstPage ?? 1,
      pageZero: o.pageZero ?? 'first',
      pageSizeMax: o.pageSizeMax ?? 100,
    },
    limit: { perEndpointPerHour: o.hourlyLimit ?? 1500, retryAfter: o.retryAfter ?? true, calls: {} },
    serviceUnits: o.serviceUnits ?? 'add',
    servicesRoute: o.servicesRoute ?? 'services',
    accounts: seedAccounts(o.accounts ?? 1200),
    queues: [
      { id: 1, name: 'Service Desk', isActive: true },
      { id: 2, name: 'Monitoring Alerts', isActive: true },
      { id: 3, name: 'Projects', isActive: true },
      { id: 4, name: 'Old Queue', isActive: false },
    ],
    priorities: [
      { id: 1, name: 'Critical', color: '#d9534f', isDefault: false },
      { id: 2, name: 'High', color: '#f0ad4e', isDefault: false },
      { id: 3, name: 'Medium', color: '#5bc0de', isDefault: true },
      { id: 4, name: 'Low', color: '#5cb85c', isDefault: false },
    ],
    statuses: seedStatuses(),
    completedTypeIds: [4],
    defaultCompletedStatusId: 6,
    lists: seedLists(),
    tableNames: {
      ticketTypes: 'TicketType',
      sources: 'TicketSource',
      noteTypes: 'NoteType',
      ...o.lookupTables,
    },
    unknownTable: o.unknownTable ?? 'refuse',
    limits: { title: 255, text: 32_000, ...o.limits },
    textFilter: o.textFilter ?? 'contains',
    sort: o.sort ?? 'applied',
    tickets: o.history === false ? [] : seedTickets(o.tickets ?? 400),
    contracts: seedContracts(),
    catalog: [
      { id: 71, name: 'Managed Endpoint' },
      { id: 72, name: 'Backup Seat' },
      { id: 73, name: 'Email Security Seat' },
    ],
    nextId: { ticket: 10001, note: 70001, service: 900, webhook: 301, timelog: 88001 },
    users: {
      api: { id: 17, name: 'AlertBridge API' },
      technician: { id: 31, name: 'Dana Okafor' },
    },
    webhooks: [],
    webhookEvents: seedWebhookEvents(),
  }
}

export async function startV2Sim(options: V2SimOptions, flavour: SimFlavour): Promise<V2Sim> {
  const state = freshState(options, flavour)
  const events = new TicketEvents(state, { retryDelaysMs: options.pushRetryDelaysMs })
  const built = simApp({
    errorBody: (status, message) => errorBody(status, message),
    logger: options.logger ?? false,
  })
  const { app } = built
  await app.register(formbody)

  const open = (url: string) => /^\/v2\/security\/(authenticate|refreshtoken)\b/i.test(url)
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/__sim/') || reply.sent) return
    if (!open(request.url) && !bearer(request, reply, state)) return reply
    const endpoint = (request.routeOptions.url ?? '').toLowerCase()
    if (endpoint === '') return
    const now = Date.now()
    const recent = (state.limit.calls[endpoint] ?? []).filter((t) => t > now - HOUR)
    state.limit.calls[endpoint] = recent
    if (recent.length >= state.limit.perEndpointPerHour) {
      const wait = Math.max(1, Math.ceil(((recent[0] ?? now) + HOUR - now) / 1000))
      if (state.limit.retryAfter) reply.header('retry-after', String(wait))
      const limit = state.limit.perEndpointPerHour
      return reply
        .code(429)
        .send(errorBody(429, `API rate limit exceeded: ${limit} calls per hour for this endpoint.`))
    }
    recent.push(now)
  })
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    return reply.code(status).send(errorBody(status, error.message))
  })
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(errorBody(404, `No API route matches ${request.method} ${request.url.split('?')[0]}.`)),
  )
  authRoutes(app, state)
  lookupRoutes(app, state)
  ticketRoutes(app, state, events)
  contractRoutes(app, state)
  if (flavour.webhooks) webhookRoutes(app, state)
  const technician = syncRoutes(app, state, events)

  const reset = () => Object.assign(state, freshState(options, flavour))
  const sim = await listen(built, state, reset, options.port ?? 0)
  const c = state.credentials
  return {
    ...sim,
    technician,
    pushes: events.pushes,
    describe: () =>
      [
        `${flavour.name} API v2 simulator: baseUrl ${sim.url} (the API is ${sim.url}/v2)`,
        `  login:  POST ${sim.url}/v2/security/authenticate (form) GrantType=password Tenant="${c.tenant}" UserName="${c.username}" Password="${c.password}" (field names in any case)`,
        `  tokens: ${state.tokenLifetimeSeconds} s (refresh ${state.refreshLifetimeSeconds} s); pages from ${state.paging.firstPage}, at most ${state.paging.pageSizeMax}`,
        `  limit:  ${state.limit.perEndpointPerHour} calls per hour per endpoint (429${state.limit.retryAfter ? ' with Retry-After' : ''})`,
        `  seeded: ${state.accounts.length} accounts, ${state.tickets.length} tickets, queues ${state.queues.map((q) => `"${q.name}"`).join(', ')}, ${state.contracts.length} contracts`,
        `  lookup tables: ${Object.entries(state.tableNames)
          .map(([role, name]) => `${role} ${name ?? '(none answers)'}`)
          .join(', ')}`,
        `  pushes: ${flavour.webhooks ? 'webhooks registered at /v2/admin/webhooks, signed in a Signature header (the simulator’s own HMAC; alertbridge takes none: poll)' : 'none (no webhooks): poll'}`,
      ].join('\n'),
  }
}
