// Hostile input on the PSA push route and on every route that sets a header the service sends
// (docs/decisions/hostile-input/fuzzing.md), over HTTP to a real service on loopback, against the
// simulators of the four pushing PSAs. The generic barrage (routes.ts) reaches the push route only with
// tokens of no connection; here every push carries a real connection's token and, mostly, credentials
// that verify (Halo's Basic auth, NinjaOne's secret header, Autotask's and ConnectWise's signatures over the
// exact bytes), with bodies around the 1,000-ticket cap, bad ids, stale times, forged key_urls and other
// content types. For every answer: no 5xx; every 4xx in the failure shape; a refused request changes no
// row (beyond the connection's count of refused pushes). For headers: no 5xx, and a header that breaks
// the rules of src/platform/http/header-fields.ts is never saved.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { headerFieldProblem } from '../../../src/platform/http/header-fields.js'
import { pushUrls } from '../../../src/psa-sync/secrets.js'
import { catalogue, type Setup, setupIntegration } from '../../support/fixtures.js'
import { nastyValue } from '../../support/fuzz/hostile.js'
import { runs } from '../../support/fuzz/routes.js'
import {
  autotaskService,
  connectWiseService,
  haloService,
  ninjaOneService,
} from '../../support/psa/service-fixtures.js'
import type { ServiceFixture } from '../../support/psa/through-service.js'
import { type Response, startService, type TestService } from '../../support/service.js'
import { signCallback } from '../../support/sims/connectwise/callbacks.js'
import type { ConnectWiseSim } from '../../support/sims/connectwise/server.js'
import type { StartedSim } from '../../support/sims/harness.js'
import { waitFor } from '../../support/wait.js'

const seed = Number(process.env.FUZZ_SEED ?? 20261010)

type Kind = 'halopsa' | 'autotask' | 'connectwise' | 'ninjaone'

interface Connection {
  kind: Kind
  partnerId: string
  url: string
  deactivationUrl: string
  secret: string
  sim: StartedSim<unknown>
}

function shapeProblems(res: Response): string[] {
  const b = res.body as Record<string, unknown> | null
  if (b === null || typeof b !== 'object') return ['the body is not a JSON object']
  const problems: string[] = []
  if (b.statusCode !== res.status) problems.push('statusCode is not the HTTP status')
  if (b.message !== 'failed') problems.push("message is not 'failed'")
  if (typeof b.error !== 'string' || b.error === '') problems.push('no error code')
  if (typeof b.detail !== 'string' || b.detail === '') problems.push('no detail')
  if (b.requestId !== res.headers.get('x-request-id')) problems.push('requestId is not x-request-id')
  return problems
}

async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Response> {
  const res = await fetch(url, { method, headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    // not JSON: the shape check says so
  }
  return { status: res.status, headers: res.headers, body: parsed as any, text }
}

/** A snapshot in which the connection's count of refused pushes (what a refused push may change) is left out. */
function withoutRefusedCount(snapshot: Record<string, string[]>): Record<string, string[]> {
  return {
    ...snapshot,
    psa_sync: (snapshot.psa_sync ?? []).map((row) =>
      JSON.stringify((JSON.parse(row) as [string, unknown][]).filter(([k]) => k !== 'pushes_refused')),
    ),
  }
}

const ticketId = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 2_000_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: -10, max: 2_000_000 }).map(String) },
  fc.constantFrom('0', '00012', '1e3', '１２３', '12 ', '', null, true, [1], { id: 1 }),
  nastyValue,
)
/** Around the cap: a few tickets, or 990 to 1,100 of them. */
const manyIds = fc.oneof(
  { weight: 4, arbitrary: fc.array(ticketId, { maxLength: 20 }) },
  fc.integer({ min: 990, max: 1100 }).map((n) => Array.from({ length: n }, (_, i) => i + 1)),
)
const time = fc.oneof(
  { weight: 4, arbitrary: fc.constant('now') },
  fc.constantFrom('2001-01-01T00:00:00Z', 'yesterday', '', '2999-01-01T00:00:00Z'),
  fc.integer({ min: -3_600_000, max: 3_600_000 }).map((ms) => new Date(Date.now() + ms).toISOString()),
)
const stamp = (t: string) => (t === 'now' ? new Date().toISOString() : t)

function kindBody(c: Connection, cwCompany: string): fc.Arbitrary<unknown> {
  switch (c.kind) {
    case 'halopsa':
      return manyIds.map((ids) =>
        ids.length === 1 ? { ticket: { id: ids[0] } } : ids.map((id) => ({ ticket_id: id })),
      )
    case 'ninjaone':
      return manyIds.map((ids) =>
        ids.map((id) => ({
          activityType: 'NINJA_TICKETING',
          statusCode: 'NINJA_TICKETING_TICKET_DELETED',
          ticketId: id,
        })),
      )
    case 'autotask':
      return fc.record({
        EntityType: fc.constantFrom('Ticket', 'ticket', 'Company', 7),
        Id: ticketId,
        EventTime: time.map(stamp),
        Action: fc.constantFrom('Update', 'Delete'),
      })
    case 'connectwise': {
      const sim = c.sim as ConnectWiseSim
      const key = `/${sim.state.codebase}apis/3.0/system/callbackkeys/${encodeURIComponent(sim.state.signingKey.id)}`
      const keyUrl = fc.oneof(
        { weight: 5, arbitrary: fc.constant(`${sim.url}${key}`) },
        fc.constantFrom(
          `${sim.url}/${sim.state.codebase}apis/3.0/company/companies`,
          `${sim.url}${key}?x=1`,
          `${sim.url}/login/companyinfo/acme`,
          'http://169.254.169.254/latest/meta-data',
          'not a url',
        ),
        nastyValue,
      )
      return fc.record({
        CompanyId: fc.oneof(
          { weight: 5, arbitrary: fc.constant(cwCompany) },
          fc.constantFrom('globex', '', 1),
        ),
        Type: fc.constantFrom('ticket', 'company', 'Ticket'),
        ID: ticketId,
        Metadata: fc.oneof({ weight: 5, arbitrary: keyUrl.map((key_url) => ({ key_url })) }, nastyValue),
      })
    }
  }
}

function authFor(c: Connection, body: string, cwKey: string): Record<string, string> {
  switch (c.kind) {
    case 'halopsa':
      return { authorization: `Basic ${Buffer.from(`alertbridge:${c.secret}`).toString('base64')}` }
    case 'ninjaone':
      return { 'x-alertbridge-secret': c.secret }
    case 'autotask':
      return { 'x-hook-signature': `sha1=${createHmac('sha1', c.secret).update(body).digest('base64')}` }
    case 'connectwise':
      return { 'x-content-signature': signCallback(body, cwKey) }
  }
}

describe('the PSA push route and the header-setting routes under hostile input', () => {
  let svc: TestService
  const connections: Connection[] = []
  let cwCompany = ''
  let s: Setup
  before(async () => {
    svc = await startService({
      env: {
        ALLOW_PRIVATE_NETWORK: 'true',
        PSA_PUSH_COALESCE_MS: '50',
        PSA_POLL_INTERVAL_MS: '86400000',
        PSA_POLL_PUSH_INTERVAL_MS: '86400000',
        WEBHOOK_RETRY_SCHEDULE: '86400',
      },
    })
    const fixtures: [Kind, ServiceFixture<StartedSim<unknown>>][] = [
      ['halopsa', haloService as ServiceFixture<StartedSim<unknown>>],
      ['autotask', autotaskService as ServiceFixture<StartedSim<unknown>>],
      ['connectwise', connectWiseService as ServiceFixture<StartedSim<unknown>>],
      ['ninjaone', ninjaOneService as ServiceFixture<StartedSim<unknown>>],
    ]
    for (const [kind, f] of fixtures) {
      const sim = await f.start()
      const settings = f.settings(sim.url) as { companyId?: string }
      if (kind === 'connectwise') cwCompany = settings.companyId ?? ''
      const created = await svc.request('POST', '/api/admin/partners', {
        token: svc.adminToken,
        body: { name: `${f.name} fuzzed`, psa: settings },
      })
      assert.equal(created.status, 201, created.text)
      await waitFor(
        async () => {
          const r = await svc.request('GET', '/api/partner/psa/sync', { token: created.body.apiKey })
          return r.status === 200 && r.body.mechanism !== 'poll'
        },
        { what: `${f.name}'s push` },
      )
      const link = await svc.services.store.psaSync.find(created.body.id)
      assert.ok(link)
      const urls = pushUrls(svc.url, link.secret)
      connections.push({
        kind,
        partnerId: created.body.id,
        url: urls.url,
        deactivationUrl: urls.deactivationUrl,
        secret: link.secret,
        sim,
      })
    }
    s = await setupIntegration(svc, { partnerName: 'Header MSP' })
  })
  after(async () => {
    await svc?.close()
    for (const c of connections) await c.sim.close()
  })

  for (const kind of ['halopsa', 'autotask', 'connectwise', 'ninjaone'] as const)
    test(`POST /api/psa-push/{token} and …/deactivated of a ${kind} connection: no 5xx, refusals change nothing`, async () => {
      const c = connections.find((x) => x.kind === kind)
      assert.ok(c)
      const other = connections.find((x) => x.kind !== kind)!
      const cwSim = connections.find((x) => x.kind === 'connectwise')!.sim as ConnectWiseSim
      const plan = fc.record({
        route: fc.constantFrom('push', 'push', 'push', 'deactivated'),
        token: fc.constantFrom('own', 'own', 'own', 'own', 'other', 'garbage'),
        body: fc.oneof(
          { weight: 6, arbitrary: kindBody(c, cwCompany).map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: nastyValue.map((v) => JSON.stringify(v) ?? 'null') },
          {
            weight: 1,
            arbitrary: fc.constantFrom('', '{', '{"a":1}{"b":2}', '\ufeff{}', 'x'.repeat(1024 * 1024 + 1)),
          },
        ),
        auth: fc.constantFrom('valid', 'valid', 'valid', 'valid', 'wrong', 'none'),
        contentType: fc.oneof(
          { weight: 6, arbitrary: fc.constant('application/json') },
          fc.constantFrom(
            'application/json; charset=utf-8',
            'text/plain',
            'application/x-www-form-urlencoded',
            null,
          ),
        ),
      })
      let baseline = withoutRefusedCount(await svc.snapshot())
      await fc.assert(
        fc.asyncProperty(plan, async (p) => {
          const target = p.token === 'own' ? c : other
          const base = p.route === 'push' ? target.url : target.deactivationUrl
          const url =
            p.token === 'garbage' ? base.replace(/psa-push\/[^/]+/, `psa-push/${'Z'.repeat(43)}`) : base
          const headers: Record<string, string> =
            p.auth === 'valid'
              ? authFor(c, p.body, cwSim.state.signingKey.key)
              : p.auth === 'wrong'
                ? authFor({ ...c, secret: `${c.secret}x` }, `${p.body}x`, 'wrong-key')
                : {}
          if (p.contentType !== null) headers['content-type'] = p.contentType
          const res = await send(url, 'POST', headers, p.body)
          const said = `${p.route} ${p.token} ${p.auth} ${p.contentType} ${p.body.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`
          assert.ok(res.status < 500, `a 5xx: ${said}`)
          if (res.status >= 400) {
            const problems = shapeProblems(res)
            assert.deepEqual(problems, [], `not the failure shape: ${said}`)
            const now = withoutRefusedCount(await svc.snapshot())
            const changed = Object.keys(now).filter(
              (t) => JSON.stringify(now[t]) !== JSON.stringify(baseline[t]),
            )
            assert.deepEqual(changed, [], `a refused request changed rows: ${said}`)
          } else {
            baseline = withoutRefusedCount(await svc.snapshot())
          }
        }),
        { seed, numRuns: runs * 2, endOnFailure: true },
      )
      // The connection still takes a genuine push afterwards.
      if (kind === 'halopsa') {
        const body = JSON.stringify({ ticket_id: 424242 })
        const ok = await send(
          c.url,
          'POST',
          { ...authFor(c, body, ''), 'content-type': 'application/json' },
          body,
        )
        assert.equal(ok.status, 200, ok.text)
      }
    })

  const badNames = [
    'Connection',
    'Transfer-Encoding',
    'Content-Length',
    'Host',
    'Proxy-Authorization',
    'TE',
    'Upgrade',
    'webhook-signature',
    'Webhook-Id',
    'Content-Type',
    'User-Agent',
    'Accept',
  ]
  const headerName = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom('Authorization', 'X-Key', "x-vendor_key.v2!#$%&'*+^`|~", ...badNames),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.constantFrom('a', '-', ' ', ':', '\r', '\n', 'é', '\u0000'),
        maxLength: 8,
      }),
    },
  )
  const headerValue = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.string({
        unit: fc.constantFrom(
          'a',
          'B',
          '1',
          ' ',
          '\t',
          '\r',
          '\n',
          '\u0001',
          '\u007f',
          'é',
          '🙂',
          '"',
          '\u0000',
        ),
        minLength: 1,
        maxLength: 24,
      }),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'Bearer abc',
        'close, webhook-signature',
        'x'.repeat(4097),
        ' Bearer x',
        'a\tb',
      ),
    },
  )

  const routes: { name: string; reserved: string[]; send(n: string, v: string): Promise<Response> }[] = [
    {
      name: 'PUT /api/vendor-api/webhook',
      reserved: ['content-type', 'content-length', 'user-agent', 'host'],
      send: (name, value) =>
        svc.request('PUT', '/api/vendor-api/webhook', {
          token: s.vendorToken,
          body: { url: 'http://127.0.0.1:9/hook', authHeader: { name, value } },
        }),
    },
    {
      name: 'PATCH /api/admin/vendors/{id}',
      reserved: ['content-type', 'content-length', 'user-agent', 'host'],
      send: (name, value) =>
        svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
          token: svc.adminToken,
          body: { webhookAuthHeader: { name, value } },
        }),
    },
    {
      name: 'POST /api/admin/vendors',
      reserved: ['content-type', 'content-length', 'user-agent', 'host'],
      send: (name, value) =>
        svc.request('POST', '/api/admin/vendors', {
          token: svc.adminToken,
          body: {
            name: 'Fuzzed header vendor',
            productGroups: catalogue,
            webhookAuthHeader: { name, value },
          },
        }),
    },
    {
      name: 'PATCH /api/partner/integrations/{id}',
      reserved: ['content-type', 'content-length', 'user-agent', 'host', 'accept'],
      send: (name, value) =>
        s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
          vendorCredentials: { header: name, value },
        }),
    },
  ]
  for (const route of routes)
    test(`${route.name}: no 5xx, and a header outside the rules is never saved`, async () => {
      let baseline = await svc.snapshot()
      await fc.assert(
        fc.asyncProperty(headerName, headerValue, async (name, value) => {
          const res = await route.send(name, value)
          const said = `${JSON.stringify(name)}: ${JSON.stringify(value).slice(0, 80)} → ${res.status} ${res.text.slice(0, 300)}`
          assert.ok(res.status < 500, `a 5xx: ${said}`)
          const problem = headerFieldProblem('h', { name, value }, route.reserved)
          if (problem !== null) assert.equal(res.status, 400, `saved against the rules (${problem}): ${said}`)
          if (res.status >= 400) {
            assert.deepEqual(shapeProblems(res), [], `not the failure shape: ${said}`)
            const now = await svc.snapshot()
            const changed = Object.keys(now).filter(
              (t) => JSON.stringify(now[t]) !== JSON.stringify(baseline[t]),
            )
            assert.deepEqual(changed, [], `a refused request changed rows: ${said}`)
          } else {
            assert.equal(problem, null)
            baseline = await svc.snapshot()
          }
        }),
        { seed, numRuns: runs * 2, endOnFailure: true },
      )
    })
})
