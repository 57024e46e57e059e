// What only ConnectWise does: the codebase found again after a cloud upgrade moved it, and the
// connection test's one sentence for each way a connection goes wrong.
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
})
