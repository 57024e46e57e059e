// What only ConnectWise does: the codebase found again after a cloud upgrade moved it, the
// connection test's one sentence for each way a connection goes wrong, and its billing lines
// (agreement additions: cancelled ones left out, the quantity replaced by a JSON-Patch).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../src/outbound/http.js'
import type { PsaClient } from '../../src/psa/adapter.js'
import { connectWisePsa } from '../../src/psa/connectwise/adapter.js'
import { PsaRegistry } from '../../src/psa/registry.js'
import { type ConnectWiseState, startConnectWiseSim } from '../sims/connectwise/server.js'
import type { StartedSim } from '../sims/harness.js'

const keys = {
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'priv-key',
  clientId: '00000000-0000-4000-8000-000000000001',
}
const call = () => ({ signal: AbortSignal.timeout(5000) })

describe('ConnectWise adapter', () => {
  let sim: StartedSim<ConnectWiseState>
  const registry = new PsaRegistry([
    connectWisePsa({
      http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }),
    }),
  ])
  const connect = (partnerId: string, settings: Record<string, unknown>): PsaClient => {
    const c = registry.connect(partnerId, { kind: 'connectwise', settings })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  before(async () => {
    sim = await startConnectWiseSim({ deny: ['/service/tickets'] })
  })
  after(() => sim.close())

  const testOf = async (settings: Record<string, unknown>, partnerId = `p-${Math.random()}`) => {
    const r = await connect(partnerId, settings).test(call())
    return r.ok ? `OK ${r.value.detail}` : r.failure.message
  }

  test('the connection test says in one sentence what is wrong', async () => {
    assert.match(
      await testOf({ ...keys, baseUrl: sim.url, privateKey: 'wrong' }),
      /refused the credentials \(companyId, publicKey, privateKey\)/,
    )
    assert.match(await testOf({ ...keys, baseUrl: sim.url, clientId: 'not-registered' }), /clientId/)
    assert.match(
      await testOf({ ...keys, baseUrl: sim.url, companyId: 'nobody' }),
      /does not know company id 'nobody'/,
    )
    assert.match(await testOf({ ...keys, baseUrl: sim.url }), /may not read service tickets/)
    assert.match(await testOf({ ...keys, baseUrl: 'http://127.0.0.1:9' }), /cannot be reached/)
  })

  test('a moved codebase (a cloud upgrade) is found again after the 404, and the call goes through', async () => {
    const client = connect('p-upgrade', { ...keys, baseUrl: sim.url })
    const before = await client.lookup('boards', {}, call())
    assert.ok(before.ok)
    sim.state.codebase = 'v2026_1/'
    const after = await client.lookup('priorities', {}, call())
    assert.ok(after.ok, after.ok ? '' : after.failure.message)
    assert.ok(
      sim.callsTo(/^\/v2026_1\/apis\/3\.0\/service\/priorities$/).length > 0,
      'the new codebase was used',
    )
    sim.state.codebase = 'v4_6_release/'
  })

  test('billing lines: the additions of the company’s agreements, without cancelled agreements or additions', async () => {
    const lines = await connect('p-billing', { ...keys, baseUrl: sim.url }).billingLines('1', call())
    assert.ok(lines.ok, lines.ok ? '' : lines.failure.message)
    assert.deepEqual(
      lines.value.map((l) => [l.id, l.productId, l.agreementName, l.quantity]),
      [
        ['112:3301', '901', 'Acme - Managed Services', 25],
        ['112:3302', '902', 'Acme - Managed Services', 4],
      ],
    )
    assert.match(lines.value[0]?.name ?? '', /AV-SEAT/)
    const byIdentifier = await connect('p-billing', { ...keys, baseUrl: sim.url }).billingLines(
      'Globex',
      call(),
    )
    assert.deepEqual(byIdentifier.ok ? byIdentifier.value.map((l) => l.id) : byIdentifier, ['118:3310'])
  })

  test('a quantity is replaced with one JSON-Patch operation, and the one it had is answered', async () => {
    const client = connect('p-patch', { ...keys, baseUrl: sim.url })
    const before = sim.callsTo(/\/additions\/3310$/, 'PATCH').length
    const set = await client.setQuantity('118:3310', 42, {
      ...call(),
      effectiveDate: new Date().toISOString(),
    })
    assert.deepEqual(set.ok ? set.value : set.failure, { previous: 40 })
    const patches = sim.callsTo(/\/additions\/3310$/, 'PATCH')
    assert.equal(patches.length, before + 1)
    assert.deepEqual(patches.at(-1)?.body, [{ op: 'replace', path: 'quantity', value: 42 }])
    const same = await client.setQuantity('118:3310', 42, {
      ...call(),
      effectiveDate: new Date().toISOString(),
    })
    assert.ok(same.ok)
    assert.equal(
      sim.callsTo(/\/additions\/3310$/, 'PATCH').length,
      before + 1,
      'the same count sends nothing',
    )
  })

  test('a malformed line id, a cancelled addition or a missing one: clear failures that are not retried', async () => {
    const client = connect('p-bad-line', { ...keys, baseUrl: sim.url })
    const usage = () => ({ ...call(), effectiveDate: new Date().toISOString() })
    for (const [lineId, kind, text] of [
      ['3301', 'rejected', /not a ConnectWise billing line.*\{agreementId\}:\{additionId\}/],
      ['112:abc', 'rejected', /not a ConnectWise billing line/],
      ['112:3303', 'rejected', /addition 3303 of agreement 112 is cancelled/],
      ['112:9999', 'not-found', /Agreement addition 9999 not found/],
    ] as const) {
      const r = await client.setQuantity(lineId, 5, usage())
      assert.equal(r.ok, false, lineId)
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], [kind, false], lineId)
      assert.match(r.ok ? '' : r.failure.message, text)
    }
  })
})
