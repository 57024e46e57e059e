// SuperOps' 800 requests a minute per API token (src/psa/superops/limits.ts): every connection with
// the token spends one budget — two partners' connections sharing a token stop together, a wait and not
// a failure — while another token has its own; the budget's key never holds the token.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { Limiter } from '../../../src/platform/redis/limiters.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { superOpsPsa } from '../../../src/psa/superops/adapter.js'
import { tokenBudget } from '../../../src/psa/superops/limits.js'
import { call } from '../../support/psa/superops.js'
import { API_TOKEN, SUBDOMAIN, startSuperOpsSim } from '../../support/sims/superops/server.js'

const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })

describe('SuperOps limits', () => {
  test('connections sharing a token share its minute; another token does not', async () => {
    const sim = await startSuperOpsSim()
    sim.state.tokens.push({ token: 'api-other', user: { userId: '902', name: 'other' } })
    try {
      const registry = new PsaRegistry([superOpsPsa({ http }, { perMinute: 3 })])
      const connect = (partner: string, apiToken = API_TOKEN) => {
        const c = registry.connect(partner, {
          kind: 'superops',
          settings: { baseUrl: sim.endpoint, subdomain: SUBDOMAIN, apiToken },
        })
        if (!c.ok) throw new Error(c.failure.message)
        return c.client
      }
      const [a, b, other] = [connect('p-a'), connect('p-b'), connect('p-c', 'api-other')]
      for (const c of [a, b, a]) assert.ok((await c.lookup('priorities', {}, call())).ok)
      const before = sim.calls.length
      const held = await b.lookup('priorities', {}, call())
      const f = held.ok ? null : held.failure
      assert.deepEqual([f?.kind, f?.throttled], ['rate-limited', true])
      assert.match(f?.message ?? '', /requests a minute for this API token are spent/)
      assert.equal(sim.calls.length, before, 'the call never reached SuperOps')
      assert.ok((await other.lookup('priorities', {}, call())).ok)
    } finally {
      await sim.close()
    }
  })

  test('the key is a digest of the endpoint, subdomain and token, never the token', () => {
    const limiter = { points: 780 } as Limiter
    const s = { baseUrl: 'https://api.superops.ai/msp', subdomain: 'acme', apiToken: 'api-secret-token' }
    const key = tokenBudget(limiter, s).key
    assert.ok(!key.includes('secret'))
    assert.equal(key, tokenBudget(limiter, { ...s, baseUrl: 'https://api.superops.ai/msp/' }).key)
    assert.notEqual(key, tokenBudget(limiter, { ...s, apiToken: 'api-other' }).key)
  })
})
