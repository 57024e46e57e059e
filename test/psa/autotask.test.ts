// What only Autotask does: the zone looked up and found again after it moved (a 401 at the old one),
// an unknown API user, and its limits: no more than 3 calls in flight per endpoint (Autotask's thread
// limit is never hit), and a pause when the tenant's hourly threshold is nearly spent.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../src/outbound/http.js'
import type { PsaClient } from '../../src/psa/adapter.js'
import { autotaskPsa } from '../../src/psa/autotask/adapter.js'
import type { AutotaskClient } from '../../src/psa/autotask/client.js'
import { BudgetGuard } from '../../src/psa/autotask/test.js'
import { ConnectionLimiter } from '../../src/psa/core/limiter.js'
import { PsaRegistry } from '../../src/psa/registry.js'
import { type AutotaskState, startAutotaskSim } from '../sims/autotask/server.js'
import type { StartedSim } from '../sims/harness.js'

const credentials = {
  username: 'api-user@acme.example',
  secret: 'api-secret',
  integrationCode: 'TRACKING-ID-1',
}
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })

describe('Autotask adapter', () => {
  let sim: StartedSim<AutotaskState>
  let registry: PsaRegistry
  const connect = (partnerId: string, settings: Record<string, unknown> = credentials): PsaClient => {
    const c = registry.connect(partnerId, { kind: 'autotask', settings })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  before(async () => {
    sim = await startAutotaskSim()
    const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
    registry = new PsaRegistry([autotaskPsa({ http, lookupRoot: `${sim.url}/ATServicesRest/` })])
  })
  after(() => sim.close())

  test('the connection test names an unknown API user and refused credentials', async () => {
    const unknown = await connect('p-unknown', { ...credentials, username: 'nobody@acme.example' }).test(
      call(),
    )
    assert.match(unknown.ok ? '' : unknown.failure.message, /no zone for the API user 'nobody@acme.example'/)
    const refused = await connect('p-refused', { ...credentials, secret: 'wrong' }).test(call())
    assert.match(refused.ok ? '' : refused.failure.message, /refused the credentials/)
    const good = await connect('p-good').test(call())
    assert.ok(good.ok, good.ok ? '' : good.failure.message)
    assert.match(good.value.detail, /requests used this hour/)
  })

  test('a zone that moved answers 401 at the old root; the zone is looked up again and the call goes through', async () => {
    const client = connect('p-move')
    assert.ok((await client.lookup('boards', {}, call())).ok)
    const lookups = sim.callsTo(/zoneinformation$/i).length
    sim.state.zoneUrl = `${sim.url}/zone2/ATServicesRest/`
    sim.state.movedZone = true
    try {
      const again = await client.lookup('companies', {}, call())
      assert.ok(again.ok, again.ok ? '' : again.failure.message)
      assert.equal(sim.callsTo(/zoneinformation$/i).length, lookups + 1, 'the zone was looked up again')
      assert.ok(sim.callsTo(/^\/zone2\//i).length > 0, 'the new zone was used')
    } finally {
      sim.state.zoneUrl = `${sim.url}/ATServicesRest/`
      sim.state.movedZone = false
    }
  })

  test('never more than 3 calls in flight per endpoint: 12 at once meet no thread-limit 429', async () => {
    const client = connect('p-threads')
    sim.faults.set({ latencyMs: 150 })
    try {
      const made = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          client.createTicket(
            {
              companyId: '0',
              board: 'Monitoring Alerts',
              priority: null,
              status: null,
              type: null,
              summary: `t${i}`,
              description: 'd',
            },
            { ...call(), correlationId: `threads-${i}`, ref: `threads-${i}`, adopt: false },
          ),
        ),
      )
      assert.deepEqual(
        made.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.failure.message)),
        [],
      )
    } finally {
      sim.faults.clear()
    }
  })

  test('near the hourly threshold (read from ThresholdInformation) calls pause instead of spending it', async () => {
    // A limiter with a small budget stands for an hour's 10,000 calls.
    const limiter = new ConnectionLimiter({ perEndpoint: 3, hourlyBudget: 100 })
    const tenant = { count: 50 }
    const asked: string[] = []
    const client = {
      api: async (_method: string, path: string) => {
        asked.push(path)
        return {
          ok: true as const,
          value: {
            status: 200,
            headers: {},
            body: {
              externalRequestThreshold: 100,
              requestThresholdTimeframe: 60,
              currentTimeframeRequestCount: tenant.count,
            },
          },
        }
      },
    } as unknown as AutotaskClient
    const guard = new BudgetGuard(client, limiter, { budget: 100, lookAtShare: 0.8, pauseAtShare: 0.95 })
    const spend = () =>
      limiter.run('tickets', call().signal, async () => ({ ok: true as const, value: null }))
    for (let i = 0; i < 79; i++) await spend()
    await guard.check(call())
    assert.deepEqual(asked, [], 'below 80 % of its own budget it does not ask')
    await spend()
    tenant.count = 96 // other integrations of the tenant used the rest
    await guard.check(call())
    assert.deepEqual(asked, ['ThresholdInformation'])
    const held = await spend()
    assert.equal(held.ok, false)
    assert.equal(held.ok ? null : held.failure.kind, 'rate-limited')
  })
})
