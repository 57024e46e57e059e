// A simulated Autotask PSA tenant (REST API V1.0) on loopback. One server plays both the zone lookup
// (`GET {any}/ATServicesRest/V1.0/ZoneInformation?user=`, no credentials) and the zone's REST root
// (`{zoneUrl}V1.0/...`); paths are case-insensitive and the API answers under any prefix before
// "ATServicesRest/", so a test can move the zone (see `AutotaskState.movedZone`). Every API call is
// checked in Autotask's order of concerns: the zone, the three credential headers, the thread limit
// (`threadLimit` calls in flight per ApiIntegrationCode × object endpoint; ZoneInformation is exempt,
// ThresholdInformation is not), the tenant's rolling 60-minute budget, then the API user's permissions.
// The harness's faults (fail, latency, rate) act before all of these, on every call it logs; its
// loseAnswer fault drops the connection after a ticket operation took effect (`autotaskCalls`).
// A fresh tenant holds more tickets than one query page, a queue picklist that marks a default (unless
// `noDefault` says otherwise) and refuses what Autotask refuses: a ticket without a queue, status or
// priority, texts longer than the lengths its field information serves (tickets.ts).
// Two-way sync: ticket webhooks and their callouts (webhooks.ts), a technician (technician.ts).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { listen, type OpCalls, type StartedSim, simApp } from '../harness.js'
import type { PushSender, Technician } from '../push.js'
import { seedBilling } from './billing-seed.js'
import { type ApiAnswer, entitiesOf, errors, routeApi } from './routes.js'
import { seedCompanies, seedPicklists, seedTickets } from './seed.js'
import { seedResources } from './sync-seed.js'
import { autotaskTechnician, technicianRoutes } from './technician.js'
import { API_RESOURCE_ID } from './tickets.js'
import type { AutotaskState } from './types.js'
import { apiWrite, autotaskRetryDelaysMs, ticketWebhooks, type Webhooks } from './webhooks.js'

export type { AutotaskState } from './types.js'

export interface AutotaskSimOptions {
  port?: number
  /** The API user's email (UserName header and ZoneInformation's `user`). */
  username?: string
  secret?: string
  /** The tracking identifier (ApiIntegrationCode header). */
  integrationCode?: string
  /** How many companies to seed (company 0 is the MSP itself). */
  companies?: number
  threadLimit?: number
  hourlyLimit?: number
  /** Entities the API user lacks permission for (403), e.g. ['Tickets']. */
  deny?: string[]
  /** Tickets in the tenant before anything else (default 600: more than one query page of 500). */
  tickets?: number
  /**
   * Ticket picklists (e.g. ['queueID'], ['priority']) on which this tenant marks no default value: a
   * tenant whose queue picklist marks none needs the partner to choose a queue.
   */
  noDefault?: string[]
  /** The tenant requires a ticket category on every ticket (its ticket category settings). */
  requireCategory?: boolean
  /** The waits before each retry of a failed webhook callout (Autotask's: 5 tries within about 2 minutes). */
  pushRetryDelaysMs?: number[]
  logger?: boolean
}

/** The simulator's handle: a technician working its tickets, the webhook callouts it sends, and
 * Autotask deactivating a webhook (Webhooks.deactivate). */
export type AutotaskSim = StartedSim<AutotaskState> & {
  technician: Technician
  pushes: PushSender
  deactivateWebhook(id: number): Promise<number | null | undefined>
}

/** The calls of each ticket operation, whose answers a test loses (the harness's loseAnswer). */
export const autotaskCalls: OpCalls = {
  create: { method: 'POST', match: '/V1\\.0/Tickets$' },
  note: { method: 'POST', match: '/V1\\.0/Tickets/\\d+/Notes$' },
  'close-note': { method: 'POST', match: '/V1\\.0/Tickets/\\d+/Notes$' },
  close: { method: 'PATCH', match: '/V1\\.0/Tickets$' },
}

const UNAUTHORIZED = 'Authorization has been denied for this request.'
const HOUR = 60 * 60 * 1000

type Where =
  | { kind: 'api'; prefix: string; segments: string[] }
  | { kind: 'zone' | 'versions' | 'none'; prefix: string; segments: string[] }

/** Where a path points: the prefix before "ATServicesRest", and the segments after "V1.0/". */
function locate(pathname: string): Where {
  const m = /^(.*?)\/atservicesrest(?:\/(.*))?$/i.exec(pathname)
  if (!m) return { kind: 'none', prefix: '', segments: [] }
  const prefix = m[1] ?? ''
  const rest = (m[2] ?? '').split('/').filter((s) => s !== '')
  const decoded = rest.map((s) => decodeURIComponent(s))
  if (decoded.length === 1 && decoded[0]?.toLowerCase() === 'versioninformation') {
    return { kind: 'versions', prefix, segments: [] }
  }
  if (decoded[0]?.toLowerCase() !== 'v1.0') return { kind: 'none', prefix, segments: [] }
  const segments = decoded.slice(1)
  const zone = segments.length === 1 && segments[0]?.toLowerCase() === 'zoneinformation'
  return { kind: zone ? 'zone' : 'api', prefix, segments }
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

export async function startAutotaskSim(o: AutotaskSimOptions = {}): Promise<AutotaskSim> {
  const built = simApp({
    errorBody: (_status, message) => ({ errors: [message] }),
    logger: o.logger ?? false,
  })
  const { app } = built
  let baseUrl = ''
  const fresh = (): AutotaskState => {
    const companies = seedCompanies(o.companies ?? 1200)
    const picklists = seedPicklists()
    const username = o.username ?? 'api-user@acme.example'
    for (const name of o.noDefault ?? [])
      for (const v of picklists.Tickets?.[name] ?? []) v.isDefaultValue = false
    return {
      credentials: {
        username,
        secret: o.secret ?? 'api-secret',
        integrationCode: o.integrationCode ?? 'TRACKING-ID-1',
      },
      zoneUrl: `${baseUrl}/ATServicesRest/`,
      movedZone: false,
      deny: [...(o.deny ?? [])],
      threadLimit: o.threadLimit ?? 3,
      inFlight: {},
      usage: {
        externalRequestThreshold: o.hourlyLimit ?? 10000,
        requestThresholdTimeframe: 60,
        presetCount: 0,
        requestTimes: [],
      },
      rules: {
        requireQueue: true,
        requireNoteTitle: true,
        requireCategory: o.requireCategory ?? false,
        lengths: {},
        unqueryable: [],
      },
      tickets: seedTickets(o.tickets ?? 600, companies),
      notes: {},
      companies,
      picklists,
      ...seedBilling(companies),
      adjustments: [],
      nextId: { ticket: 128900, note: 30777600, adjustment: 88100, time: 41200, webhook: 1, child: 1 },
      resources: seedResources(username, API_RESOURCE_ID),
      timeEntries: [],
      ticketWebhooks: [],
      ticketWebhookFields: [],
      ticketWebhookExcludedResources: [],
    }
  }
  const state = fresh()
  const hooks: Webhooks = ticketWebhooks(state, o.pushRetryDelaysMs ?? autotaskRetryDelaysMs)
  const technician = autotaskTechnician(state, hooks)
  technicianRoutes(app, technician, hooks)

  // Autotask reads a missing body as null (a query then fails on its filter), so an empty JSON body is
  // not a parse error here; malformed JSON is.
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
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) =>
    reply.code(error.statusCode ?? 500).send({ errors: [error.message] }),
  )

  // Threads are counted from the moment a call arrives (so the harness's latency holds them); a call
  // beyond the limit is marked here and refused once the harness has logged it.
  const overLimit = new WeakSet<FastifyRequest>()
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const where = locate(new URL(request.url, 'http://sim').pathname)
    if (where.kind !== 'api') return
    const key = `${header(request, 'ApiIntegrationCode') ?? ''}|${(where.segments[0] ?? '').toLowerCase()}`
    if ((state.inFlight[key] ?? 0) >= state.threadLimit) {
      overLimit.add(request)
      return
    }
    state.inFlight[key] = (state.inFlight[key] ?? 0) + 1
    reply.raw.once('close', () => {
      state.inFlight[key] = Math.max(0, (state.inFlight[key] ?? 1) - 1)
    })
  })

  function guard(request: FastifyRequest, where: Where): ApiAnswer | null {
    const root = `${where.prefix}/ATServicesRest/`.toLowerCase()
    if (state.movedZone && root !== new URL(state.zoneUrl).pathname.toLowerCase())
      return errors(401, UNAUTHORIZED)
    const { username, secret, integrationCode } = state.credentials
    const [user, pass, code] = ['UserName', 'Secret', 'ApiIntegrationCode'].map((h) => header(request, h))
    if (!user || !pass || !code) return errors(401, UNAUTHORIZED)
    // As reported for real tenants: an unknown user or tracking identifier is a 500, a bad secret a 401.
    if (user.toLowerCase() !== username.toLowerCase())
      return errors(500, 'Zone information could not be determined')
    if (pass !== secret) return errors(401, UNAUTHORIZED)
    if (code !== integrationCode) return errors(500, 'IntegrationCode is invalid.')
    if (overLimit.has(request)) {
      return errors(429, `API thread threshold of ${state.threadLimit} threads has been exceeded.`)
    }
    const { usage } = state
    const since = Date.now() - HOUR
    usage.requestTimes = usage.requestTimes.filter((t) => t > since)
    if (usage.presetCount + usage.requestTimes.length >= usage.externalRequestThreshold) {
      const limit = usage.externalRequestThreshold
      return errors(429, `The API request threshold of ${limit} requests per 60 minutes has been exceeded.`)
    }
    usage.requestTimes.push(Date.now())
    const denied = entitiesOf(where.segments).find((e) =>
      state.deny.some((d) => d.toLowerCase() === e.toLowerCase()),
    )
    if (denied) {
      return errors(403, `The logged in Resource does not have the adequate permissions to access ${denied}.`)
    }
    return null
  }

  app.all('/*', async (request, reply) => {
    const url = new URL(request.url, 'http://sim')
    const where = locate(url.pathname)
    const root = `http://${request.headers.host ?? '127.0.0.1'}${where.prefix}/ATServicesRest/`
    if (where.kind === 'versions') return reply.send({ apiVersions: ['1.0'] })
    if (where.kind === 'zone') {
      const user = [...url.searchParams].find(([k]) => k.toLowerCase() === 'user')?.[1] ?? ''
      if (user.toLowerCase() !== state.credentials.username.toLowerCase()) {
        return reply.code(500).send({ errors: ['Zone information could not be determined'] })
      }
      return reply.send({
        zoneName: 'Simulator Zone (SIM1)',
        url: state.zoneUrl,
        webUrl: `${baseUrl}/`,
        ci: 1,
      })
    }
    if (where.kind === 'none') {
      return reply
        .code(404)
        .send({ errors: [`No HTTP resource was found that matches the request URI '${url.pathname}'.`] })
    }
    const refused = guard(request, where)
    // The API user's own writes reach the webhooks too (as the API user's resource, which a webhook
    // may exclude).
    const write = refused
      ? null
      : apiWrite(state, hooks, API_RESOURCE_ID, request.method, where.segments, request.body)
    const answer =
      refused ??
      hooks.route({
        method: request.method,
        segments: where.segments,
        params: url.searchParams,
        body: request.body,
        root,
        path: url.pathname,
      }) ??
      routeApi(
        {
          method: request.method,
          segments: where.segments,
          params: url.searchParams,
          body: request.body,
          root,
          path: url.pathname,
        },
        state,
      )
    if (write && answer.status < 300) write((answer.body as { itemId?: number } | null)?.itemId)
    return reply.code(answer.status).send(answer.body)
  })

  const sim = await listen(
    built,
    state,
    () => {
      hooks.reset()
      Object.assign(state, fresh())
    },
    o.port ?? 0,
  )
  baseUrl = sim.url
  state.zoneUrl = `${baseUrl}/ATServicesRest/`
  const describe = () =>
    [
      `Autotask REST API V1.0 (zone lookup: GET ${baseUrl}/ATServicesRest/V1.0/ZoneInformation?user=${state.credentials.username})`,
      `  baseUrl (REST root): ${state.zoneUrl}`,
      `  headers: UserName: ${state.credentials.username}  Secret: ${state.credentials.secret}  ApiIntegrationCode: ${state.credentials.integrationCode}`,
      `  seeded: ${state.companies.length} companies, ${state.tickets.length} tickets; ticket statuses, priorities, queues etc. at ${state.zoneUrl}V1.0/Tickets/entityInformation/fields`,
      `  billing: ${state.contracts.length} contracts (company ${state.companies[1]?.id ?? '-'} has an active one), ${state.contractServices.length} contract services (units per month in ContractServiceUnits, changed by POST ContractServiceAdjustments)`,
    ].join('\n')
  return {
    ...sim,
    describe,
    technician,
    pushes: hooks.pushes,
    deactivateWebhook: (id) => hooks.deactivate(id),
  }
}
