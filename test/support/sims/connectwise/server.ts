// A simulator of the ConnectWise PSA (Manage) REST API, written from ConnectWise's documentation and
// from working public clients (not from our adapter), so that it catches a client that misreads the API.
//   GET /login/companyinfo/{companyId}  no auth; {CompanyName, Codebase, ...}, or a JSON null when unknown
//   /{codebase}apis/3.0/...             everything else; another codebase answers 404 (an HTML page)
// Every API call needs `Authorization: Basic base64("{companyId}+{publicKey}:{privateKey}")` and a
// `clientId` header. Responses carry `api-current-version`, `x-cw-request-id` and `x-server-name`.
// See routes-*.ts for the resources, paging.ts for lists, conditions.ts for the query language, and
// docs/psa/connectwise.md for the published facts each behaviour follows.
import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { listen, type OpCalls, type StartedSim, simApp } from '../harness.js'
import { PushSender, type Technician } from '../push.js'
import { CallbackPusher, callbackRoutes, signCallback } from './callbacks.js'
import type { RouteDeps } from './deps.js'
import { cwError } from './paging.js'
import { financeRoutes } from './routes-finance.js'
import { lookupRoutes } from './routes-lookups.js'
import { noteRoutes } from './routes-notes.js'
import { ticketRoutes } from './routes-tickets.js'
import {
  seedAgreements,
  seedBoards,
  seedCompanies,
  seedPriorities,
  seedProducts,
  seedTickets,
} from './seed.js'
import { connectWiseTechnician, syncSimRoutes } from './technician.js'
import type { ConnectWiseState } from './types.js'

export type { ConnectWiseState } from './types.js'

/**
 * The calls of each ticket operation, for a test that loses their answers: the create, a note, the
 * resolution note a close writes first (the same call as a note), and the status change that closes.
 */
export const connectWiseCalls: OpCalls = {
  create: { method: 'POST', match: '/apis/3\\.0/service/tickets$' },
  note: { method: 'POST', match: '/apis/3\\.0/service/tickets/\\d+/notes$' },
  'close-note': { method: 'POST', match: '/apis/3\\.0/service/tickets/\\d+/notes$' },
  close: { method: 'PATCH', match: '/apis/3\\.0/service/tickets/\\d+$' },
}

export interface ConnectWiseSimOptions {
  port?: number
  companyId?: string
  publicKey?: string
  privateKey?: string
  /** The registered clientId the simulator accepts. */
  clientId?: string
  /** With its trailing slash, as /login/companyinfo reports it. */
  codebase?: string
  /** How many companies to seed (the first three are fixed: AcmeCorp, Globex, a deleted one). */
  companies?: number
  /** How many tickets are there before any test (more than the largest page, 1000, by default). */
  tickets?: number
  /** Path prefixes below /apis/3.0 the API member has no permission for (403), e.g. ['/service/tickets']. */
  deny?: string[]
  pageSizeMax?: number
  /** The status for a missing or unknown clientId: 401 by default; some report 400. */
  clientIdStatus?: 400 | 401
  /** The waits before each retry of a callback ConnectWise could not deliver (its schedule is unpublished). */
  pushRetryDelaysMs?: number[]
  logger?: boolean
}

const DEFAULTS = {
  port: 0,
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'priv-key',
  clientId: '00000000-0000-4000-8000-000000000001',
  codebase: 'v4_6_release/',
  companies: 1200,
  tickets: 1200,
  deny: [] as string[],
  pageSizeMax: 1000,
  clientIdStatus: 401 as 400 | 401,
  pushRetryDelaysMs: [20, 40] as number[],
  logger: false,
}

const firstTicketId = 1001
const firstNoteId = 5001

function freshState(o: typeof DEFAULTS): ConnectWiseState {
  const companies = seedCompanies({ companies: o.companies })
  const boards = seedBoards()
  const member = 'AlertBridgeAPI'
  const tickets = seedTickets(
    { count: o.tickets, firstId: firstTicketId, firstNoteId, member: 'tech1' },
    boards,
    companies,
  )
  return {
    codebase: o.codebase,
    companyId: o.companyId,
    companyName: 'Acme Managed Services',
    version: 'v2025.1.10432',
    isCloud: true,
    memberIdentifier: member,
    tickets,
    companies,
    boards,
    priorities: seedPriorities(),
    products: seedProducts(),
    agreements: seedAgreements(),
    nextTicketId: firstTicketId + tickets.length,
    nextNoteId: firstNoteId + tickets.reduce((n, t) => n + t.notes.length, 0),
    nextAdditionId: 3400,
    callbacks: [],
    nextCallbackId: 1,
    signingKey: { id: randomUUID(), key: randomBytes(32).toString('base64') },
  }
}

/** The `code` ConnectWise puts in an error body for a status. */
function codeFor(status: number): string {
  if (status === 400) return 'InvalidObject'
  if (status === 401) return 'Unauthorized'
  if (status === 403) return 'Security'
  if (status === 404) return 'NotFound'
  if (status === 409) return 'ObjectExists'
  if (status === 429) return 'TooManyRequests'
  return 'ConnectWiseApi'
}

const HTML_404 =
  '<!DOCTYPE html><html><head><title>404 - File or directory not found.</title></head>' +
  '<body><h2>404 - File or directory not found.</h2></body></html>'

function sendHtml404(reply: FastifyReply) {
  return reply.code(404).type('text/html').send(HTML_404)
}

function apiRoutes(o: typeof DEFAULTS, deps: RouteDeps, pusher: CallbackPusher) {
  const { state } = deps
  const expectedUser = `${o.companyId}+${o.publicKey}`
  return async (api: FastifyInstance) => {
    api.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const { codebase } = request.params as { codebase: string }
      if (`${codebase}/` !== state.codebase) return sendHtml404(reply)
      const auth = request.headers.authorization ?? ''
      const m = /^Basic\s+(\S+)$/i.exec(auth)
      if (!m) return cwError(reply, 401, 'Unauthorized', 'Authorization header is missing or is not Basic.')
      const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      const user = colon < 0 ? decoded : decoded.slice(0, colon)
      const pass = colon < 0 ? '' : decoded.slice(colon + 1)
      if (user !== expectedUser || pass !== o.privateKey) {
        return cwError(reply, 401, 'Unauthorized', 'Incorrect public/private key or company.')
      }
      const clientId = request.headers.clientid
      if (typeof clientId !== 'string' || clientId === '') {
        return cwError(
          reply,
          o.clientIdStatus,
          'Unauthorized',
          'A clientId header is required on every request.',
        )
      }
      if (clientId !== o.clientId) {
        return cwError(
          reply,
          o.clientIdStatus,
          'Unauthorized',
          `The clientId "${clientId}" is not registered.`,
        )
      }
      const resource = (request.url.split('?')[0] ?? '').replace(/^\/[^/]+\/apis\/3\.0/i, '').toLowerCase()
      if (o.deny.some((p) => resource.startsWith(p.toLowerCase()))) {
        return cwError(reply, 403, 'Security', 'You do not have security permission to perform this action.')
      }
    })
    ticketRoutes(api, deps)
    noteRoutes(api, deps)
    lookupRoutes(api, deps)
    financeRoutes(api, deps)
    callbackRoutes(api, deps, pusher)
  }
}

/** The started simulator, with two-way sync's technician and pushes (callbacks.ts, technician.ts). */
export type ConnectWiseSim = StartedSim<ConnectWiseState> & { technician: Technician; pushes: PushSender }

export async function startConnectWiseSim(options: ConnectWiseSimOptions = {}): Promise<ConnectWiseSim> {
  const o: typeof DEFAULTS = { ...DEFAULTS, ...options, deny: options.deny ?? [] }
  const state = freshState(o)
  const deps: RouteDeps = { state, pageSizeMax: o.pageSizeMax }
  const base = { url: '' }
  const pushes = new PushSender({
    retryDelaysMs: o.pushRetryDelaysMs,
    deactivateAfter: null,
    headers: (body) => ({ 'x-content-signature': signCallback(body, state.signingKey.key) }),
  })
  const pusher = new CallbackPusher(state, base, pushes)
  const technician = connectWiseTechnician(state, pusher)
  const built = simApp({
    errorBody: (status, message) => ({ code: codeFor(status), message }),
    logger: o.logger,
  })
  const { app } = built

  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/__sim/')) {
      reply.header('api-current-version', state.version.replace(/^v/, '').split('.').slice(0, 2).join('.'))
      reply.header('x-cw-request-id', randomUUID())
      reply.header('x-server-name', 'SIMCWAPI01')
    }
    return payload
  })
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    const code = status === 415 ? 'UnsupportedMediaType' : codeFor(status)
    return reply.code(status).send({ code, message: error.message ?? 'An error occurred.' })
  })
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (!path.toLowerCase().startsWith(`/${state.codebase.toLowerCase()}apis/3.0/`)) return sendHtml404(reply)
    return cwError(reply, 404, 'NotFound', `No resource at ${request.method} ${path}.`)
  })

  app.get<{ Params: { companyId: string } }>('/login/companyinfo/:companyId', async (request, reply) => {
    if (request.params.companyId !== state.companyId) return reply.type('application/json').send('null')
    const [major = '2025', minor = '1', build = '0'] = state.version.replace(/^v/, '').split('.')
    return {
      CompanyName: state.companyName,
      Codebase: state.codebase,
      VersionCode: `v${major}.${minor}`,
      VersionNumber: `v4.6.${build}`,
      CompanyID: state.companyId,
      IsCloud: state.isCloud,
    }
  })
  syncSimRoutes(app, state, pusher, technician)
  await app.register(apiRoutes(o, deps, pusher), { prefix: '/:codebase/apis/3.0' })

  const reset = () => {
    const fresh = freshState(o)
    for (const key of Object.keys(fresh) as (keyof ConnectWiseState)[]) {
      Object.assign(state, { [key]: fresh[key] })
    }
  }
  const sim = await listen(built, state, reset, o.port)
  base.url = sim.url
  return {
    ...sim,
    technician,
    pushes,
    describe: () =>
      [
        `ConnectWise PSA simulator: company id "${o.companyId}", codebase "${state.codebase}".`,
        `  discovery: GET ${sim.url}/login/companyinfo/${o.companyId}`,
        `  API base:  ${sim.url}/${state.codebase}apis/3.0`,
        `  auth:      Basic base64("${o.companyId}+${o.publicKey}:${o.privateKey}") and header clientId: ${o.clientId}`,
        `  seeded:    ${state.companies.length} companies, ${state.tickets.length} tickets, boards ${state.boards.map((b) => `"${b.name}"`).join(', ')}`,
        `  billing:   ${state.agreements.length} agreements (GET …/finance/agreements?conditions=company/id=1), additions' quantity set by PATCH`,
        `  sync:      POST …/system/callbacks; POST ${sim.url}/__sim/technician/{close|reopen|merge|delete|note|time}`,
        ...(o.deny.length ? [`  denied (403): ${o.deny.join(', ')}`] : []),
      ].join('\n'),
  }
}
