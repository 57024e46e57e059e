// A simulator of SuperOps' MSP GraphQL API (one endpoint, `{baseUrl}` = `{url}/msp`), written from
// SuperOps' API docs and published schema (docs/psa/superops.md), not from our adapter. Every call is
// checked in SuperOps' order: the rate limit first (800 requests a minute per token, answered as SuperOps
// does with HTTP 200 and `rate_limit_exceeded` in the body, or a 429 where the test sets `style: 'http'`),
// then the token (`Authorization: Bearer …`, else HTTP 401), then the `CustomerSubDomain` header (else
// HTTP 400), then graphql-js parses, validates and executes the request against the schema subset
// (schema.ts) with the resolvers (resolvers.ts). The harness's faults act before all of these, and they
// match `{path}#{the operation's root fields}` so that a test loses the answer of the call it means.
import type { FastifyRequest } from 'fastify'
import { graphql, Kind, parse } from 'graphql'
import { listen, type OpCalls, type StartedSim, simApp } from '../harness.js'
import { type PushSender, type Technician, technicianRoutes } from '../push.js'
import { errorBody } from './answers.js'
import { resolvers } from './resolvers.js'
import { superOpsSchema } from './schema.js'
import {
  CATEGORIES,
  GROUPS,
  INTEGRATION_USER,
  PRIORITIES,
  RESOLVING_STATUSES,
  STATUSES,
  seedClients,
  seedContracts,
  seedTickets,
} from './seed.js'
import { superOpsPushes, superOpsTechnician } from './technician.js'
import type { SuperOpsState } from './types.js'

export type { SuperOpsState } from './types.js'

export type SuperOpsSim = StartedSim<SuperOpsState> & {
  technician: Technician
  pushes: PushSender
  /** The GraphQL endpoint (a connection's baseUrl). */
  endpoint: string
}

/** Tickets a fresh tenant holds: three pages of the ticket list, a third of them client 1001's. */
export const seededTickets = 300
export const SUBDOMAIN = 'acme-msp'
export const API_TOKEN = 'api-eyJzaW11bGF0b3IiOnRydWV9'
export const READ_ONLY_TOKEN = 'api-read-only'

/** The calls of each ticket operation, whose answers a test loses (the harness's loseAnswer). */
export const superOpsCalls: OpCalls = {
  create: { method: 'POST', match: '#createTicket$' },
  note: { method: 'POST', match: '#createTicketNote$' },
  'close-note': { method: 'POST', match: '#createTicketNote$' },
  close: { method: 'POST', match: '#updateTicket$' },
}

export interface SuperOpsSimOptions {
  port?: number
  /** The integration technician's token (default `API_TOKEN`). */
  apiToken?: string
  clients?: number
  tickets?: number
  perMinute?: number
  rateStyle?: SuperOpsState['rate']['style']
  retryAfterSeconds?: number | null
  limits?: Partial<SuperOpsState['limits']>
  mandatoryOnCreate?: SuperOpsState['mandatoryOnCreate']
  hasMoreFalse?: boolean
  logger?: boolean
}

/** The root fields a request's operation selects (`createTicket`), for the faults to match. */
export function rootFields(body: unknown): string {
  const query = (body as { query?: unknown } | null)?.query
  if (typeof query !== 'string') return ''
  try {
    const op = parse(query).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)
    if (!op || op.kind !== Kind.OPERATION_DEFINITION) return ''
    return op.selectionSet.selections
      .map((s) => (s.kind === Kind.FIELD ? s.name.value : ''))
      .filter(Boolean)
      .join(',')
  } catch {
    return ''
  }
}

export async function startSuperOpsSim(o: SuperOpsSimOptions = {}): Promise<SuperOpsSim> {
  const fresh = (): SuperOpsState => {
    const clients = seedClients(o.clients ?? 250)
    const nextId = { ticket: 50000, display: 1000, note: 90000, worklog: 70000 }
    return {
      tokens: [
        { token: o.apiToken ?? API_TOKEN, user: INTEGRATION_USER },
        { token: READ_ONLY_TOKEN, user: { userId: '901', name: 'read-only technician' }, readOnly: true },
      ],
      subdomain: SUBDOMAIN,
      rate: {
        perMinute: o.perMinute ?? 800,
        style: o.rateStyle ?? 'body',
        retryAfterSeconds: o.retryAfterSeconds ?? null,
        forced: null,
        windows: {},
        refused: 0,
      },
      limits: { subject: 255, description: 65_535, note: 65_535, ...o.limits },
      mandatoryOnCreate: [...(o.mandatoryOnCreate ?? [])],
      hasMoreFalse: o.hasMoreFalse ?? false,
      clients,
      statuses: [...STATUSES],
      resolvingStatuses: [...RESOLVING_STATUSES],
      priorities: [...PRIORITIES],
      categories: [...CATEGORIES],
      groups: GROUPS.map((g) => ({ ...g })),
      tickets: seedTickets(clients, o.tickets ?? seededTickets, nextId),
      notes: [],
      worklogs: [],
      contracts: seedContracts(clients),
      nextId,
    }
  }
  const state = fresh()
  const built = simApp({
    errorBody: (_status, message) => errorBody(null, message),
    faultTarget: (request: FastifyRequest) => `${request.url.split('?')[0]}#${rootFields(request.body)}`,
    logger: o.logger ?? false,
  })
  const { app } = built

  /** 800 a minute per token, refused calls counted; the refusal as SuperOps gives it. */
  const limited = (token: string) => {
    const { rate } = state
    const now = Date.now()
    let w = rate.windows[token]
    if (!w || now - w.start >= 60_000) {
      w = { start: now, count: 0 }
      rate.windows[token] = w
    }
    w.count++
    return w.count > rate.perMinute
  }

  /** A test's switch: the next matching calls are throttled whatever the count (`PUT /__sim/throttle`). */
  const forced = (body: unknown) => {
    const f = state.rate.forced
    if (!f || f.count <= 0 || (f.match !== null && !new RegExp(f.match).test(rootFields(body)))) return false
    f.count--
    return true
  }
  app.put('/__sim/throttle', async (request, reply) => {
    const b = (request.body ?? {}) as { count?: unknown; match?: unknown }
    state.rate.forced = { count: Number(b.count ?? 1), match: typeof b.match === 'string' ? b.match : null }
    return reply.code(204).send()
  })

  app.post('/msp', async (request, reply) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? ''
    if ((bearer !== '' && limited(bearer)) || forced(request.body)) {
      state.rate.refused++
      const { retryAfterSeconds } = state.rate
      if (retryAfterSeconds !== null) reply.header('retry-after', String(retryAfterSeconds))
      const body = errorBody('rate_limit_exceeded', 'Rate limit exceeded. Please retry after some time.')
      return reply.code(state.rate.style === 'http' ? 429 : 200).send(body)
    }
    const token = state.tokens.find((t) => t.token === bearer)
    if (!token) return reply.code(401).send({ message: 'The API token used is invalid or deleted' })
    if (request.headers.customersubdomain !== state.subdomain)
      return reply.code(400).send({ message: 'Invalid CustomerSubDomain header' })
    const body = (request.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown }
    if (typeof body.query !== 'string') return reply.code(400).send({ message: 'query is required' })
    const result = await graphql({
      schema: superOpsSchema,
      source: body.query,
      rootValue: resolvers(state),
      contextValue: { user: token.user, readOnly: token.readOnly === true },
      variableValues:
        body.variables && typeof body.variables === 'object'
          ? (body.variables as Record<string, unknown>)
          : {},
      operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
    })
    return reply.code(200).send(result)
  })

  const technician = superOpsTechnician(state)
  const pushes = superOpsPushes()
  technicianRoutes(app, technician, pushes)

  const reset = () => Object.assign(state, fresh())
  const sim = await listen(built, state, reset, o.port ?? 0)
  const endpoint = `${sim.url}/msp`
  return {
    ...sim,
    technician,
    pushes,
    endpoint,
    describe: () =>
      [
        `SuperOps MSP GraphQL simulator (baseUrl ${endpoint})`,
        `  auth:    Authorization: Bearer ${o.apiToken ?? API_TOKEN}, CustomerSubDomain: ${SUBDOMAIN}`,
        `           ("${READ_ONLY_TOKEN}" may read but not write)`,
        `  limits:  ${state.rate.perMinute} requests a minute per token, then rate_limit_exceeded in an HTTP 200 body`,
        `  seeded:  ${state.clients.length} clients, ${state.tickets.length} tickets of the last days`,
        `           statuses ${state.statuses.join(', ')} (resolving: ${state.resolvingStatuses.join(', ')})`,
        `           technician groups ${state.groups.map((g) => g.name).join(', ')}; ${state.contracts.length} client contracts`,
        '  sync:    POST /__sim/technician/{close|reopen|merge|delete|note|time} {id, into, text}; no push',
      ].join('\n'),
  }
}
