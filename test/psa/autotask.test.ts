// What only Autotask does: the zone looked up and found again after it moved (a 401 at the old one),
// an unknown API user, and its limits: no more than 3 calls in flight per endpoint (Autotask's thread
// limit is never hit), a pause when the tenant's hourly threshold is nearly spent, and billing lines:
// contract services whose units change only by deltas (adjustments), computed from the current units.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../src/outbound/http.js'
import type { PsaClient } from '../../src/psa/adapter.js'
import { autotaskPsa } from '../../src/psa/autotask/adapter.js'
import type { AutotaskClient } from '../../src/psa/autotask/client.js'
import { BudgetGuard } from '../../src/psa/autotask/test.js'
import { ConnectionLimiter } from '../../src/psa/core/limiter.js'
import { PsaRegistry } from '../../src/psa/registry.js'
import { unitsOn } from '../sims/autotask/billing.js'
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

  const usage = (ms = 10_000) => ({ ...call(ms), effectiveDate: new Date().toISOString() })

  test('billing lines: the services of the company’s active contracts, named from Services, with this period’s units', async () => {
    const company = String(sim.state.companies[1]?.id)
    const lines = await connect('p-lines').billingLines(company, call())
    assert.ok(lines.ok, lines.ok ? '' : lines.failure.message)
    assert.deepEqual(
      lines.value.map((l) => [l.id, l.productId, l.name, l.agreementName, l.quantity]),
      [
        ['29684001:7001', '501', 'Endpoint Protection (per device)', 'Managed Services', 5],
        ['29684001:7002', '502', 'Cloud Backup (per TB)', 'Managed Services', 2],
      ],
      'the inactive contract (Legacy Hosting) is not listed',
    )
    const text = await connect('p-lines').billingLines('Acme', call())
    assert.deepEqual(text.ok ? null : [text.failure.kind, text.failure.retryable], ['rejected', false])
  })

  test('a count is pushed as the delta from the current units: 5 → 8 posts +3, 8 again nothing, 2 posts −6', async () => {
    const client = connect('p-delta')
    const posted = () => sim.state.adjustments.filter((a) => a.contractServiceID === 7001)
    assert.equal(unitsOn(sim.state, 7001), 5)
    const up = await client.setQuantity('29684001:7001', 8, usage())
    assert.deepEqual(up.ok ? up.value : up.failure, { previous: 5 })
    const [first] = posted()
    assert.deepEqual(
      first && [
        first.contractID,
        first.unitChange,
        first.effectiveDate.slice(0, 10),
        first.adjustedUnitPrice,
      ],
      [29684001, 3, new Date().toISOString().slice(0, 10), 4.5],
    )
    assert.equal(unitsOn(sim.state, 7001), 8)
    const same = await client.setQuantity('29684001:7001', 8, usage())
    assert.deepEqual(same.ok ? same.value : same.failure, { previous: 8 })
    assert.equal(posted().length, 1, 'the same count posts nothing')
    const down = await client.setQuantity('29684001:7001', 2, usage())
    assert.deepEqual(down.ok ? down.value : down.failure, { previous: 8 })
    assert.deepEqual(
      posted().map((a) => a.unitChange),
      [3, -6],
    )
    assert.equal(unitsOn(sim.state, 7001), 2)
  })

  test('a lost answer: the retry reads the units again and posts nothing more', async () => {
    const client = connect('p-lost')
    const before = sim.state.adjustments.length
    const units = unitsOn(sim.state, 7002) ?? 0
    sim.faults.set({ latencyMs: 600, latencyMatch: 'ContractServiceAdjustments' })
    try {
      const lost = await client.setQuantity('29684001:7002', units + 4, usage(300))
      assert.deepEqual(lost.ok ? null : [lost.failure.kind, lost.failure.retryable], ['timeout', true])
      await new Promise((r) => setTimeout(r, 700))
    } finally {
      sim.faults.clear()
    }
    assert.equal(sim.state.adjustments.length, before + 1, 'Autotask applied the change after all')
    const retry = await client.setQuantity('29684001:7002', units + 4, usage())
    assert.deepEqual(retry.ok ? retry.value : retry.failure, { previous: units + 4 })
    assert.equal(sim.state.adjustments.length, before + 1, 'nothing applied twice')
    assert.equal(unitsOn(sim.state, 7002), units + 4)
  })

  test('a malformed line id, a fraction, or a service not on the contract: clear failures that are not retried', async () => {
    const client = connect('p-bad-line')
    for (const [lineId, quantity, kind, text] of [
      ['7001', 3, 'rejected', /not an Autotask billing line.*\{contractId\}:\{contractServiceId\}/],
      ['29684001:x', 3, 'rejected', /not an Autotask billing line/],
      ['29684001:7001', 2.5, 'rejected', /whole numbers/],
      ['29684001:7004', 3, 'not-found', /no contract service 7004 on contract 29684001/],
    ] as const) {
      const r = await client.setQuantity(lineId, quantity, usage())
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], [kind, false], lineId)
      assert.match(r.ok ? '' : r.failure.message, text)
    }
  })
})
