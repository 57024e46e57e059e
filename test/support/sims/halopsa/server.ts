// A simulated HaloPSA instance on loopback, written from Halo's published API (its swagger) and working
// public clients (docs/psa/halopsa.md lists them), not from our adapter:
//   GET  /api/authinfo       no auth; {auth_url, ...} naming the authorisation server (404 when unset)
//   POST /auth/token         (under the auth_url authinfo names) a form: grant_type=client_credentials, client_id, client_secret, scope;
//                            ?tenant= when the instance has one; {access_token, token_type, expires_in}
//   /api/...                 `Authorization: Bearer <token>`; 401 when missing, unknown or expired
// Two-way sync (sync.ts): POST /__sim/technician/{action}, POST|GET /__sim/webhooks, DELETE
// /__sim/webhooks/{id}, PUT /__sim/pushes {drop}.
// Paths ignore case. Refusals are plain text. An instance rate limit (state.rateLimit) answers 429
// without Retry-After; the harness's faults (fail, latency, rate) act before everything else.
import { randomUUID } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { listen, type OpCalls, type StartedSim, simApp } from '../harness.js'
import { actionRoutes } from './actions.js'
import { type Answer, type ApiRequest, param, refuse } from './answers.js'
import { listRoutes } from './lists.js'
import {
  seedClients,
  seedClosedStatusIds,
  seedOutcomes,
  seedPriorities,
  seedRecurringInvoices,
  seedStatuses,
  seedTeams,
  seedTickets,
  seedTicketTypes,
} from './seed.js'
import { type HaloSync, installSync } from './sync.js'
import { ticketRoutes } from './tickets.js'
import type { HaloState } from './types.js'

export type { HaloState } from './types.js'

/**
 * The calls whose answers a test loses: the create is POST /api/Tickets (without a query: a search is a
 * GET with one); a note, and a close, are one POST /api/Actions each (the resolution note and new_status
 * in one action), so 'close-note' and 'close' are that same call. The ticket update a close sends only
 * when the action did not move the status is never the one lost.
 */
export const haloCalls: OpCalls = {
  create: { method: 'POST', match: '^/api/Tickets$' },
  note: { method: 'POST', match: '^/api/Actions$' },
  'close-note': { method: 'POST', match: '^/api/Actions$' },
  close: { method: 'POST', match: '^/api/Actions$' },
}

export interface HaloPsaSimOptions {
  port?: number
  clientId?: string
  clientSecret?: string
  /** The tenant the token request must name (hosted multi-tenant instances); none by default. */
  tenant?: string
  /** Seconds a token lasts (Halo's own: an hour). */
  tokenLifetimeSeconds?: number
  /** How many clients to seed (more than a page of 100, and more than 1,000 by default). */
  clients?: number
  /** How many tickets to seed (several pages of 100; 480 by default, three in four of them the first client's). */
  tickets?: number
  rateLimit?: { requests: number; perSeconds: number }
  /** The waits before resending a failed webhook delivery (none by default: Halo documents no retry). */
  pushRetryDelaysMs?: number[]
  logger?: boolean
}

/** The simulator's handle: a technician working its tickets, and the webhooks' pushes (sync.ts). */
export type HaloPsaSim = StartedSim<HaloState> & HaloSync

export async function startHaloPsaSim(o: HaloPsaSimOptions = {}): Promise<HaloPsaSim> {
  const built = simApp({ errorBody: (_status, message) => message, logger: o.logger ?? false })
  const { app } = built
  let baseUrl = ''
  const fresh = (): HaloState => {
    const clients = seedClients(o.clients ?? 1100)
    return {
      credentials: {
        clientId: o.clientId ?? '8b1d2c4e-halo-sim-client',
        clientSecret: o.clientSecret ?? 'halo-sim-secret-5f1e',
        tenant: o.tenant ?? null,
      },
      authInfo: { auth_url: `${baseUrl}/auth`, halo_client_id: 'halo-web-application' },
      tokenLifetimeSeconds: o.tokenLifetimeSeconds ?? 3600,
      tokens: {},
      rateLimit: o.rateLimit ?? null,
      requestTimes: [],
      briefTicketLists: true,
      clients,
      teams: seedTeams(),
      priorities: seedPriorities(),
      statuses: seedStatuses(),
      closedStatusIds: seedClosedStatusIds(),
      ticketTypes: seedTicketTypes(),
      outcomes: seedOutcomes(),
      tickets: seedTickets(clients, o.tickets ?? 480),
      actions: [],
      recurringInvoices: seedRecurringInvoices(clients),
      apiAgent: { id: 2, name: 'alertbridge API' },
      technicianAgent: { id: 5, name: 'Jane Tech' },
      webhooks: [],
      nextId: { ticket: 2041, action: 90_001, line: 30_001 },
    }
  }
  const state = fresh()
  const sync = installSync(app, state, { retryDelaysMs: o.pushRetryDelaysMs })

  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body)
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch {
      done(Object.assign(new Error('The request body is not valid JSON.'), { statusCode: 400 }), undefined)
    }
  })
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) =>
    reply
      .code(error.statusCode ?? 500)
      .type('text/plain')
      .send(error.message),
  )

  function token(request: FastifyRequest, params: URLSearchParams): Answer {
    const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      ? (request.body as Record<string, string>)
      : null
    const oauth = (status: number, error: string, description: string): Answer => ({
      status,
      body: { error, error_description: description },
    })
    if (!form) return oauth(400, 'invalid_request', 'The token request must be form-encoded.')
    if (form.grant_type !== 'client_credentials')
      return oauth(400, 'unsupported_grant_type', `grant_type '${form.grant_type ?? ''}' is not supported.`)
    const { clientId, clientSecret, tenant } = state.credentials
    if (tenant !== null && param(params, 'tenant') !== tenant)
      return oauth(400, 'invalid_request', 'The tenant is missing or unknown.')
    if (form.client_id !== clientId || form.client_secret !== clientSecret)
      return oauth(400, 'invalid_client', 'Client authentication failed.')
    const value = `halo-${randomUUID()}`
    state.tokens[value] = Date.now() + state.tokenLifetimeSeconds * 1000
    return {
      status: 200,
      body: {
        access_token: value,
        token_type: 'Bearer',
        expires_in: state.tokenLifetimeSeconds,
        scope: form.scope ?? 'all',
      },
    }
  }

  function guard(request: FastifyRequest): Answer | null {
    const auth = request.headers.authorization
    const value = typeof auth === 'string' && /^bearer /i.test(auth) ? auth.slice(7).trim() : ''
    const expires = state.tokens[value]
    if (expires === undefined || expires <= Date.now()) return { status: 401, body: '' }
    if (state.rateLimit) {
      const since = Date.now() - state.rateLimit.perSeconds * 1000
      state.requestTimes = state.requestTimes.filter((t) => t > since)
      if (state.requestTimes.length >= state.rateLimit.requests)
        return refuse(
          429,
          `Too many requests: the limit is ${state.rateLimit.requests} per ${state.rateLimit.perSeconds} seconds.`,
        )
      state.requestTimes.push(Date.now())
    }
    return null
  }

  /** Where the token endpoint is: under the authorisation server authinfo names ({baseUrl}/auth by default). */
  const tokenPath = () => {
    const named = state.authInfo?.auth_url
    const root = typeof named === 'string' && URL.canParse(named) ? new URL(named).pathname : '/auth'
    return `${root.toLowerCase().replace(/\/+$/, '')}/token`
  }

  app.all('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, 'http://sim')
    const path = url.pathname.toLowerCase().replace(/\/+$/, '')
    const send = (a: Answer) =>
      typeof a.body === 'string'
        ? reply.code(a.status).type('text/plain').send(a.body)
        : reply.code(a.status).send(a.body)
    if (path === '/api/authinfo' && request.method === 'GET') {
      return state.authInfo ? send({ status: 200, body: state.authInfo }) : send(refuse(404, 'Not Found'))
    }
    if (path === tokenPath() && request.method === 'POST') return send(token(request, url.searchParams))
    if (!path.startsWith('/api/')) return send(refuse(404, 'Not Found'))
    const refused = guard(request)
    if (refused) return send(refused)
    const req: ApiRequest = {
      method: request.method,
      segments: path
        .slice('/api/'.length)
        .split('/')
        .map((s) => decodeURIComponent(s)),
      params: url.searchParams,
      body: request.body,
    }
    return send(
      ticketRoutes(req, state) ??
        actionRoutes(req, state) ??
        listRoutes(req, state) ??
        refuse(404, `No route for ${url.pathname}`),
    )
  })

  const sim = await listen(built, state, () => Object.assign(state, fresh()), o.port ?? 0)
  baseUrl = sim.url
  state.authInfo = { auth_url: `${baseUrl}/auth`, halo_client_id: 'halo-web-application' }
  const describe = () =>
    [
      `HaloPSA API (baseUrl ${baseUrl}; the API at ${baseUrl}/api; authinfo at ${baseUrl}/api/authinfo)`,
      `  token: POST ${baseUrl}/auth/token${state.credentials.tenant ? `?tenant=${state.credentials.tenant}` : ''} (form: grant_type=client_credentials, scope=all)`,
      `  clientId: ${state.credentials.clientId}  clientSecret: ${state.credentials.clientSecret}${state.credentials.tenant ? `  tenant: ${state.credentials.tenant}` : ''}`,
      `  seeded: ${state.clients.length} clients (e.g. ${state.clients[0]?.id} ${state.clients[0]?.name}); teams ${state.teams.map((t) => t.name).join(', ')}; ${state.tickets.length} tickets; recurring invoices of client ${state.clients[0]?.id}`,
    ].join('\n')
  return { ...sim, describe, ...sync }
}
