// ConnectWise callbacks name their signing key in Metadata.key_url, which arrives before anything is
// verified (docs/psa/connectwise.md, "Two-way sync"): only the callback-key path of the connection's own
// ConnectWise is fetched; any other key_url, or a callback for another company, is refused with no call
// to ConnectWise at all (the simulator sees nothing). Keys are kept per connection and key id, and one
// connection's key fetches are limited, however many pushes with bad signatures arrive.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { connectWisePsa } from '../../../src/psa/connectwise/adapter.js'
import { callbackKeyId, keyFetchesPerMinute } from '../../../src/psa/connectwise/callback-keys.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { signCallback } from '../../support/sims/connectwise/callbacks.js'
import { type ConnectWiseSim, startConnectWiseSim } from '../../support/sims/connectwise/server.js'

let partners = 0
function clientFor(sim: ConnectWiseSim): PsaOperations {
  const registry = new PsaRegistry([
    connectWisePsa({
      http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }),
    }),
  ])
  const settings = {
    baseUrl: sim.url,
    companyId: 'acme',
    publicKey: 'pub-key',
    privateKey: 'priv-key',
    clientId: '00000000-0000-4000-8000-000000000001',
  }
  const c = registry.connect(`p-cw-keys-${partners++}`, { kind: 'connectwise', settings })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

describe('callbackKeyId', () => {
  const root = 'https://api-na.myconnectwise.net'
  test('the callback-key path on the connection’s own host (or the cloud site’s web host) names its id', () => {
    for (const [url, id] of [
      [`${root}/v4_6_release/apis/3.0/system/callbackkeys/abc-123`, 'abc-123'],
      ['https://na.myconnectwise.net/v2022_1/apis/3.0/system/callbackkeys/7', '7'],
    ] as const)
      assert.deepEqual(callbackKeyId(url, root), { ok: true, id })
    assert.deepEqual(
      callbackKeyId(
        'http://cw.local:8080/base/v4_6_release/apis/3.0/system/callbackkeys/k',
        'http://cw.local:8080/base',
      ),
      {
        ok: true,
        id: 'k',
      },
    )
  })
  test('anything else is refused', () => {
    for (const url of [
      `${root}/v4_6_release/apis/3.0/company/companies`,
      `${root}/v4_6_release/apis/3.0/system/members/me`,
      `${root}/v4_6_release/apis/3.0/system/callbackkeys/`,
      `${root}/v4_6_release/apis/3.0/system/callbackkeys/a/b`,
      `${root}/v4_6_release/apis/3.0/system/callbackkeys/a?x=1`,
      `${root}/v4_6_release/apis/3.0/system/callbackkeys/a#frag`,
      `${root}/v4_6_release/apis/3.0/system/callbackkeys/a%2F..%2Fmembers`,
      `${root}/v4_6_release/apis/3.0/system/callbackkeys/../../company/companies`,
      `${root}/apis/3.0/system/callbackkeys/a`,
      `https://user:pw@api-na.myconnectwise.net/v4_6_release/apis/3.0/system/callbackkeys/a`,
      `http://api-na.myconnectwise.net/v4_6_release/apis/3.0/system/callbackkeys/a`,
      `https://api-na.myconnectwise.net:8443/v4_6_release/apis/3.0/system/callbackkeys/a`,
      `https://eu.myconnectwise.net/v4_6_release/apis/3.0/system/callbackkeys/a`,
      `https://evil.example/v4_6_release/apis/3.0/system/callbackkeys/a`,
      'not a url',
      42,
      null,
    ])
      assert.equal(callbackKeyId(url, root).ok, false, String(url))
  })
})

describe('ConnectWise key_url against the simulator', () => {
  let sim: ConnectWiseSim
  before(async () => {
    sim = await startConnectWiseSim({ companies: 5, tickets: 5 })
  })
  after(() => sim.close())

  const keyPath = (id = sim.state.signingKey.id) =>
    `/${sim.state.codebase}apis/3.0/system/callbackkeys/${encodeURIComponent(id)}`
  const body = (keyUrl: string, o: Record<string, unknown> = {}) =>
    JSON.stringify({ Type: 'ticket', CompanyId: 'acme', ID: 1001, Metadata: { key_url: keyUrl }, ...o })
  const verify = (client: PsaOperations, raw: string, key: string) =>
    client.push!.verify(
      {
        headers: { 'x-content-signature': signCallback(raw, key) },
        rawBody: Buffer.from(raw),
        secret: 'unused',
        now: new Date(),
      },
      { signal: AbortSignal.timeout(5000) },
    )

  test('a forged key_url on the connection’s host is refused without any call to ConnectWise', async () => {
    const client = clientFor(sim)
    const before = sim.calls.length
    for (const path of [
      `/${sim.state.codebase}apis/3.0/company/companies`,
      `/${sim.state.codebase}apis/3.0/system/members`,
      `${keyPath()}?conditions=x`,
      `/${sim.state.codebase}apis/3.0/system/callbackkeys/../../company/companies`,
      '/login/companyinfo/acme',
    ]) {
      const verdict = await verify(client, body(`${sim.url}${path}`), sim.state.signingKey.key)
      assert.equal(verdict.ok, false, path)
    }
    // Another company's callback is refused before its (genuine) key_url is fetched.
    const other = await verify(
      client,
      body(`${sim.url}${keyPath()}`, { CompanyId: 'globex' }),
      sim.state.signingKey.key,
    )
    assert.equal(other.ok, false)
    assert.deepEqual(sim.calls.slice(before), [], 'the simulator saw no request')
  })

  test('a key is kept per key id: many pushes, one fetch; another id is its own fetch', async () => {
    const client = clientFor(sim)
    const fetches = () => sim.callsTo(/callbackkeys/).length
    const before = fetches()
    for (let i = 0; i < 5; i++) {
      const verdict = await verify(
        client,
        body(`${sim.url}${keyPath()}`, { ID: 2000 + i }),
        sim.state.signingKey.key,
      )
      assert.deepEqual(verdict, { ok: true, ticketIds: [String(2000 + i)] })
    }
    assert.equal(fetches(), before + 1)
    // ConnectWise serves a new key under a new id: the new id is fetched once, the old one stays kept.
    const oldKey = { ...sim.state.signingKey }
    sim.state.signingKey = { id: 'rotated-id', key: 'rotated-key' }
    assert.equal((await verify(client, body(`${sim.url}${keyPath()}`), 'rotated-key')).ok, true)
    assert.equal((await verify(client, body(`${sim.url}${keyPath()}`), 'rotated-key')).ok, true)
    assert.equal(fetches(), before + 2)
    assert.equal((await verify(client, body(`${sim.url}${keyPath(oldKey.id)}`), oldKey.key)).ok, true)
    assert.equal(fetches(), before + 2, 'the old id is still kept')
    sim.state.signingKey = oldKey
  })

  test('bad signatures cannot make a connection fetch keys more than its limit', async () => {
    const client = clientFor(sim)
    const fetches = () => sim.callsTo(/callbackkeys/).length
    const before = fetches()
    for (let i = 0; i < 20; i++) {
      const verdict = await verify(client, body(`${sim.url}${keyPath()}`, { ID: 3000 + i }), `wrong-${i}`)
      assert.equal(verdict.ok, false)
    }
    assert.ok(fetches() - before <= keyFetchesPerMinute, `${fetches() - before} fetches`)
    assert.ok(fetches() - before >= 1)
    // Another connection has its own budget and its own keys.
    const other = clientFor(sim)
    assert.equal((await verify(other, body(`${sim.url}${keyPath()}`), sim.state.signingKey.key)).ok, true)
  })
})
