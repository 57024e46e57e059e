// Every route of the service's own OpenAPI document under hostile input
// (docs/decisions/hostile-input/fuzzing.md), on SQLite and (a slice of it) PostgreSQL: bad bodies (wrong
// types, missing and extra fields, NUL, odd Unicode, huge and deeply nested values, invalid JSON, other
// content types), bad path parameters, bad query strings and bad, missing or garbled credentials, sent
// over HTTP to a real service on loopback with valid and invalid credentials of the right tenant. For
// every answer: no 5xx; every 4xx in the contract's failure shape; and a refused request changed no row
// of any table. The barrage ends with a valid alert round trip on the same service.
//
// Fixed seed and a bounded number of runs per route: FUZZ_RUNS (default 25: the routes grew from 112 to
// some 150, and the file must stay well inside the runner's timeout) and FUZZ_SEED raise or vary them locally, e.g. `FUZZ_RUNS=200 npm test -- test/main/app.fuzz-sqlite.test.ts`.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { type Setup, setupIntegration } from '../fixtures.js'
import { type Backend, type Response, startService, type TestService } from '../service.js'
import { expectSyncSuccess } from '../shapes.js'
import {
  type Auth,
  expand,
  type GoodValues,
  type JsonSchema,
  type Operation,
  type Parameter,
  type RequestPlan,
  requestPlan,
  type UrlValue,
} from './hostile.js'

export const runs = Number(process.env.FUZZ_RUNS ?? 25)
const seed = Number(process.env.FUZZ_SEED ?? 20261010)

/**
 * Alert outcomes the decision table records as events by design (rows 5–18 of docs/decision-table.md): an
 * alert that is well-formed and authenticated but refused is audited, so these 4xx change rows.
 */
const recordedOutcomes = new Set([
  'INTEGRATION_NOT_ACTIVE',
  'ALERTING_DISABLED',
  'INVALID_ALERT',
  'ACCOUNT_UNKNOWN',
  'ACCOUNT_NOT_MAPPED',
  'NO_RULE',
  'RULES_DISABLED',
  'RULE_GONE',
  'TICKET_NOT_FOUND',
  'TICKET_CLOSED',
  'CORRELATION_ID_REQUIRED',
])

/**
 * Recurrences that once stopped the service or made every alert slow, sent as maintenance windows' rules
 * beside a sound one (docs/decisions/maintenance/recurrence-limits.md): each must be a prompt 400.
 */
const hostileRecurrences = [
  'FREQ=DAILY;INTERVAL=-1',
  'FREQ=DAILY;INTERVAL=-5',
  'FREQ=WEEKLY;INTERVAL=-1',
  'FREQ=DAILY;INTERVAL=0',
  'FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
  'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
  'FREQ=DAILY;COUNT=100000000',
]

const alertPosts = new Set([
  '/api/oem-alerts-api/alert/sync',
  '/api/oem-alerts-api/alert',
  '/api/oem-alerts-api/alerts',
])

interface OpenApiOperation {
  parameters?: Parameter[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  security?: Record<string, unknown>[]
}

/** The schema with its `#/components/schemas/…` references replaced by what they name. */
function resolveRefs(schema: unknown, components: Record<string, unknown>, depth = 0): any {
  if (depth > 40 || typeof schema !== 'object' || schema === null) return schema
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(s, components, depth + 1))
  const ref = (schema as { $ref?: unknown }).$ref
  if (typeof ref === 'string')
    return resolveRefs(components[ref.replace('#/components/schemas/', '')], components, depth + 1)
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, resolveRefs(v, components, depth + 1)]),
  )
}

function operationsOf(
  paths: Record<string, Record<string, OpenApiOperation>>,
  components: Record<string, unknown> = {},
): Operation[] {
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const scheme = Object.keys(op.security?.[0] ?? {})[0]
      return {
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: resolveRefs(op.requestBody?.content?.['application/json']?.schema ?? null, components),
        security:
          scheme === 'vendorToken' || scheme === 'partnerKey' || scheme === 'adminToken' ? scheme : null,
      }
    }),
  )
}

/** Percent-encodes every byte that is not unreserved (lone surrogates become U+FFFD, as on the wire). */
const encode = (s: string): string =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('')

/** What the world looks like to the fuzzer: ids, credentials and the good value of each field. */
interface World {
  a: Setup
  b: Setup
  vendorToken: string
  serviceId: string
  correlationId: string
  sandboxTicketId: string
  tokenId: string
  windowId: string
}

function goodValues(w: World): GoodValues {
  const a = w.a
  return new Map<string, unknown>([
    ['clientId', a.clientId],
    ['clientSecret', a.clientSecret],
    ['organizationOemToken', a.orgToken],
    ['integrationId', a.integrationId],
    ['grantType', 'client_credentials'],
    ['scope', 'vendor_manage'],
    ['grant_type', 'client_credentials'],
    ['client_id', a.clientId],
    ['client_secret', a.clientSecret],
    ['organization_oem_token', a.orgToken],
    ['productGroup', 'Endpoint Security'],
    ['alertType', 'Malware Detected'],
    ['accountId', 'acme-001'],
    ['vendorAccountId', 'acme-001'],
    ['vendorId', a.vendorId],
    ['partnerId', a.partnerId],
    ['kind', 'sandbox'],
    ['psaCompanyId', '100'],
    ['serviceId', w.serviceId],
    ['correlationId', w.correlationId],
    ['title', 'Fuzzed alert'],
    // Maintenance windows: a real zone, and the seeds above (a start in the year 1 among the dates).
    ['timeZone', 'Europe/Berlin'],
    ['rrule', fc.constantFrom(...hostileRecurrences, 'FREQ=WEEKLY;BYDAY=SU')],
    ['startDate', fc.constantFrom('0001-01-01', '2026-01-01', '9999-12-31')],
  ])
}

/** The id a path parameter names when the plan says "good". */
function goodParam(w: World, path: string, name: string): string {
  switch (name) {
    case 'accountId':
      return 'acme-001'
    case 'serviceId':
      return w.serviceId
    case 'ruleId':
      return w.a.ruleId ?? 'no-rule'
    case 'correlationId':
      return w.correlationId
    case 'ticketId':
      return w.sandboxTicketId
    case 'tokenId':
      return w.tokenId
    case 'what':
      return 'companies'
    case 'windowId':
      return w.windowId
  }
  if (path.startsWith('/api/admin/vendors/')) return w.a.vendorId
  if (path.startsWith('/api/admin/partners/')) return w.a.partnerId
  if (path.includes('/integrations/')) return w.a.integrationId
  return '01900000-0000-7000-8000-000000000000' // deliveries: none exist
}

function authorization(w: World, svc: TestService, op: Operation, auth: Auth): string | null {
  const own = { vendorToken: w.vendorToken, partnerKey: w.a.partnerKey, adminToken: svc.adminToken }
  const other = { vendorToken: w.a.partnerKey, partnerKey: svc.adminToken, adminToken: w.vendorToken }
  const tenant = {
    vendorToken: w.b.vendorToken,
    partnerKey: w.b.partnerKey,
    adminToken: `${svc.adminToken}x`,
  }
  const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`
  switch (auth) {
    case 'valid':
      return op.security ? `Bearer ${own[op.security]}` : null
    case 'none':
      return null
    case 'another-kind':
      return `Bearer ${other[op.security ?? 'adminToken']}`
    case 'another-tenant':
      return `Bearer ${tenant[op.security ?? 'adminToken']}`
    case 'garbage':
      return 'Bearer abp_%00\u00ff'
    case 'empty-bearer':
      return 'Bearer '
    case 'lowercase-bearer':
      return `bearer ${op.security ? own[op.security] : 'x'}`
    case 'basic-garbage':
      return basic('%E0%A4%A:\u0000')
    case 'basic-valid':
      return basic(`${w.a.clientId}:${w.a.clientSecret}`)
    case 'huge':
      return `Bearer ${'x'.repeat(8000)}`
  }
}

function urlPart(v: UrlValue, good: string): string {
  if (v.kind === 'good') return encode(good)
  if (v.kind === 'raw') return v.text
  return encode(expand(v.value, 'url'))
}

/**
 * The events long-poll answers at once here: a valid `waitSeconds` would hold each request up to 25 s.
 * Its waits are test/webhooks/routes/events.test.ts's.
 */
function noWait(op: Operation, q: RequestPlan['query'][number]): UrlValue {
  const valid = q.value.kind === 'value' && /^\d+$/.test(String(q.value.value))
  return op.path === '/api/vendor-api/events' && q.name === 'waitSeconds' && valid
    ? { kind: 'value', value: '0' }
    : q.value
}

interface Built {
  method: string
  path: string
  headers: Record<string, string>
  body: Uint8Array | undefined
}

function build(w: World, svc: TestService, op: Operation, good: GoodValues, plan: RequestPlan): Built {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    urlPart(plan.params[name] ?? { kind: 'good' }, goodParam(w, op.path, name)),
  )
  const query = plan.query
    .map((q) => `${encode(q.name)}=${urlPart(noWait(op, q), String(good.get(q.name) ?? ''))}`)
    .join('&')
  const headers: Record<string, string> = { ...plan.headers }
  const auth = authorization(w, svc, op, plan.auth)
  if (auth !== null) headers.authorization = auth
  let body: Uint8Array | undefined
  if (plan.body && op.method !== 'GET') {
    const text =
      plan.body.kind === 'raw' ? plan.body.text : expand(JSON.stringify(plan.body.value) ?? 'null', 'json')
    body = Buffer.from(text, 'utf8')
    if (plan.contentType !== null) headers['content-type'] = plan.contentType
  }
  return { method: op.method, path: query ? `${path}?${query}` : path, headers, body }
}

async function send(url: string, r: Built): Promise<Response> {
  const res = await fetch(`${url}${r.path}`, { method: r.method, headers: r.headers, body: r.body })
  const text = await res.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    // not JSON: the shape check says so
  }
  return { status: res.status, headers: res.headers, body, text }
}

/** What keeps a 4xx from being in the contract's failure shape (the route's own variant of it). */
function shapeProblems(op: Operation, res: Response): string[] {
  const b = res.body as Record<string, unknown> | null
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return ['the body is not a JSON object']
  const problems: string[] = []
  if (b.statusCode !== res.status) problems.push('statusCode is not the HTTP status')
  if (b.message !== 'failed') problems.push("message is not 'failed'")
  if (typeof b.error !== 'string' || b.error.length === 0) problems.push('no error code')
  if (typeof b.detail !== 'string' || b.detail.length === 0) problems.push('no detail')
  if (b.requestId !== res.headers.get('x-request-id')) problems.push('requestId is not x-request-id')
  if (op.method === 'POST' && alertPosts.has(op.path)) {
    const data = b.data as Record<string, unknown> | undefined
    const spelling = op.path.endsWith('/sync') ? 'correlationID' : 'correlationId'
    if (typeof data?.messageId !== 'string' || !(spelling in data))
      problems.push(`no data {messageId, ${spelling}}`)
  }
  if (op.path === '/api/oauth/token') {
    if (typeof b.error_description !== 'string') problems.push('no error_description')
    if (!/^(invalid_request|invalid_client|invalid_scope|unsupported_grant_type)$/.test(String(b.error)))
      problems.push('error is not an RFC 6749 code')
  }
  return problems
}

function told(r: Built, res: Response): string {
  const body = r.body ? Buffer.from(r.body).toString('utf8') : ''
  return `${r.method} ${r.path.slice(0, 300)} ${JSON.stringify(r.headers).slice(0, 300)} ${body.slice(0, 300)}\n→ ${res.status} ${res.text.slice(0, 400)}`
}

/**
 * The barrage on one backend; each backend has its own test file, so the two run side by side. `perRoute`
 * is the number of requests per route: FUZZ_RUNS on SQLite; PostgreSQL's slice sends fewer of the same
 * seeded requests to every route, for what only PostgreSQL refuses (a NUL in text, say: the generators
 * send one often).
 */
export function fuzzRoutes(backend: Backend, perRoute = runs): void {
  describe(`every route under hostile input (${backend}, ${perRoute} requests a route)`, () => {
    let svc: TestService
    let world: World
    let operations: Operation[] = []

    /**
     * A working vendor token and a healthy sandbox, so each route starts from a working tenant. A new
     * token is asked for only when an earlier route broke the current one (revoked it, say), and the
     * answer is not insisted on: token issuance may be limited, and the fuzzing goes on regardless.
     */
    async function refresh(): Promise<void> {
      const works = await svc.request('GET', '/api/vendor-api/status/mapping', { token: world.vendorToken })
      if (works.status !== 200) {
        const token = await svc.request('POST', '/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: world.a.clientId,
            client_secret: world.a.clientSecret,
            organization_oem_token: world.a.orgToken,
          },
        })
        if (token.status === 200) world.vendorToken = token.body.access_token
      }
      await world.a.partner('DELETE', '/api/partner/sandbox/fault')
    }

    before(async () => {
      svc = await startService({
        backend,
        // Nothing left to run later that would change rows between two snapshots.
        env: { SNAPSHOT_COALESCE_MS: '0', WEBHOOK_RETRY_SCHEDULE: '86400' },
      })
      const a = await setupIntegration(svc, { partnerName: 'Fuzzed MSP' })
      const b = await setupIntegration(svc, { partnerName: 'Other MSP', vendorName: 'Other vendor' })
      const service = await svc.request('POST', '/api/vendor-api/organization/services', {
        token: a.vendorToken,
        body: { id: 'svc-1', name: 'EDR' },
      })
      assert.equal(service.status, 201, service.text)
      const created = expectSyncSuccess(await a.sync(), { status: 201, message: 'created' })
      const tickets = await a.partner('GET', '/api/partner/sandbox/tickets')
      const tokens = await svc.request('GET', `/api/admin/vendors/${a.vendorId}/tokens`, {
        token: svc.adminToken,
      })
      // A window to replace and delete (its routes then reach past the look-up).
      const window = await a.partner(
        'POST',
        `/api/partner/integrations/${a.integrationId}/maintenance-windows`,
        {
          name: 'Fuzzed window',
          recurrence: {
            rrule: 'FREQ=WEEKLY;BYDAY=SU',
            timeZone: 'Europe/Berlin',
            startTime: '01:00',
            durationMinutes: 60,
          },
        },
      )
      assert.equal(window.status, 201, window.text)
      world = {
        a,
        b,
        vendorToken: a.vendorToken,
        serviceId: 'svc-1',
        correlationId: created.correlationId,
        sandboxTicketId: tickets.body.data[0].id,
        tokenId: tokens.body.data[0].id,
        windowId: window.body.id,
      }
      const doc = await svc.request('GET', '/docs/json')
      assert.equal(doc.status, 200)
      operations = operationsOf(doc.body.paths, doc.body.components?.schemas)
    })
    after(() => svc?.close())

    test('the OpenAPI document lists the routes to fuzz', () => {
      assert.ok(operations.length > 60, `${operations.length} operations`)
    })

    test('no 5xx, every 4xx in the failure shape, no row changed by a refused request, on every route', async (t) => {
      const good = goodValues(world)
      for (const op of operations) {
        await t.test(`${op.method} ${op.path}`, async () => {
          await refresh()
          let baseline = await svc.snapshot()
          // Most requests are refused without a write: then the rows are the baseline's as they are.
          let written = await svc.writes()
          await fc.assert(
            fc.asyncProperty(requestPlan(op, good), async (plan) => {
              const request = build(world, svc, op, good, plan)
              const res = await send(svc.url, request)
              const said = told(request, res)
              assert.ok(res.status < 500, `a 5xx: ${said}`)
              const problems = res.status >= 400 ? shapeProblems(op, res) : []
              assert.ok(problems.length === 0, `not the failure shape (${problems.join('; ')}): ${said}`)
              const error = (res.body as { error?: unknown } | null)?.error
              const recorded =
                op.method === 'POST' && alertPosts.has(op.path) && recordedOutcomes.has(String(error))
              if (res.status >= 400 && !recorded) {
                const writes = await svc.writes()
                if (writes !== null && writes === written) return
                const now = await svc.snapshot()
                const changed = Object.keys(now).filter(
                  (t) => JSON.stringify(now[t]) !== JSON.stringify(baseline[t]),
                )
                assert.ok(
                  changed.length === 0,
                  `a refused request changed rows of ${changed.join(', ')}: ${said}`,
                )
                written = writes
              } else {
                // A success (or an audited refusal) may change rows: it is the next baseline. A
                // sandbox told to fail is made healthy again first.
                if (op.path === '/api/partner/sandbox/fault') await world.a.partner('DELETE', op.path)
                baseline = await svc.snapshot()
                written = await svc.writes()
              }
            }),
            { seed, numRuns: perRoute, endOnFailure: true },
          )
        })
      }
    })

    test('the service keeps working: a valid alert round trip after the barrage', async () => {
      assert.deepEqual((await svc.request('GET', '/readyz')).body, {
        status: 'ok',
        checks: backend === 'postgres+redis' ? { database: 'ok', redis: 'ok' } : { database: 'ok' },
      })
      const s = await setupIntegration(svc, { vendorName: 'After the barrage', partnerName: 'After MSP' })
      const opened = expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      const ticket = await svc.request('GET', `/api/oem-alerts-api/alert/${opened.correlationId}`, {
        token: s.vendorToken,
      })
      assert.equal(ticket.status, 200, ticket.text)
      assert.equal(ticket.body.status, 'open')
      expectSyncSuccess(
        await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: opened.correlationId }),
        { status: 200, message: 'closed', correlationId: opened.correlationId },
      )
      const queued = await svc.request('POST', '/api/oem-alerts-api/alert', {
        body: s.body({ title: 'Queued' }),
      })
      assert.equal(queued.status, 201, queued.text)
      await svc.counts() // the queued alert has been processed
      const events = await s.partner('GET', '/api/partner/events')
      assert.deepEqual(
        events.body.data.map((e: { event: string }) => e.event),
        ['Ticket Created', 'Ticket Closed', 'Ticket Created'],
      )
    })
  })
}
