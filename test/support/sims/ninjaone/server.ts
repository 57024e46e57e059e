// A simulated NinjaOne instance on loopback, written from NinjaOne's Public API v2 spec and public
// clients (docs/psa/ninjaone.md lists them), not from our adapter:
//   /ws/oauth/token, /ws/oauth/authorize   oauth.ts (refresh tokens rotate; a spent one is refused)
//   /v2/... (also /api/v2/...)             `Authorization: Bearer <token>`; 401 when missing, unknown or expired
//   tickets.ts                             organizations, forms, statuses, boards, tickets, comments, log entries
//   sync.ts                                the webhook, a technician, pushes
// Refusals are NinjaOne's application errors {resultCode, errorMessage, incidentId}. Throttling: the
// harness's faults (429 with Retry-After), and `state.htmlRateLimit` answers that many calls with an
// HTML "rate limit" page (HTTP 200), as NinjaOne is reported to.
import { randomUUID } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { listen, type OpCalls, type StartedSim, simApp } from '../harness.js'
import { installOauth } from './oauth.js'
import { seedBoards, seedForms, seedOrganizations, seedStatuses, seedTickets } from './seed.js'
import { installSync, type NinjaSync, webhookRoutes } from './sync.js'
import { type Answer, type ApiRequest, refuse, ticketRoutes } from './tickets.js'
import type { NinjaState } from './types.js'

export type { NinjaState } from './types.js'

/** The calls whose answers a test loses: the create, a comment (a note or the resolution), the PUT. */
export const ninjaCalls: OpCalls = {
  create: { method: 'POST', match: '/v2/ticketing/ticket$' },
  note: { method: 'POST', match: '/v2/ticketing/ticket/\\d+/comment$' },
  'close-note': { method: 'POST', match: '/v2/ticketing/ticket/\\d+/comment$' },
  close: { method: 'PUT', match: '/v2/ticketing/ticket/\\d+$' },
}

export interface NinjaOneSimOptions {
  port?: number
  clientId?: string
  clientSecret?: string
  /** Seconds an access token lasts (NinjaOne's: an hour). */
  tokenLifetimeSeconds?: number
  /** Whether refresh tokens rotate on use (default true). */
  rotate?: boolean
  /** Organizations to seed (450 by default: three pages of 200). */
  organizations?: number
  tickets?: number
  logger?: boolean
}

export type NinjaOneSim = StartedSim<NinjaState> &
  NinjaSync & {
    /** A new refresh token of the user, as a consent would give (for tests that connect directly). */
    grant(): string
  }

/** multipart/form-data parts by name (text parts only: what the comment call sends). */
export function parseMultipart(body: string, contentType: string): Record<string, string> {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2]
  if (!boundary) return {}
  const parts: Record<string, string> = {}
  for (const chunk of body.split(`--${boundary}`)) {
    const at = chunk.indexOf('\r\n\r\n')
    if (at < 0) continue
    const name = /name="([^"]+)"/.exec(chunk.slice(0, at))?.[1]
    if (name) parts[name] = chunk.slice(at + 4).replace(/\r\n$/, '')
  }
  return parts
}

export async function startNinjaOneSim(o: NinjaOneSimOptions = {}): Promise<NinjaOneSim> {
  const built = simApp({
    errorBody: (status, message) => ({
      resultCode: status === 429 ? 'TOO_MANY_REQUESTS' : 'FAILURE',
      errorMessage: message,
    }),
    logger: o.logger ?? false,
  })
  const { app } = built
  const fresh = (): NinjaState => {
    const organizations = seedOrganizations(o.organizations ?? 450)
    const refreshToken = `ninja-rt-${randomUUID()}`
    return {
      credentials: {
        clientId: o.clientId ?? 'ninja-sim-client',
        clientSecret: o.clientSecret ?? 'ninja-sim-secret',
        refreshToken,
      },
      refreshTokens: { [refreshToken]: 'live' },
      rotate: o.rotate ?? true,
      accessTokens: {},
      codes: {},
      tokenLifetimeSeconds: o.tokenLifetimeSeconds ?? 3600,
      htmlRateLimit: 0,
      organizations,
      forms: seedForms(),
      statuses: seedStatuses(),
      boards: seedBoards(),
      tickets: seedTickets({ organizations }, o.tickets ?? 300),
      webhook: null,
      nextId: { ticket: 5001, log: 1 },
    }
  }
  const state = fresh()
  const sync = installSync(app, state)

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string' }, (request, body, done) =>
    done(null, parseMultipart(String(body), String(request.headers['content-type'] ?? ''))),
  )
  installOauth(app, state)

  function guard(request: FastifyRequest): Answer | { user: boolean } {
    const auth = request.headers.authorization
    const value = typeof auth === 'string' && /^bearer /i.test(auth) ? auth.slice(7).trim() : ''
    if (value === '')
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: 'Missing authorization header' },
      }
    const t = state.accessTokens[value]
    if (!t || t.expiresAt <= Date.now())
      return { status: 401, body: { error: 'invalid_token', error_description: 'Invalid or expired token' } }
    return { user: t.user }
  }

  app.all('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, 'http://sim')
    const path = url.pathname.replace(/\/+$/, '').replace(/^\/api\/v2\//, '/v2/')
    const send = (a: Answer) =>
      a.body === null ? reply.code(a.status).send() : reply.code(a.status).send(a.body)
    if (!path.startsWith('/v2/')) return send(refuse(404, `No route for ${url.pathname}`, 'NOT_FOUND'))
    const g = guard(request)
    if ('status' in g) return send(g)
    if (state.htmlRateLimit > 0) {
      state.htmlRateLimit--
      return reply
        .code(200)
        .type('text/html')
        .send(
          '<html><body><h1>Rate limit exceeded</h1><p>Too many requests. Please slow down.</p></body></html>',
        )
    }
    const req: ApiRequest = {
      method: request.method,
      segments: path
        .slice('/v2/'.length)
        .split('/')
        .map((s) => decodeURIComponent(s)),
      params: url.searchParams,
      body: request.body,
      user: g.user,
    }
    const answer =
      ticketRoutes(req, state) ??
      webhookRoutes(req, state) ??
      refuse(404, `No route for ${url.pathname}`, 'NOT_FOUND')
    // NinjaOne reports a ticket made through the API too.
    const made = req.method === 'POST' && path === '/v2/ticketing/ticket' && answer.status === 200
    const ticket = made ? state.tickets.at(-1) : undefined
    if (ticket) sync.activity(ticket, 'NINJA_TICKETING_TICKET_CREATED')
    return send(answer)
  })

  const sim = await listen(built, state, () => Object.assign(state, fresh()), o.port ?? 0)
  const grant = () => {
    const token = `ninja-rt-${randomUUID()}`
    state.refreshTokens[token] = 'live'
    return token
  }
  const describe = () =>
    [
      `NinjaOne API (baseUrl ${sim.url}; the API at ${sim.url}/v2; tokens at ${sim.url}/ws/oauth/token; consent at ${sim.url}/ws/oauth/authorize)`,
      `  clientId: ${state.credentials.clientId}  clientSecret: ${state.credentials.clientSecret}`,
      `  refreshToken: ${state.credentials.refreshToken} (rotates on use; or connect through the consent page)`,
      `  seeded: ${state.organizations.length} organizations (e.g. ${state.organizations[0]?.id} ${state.organizations[0]?.name}); forms ${state.forms.map((f) => f.name).join(', ')}; ${state.tickets.length} tickets`,
    ].join('\n')
  return { ...sim, describe, grant, ...sync }
}
