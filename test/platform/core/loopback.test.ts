// The demo's loopback exception to the private-address guard (src/platform/core/loopback.ts): its own
// origin on loopback is accepted when configured and reached at connect time; every other private
// address, another loopback port included, is still refused.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { loadConfig } from '../../../src/platform/config.js'
import { isAllowedLoopback, loopbackOrigin } from '../../../src/platform/core/loopback.js'
import { checkOutboundUrl } from '../../../src/platform/outbound/address.js'
import { createOutboundHttp, type OutboundResult } from '../../../src/platform/outbound/http.js'

describe('loopbackOrigin', () => {
  test('names the origin of an http(s) URL on 127.0.0.1, localhost or [::1]', () => {
    assert.equal(loopbackOrigin('http://127.0.0.1:9000/webhooks'), 'http://127.0.0.1:9000')
    assert.equal(loopbackOrigin('http://localhost:9000/x'), 'http://localhost:9000')
    assert.equal(loopbackOrigin('https://[::1]:8443/'), 'https://[::1]:8443')
  })

  test('is null for private, public, credentialed and other-protocol URLs', () => {
    for (const url of [
      'http://10.0.0.5:9000/webhooks',
      'http://192.168.1.2/',
      'http://127.0.0.2:9000/',
      'http://169.254.169.254/latest',
      'https://example.com/',
      'http://user:pw@127.0.0.1:9000/',
      'ftp://127.0.0.1/',
      'not a url',
    ])
      assert.equal(loopbackOrigin(url), null, url)
  })

  test('isAllowedLoopback matches the origin exactly: another port or host is not allowed', () => {
    const allowed = ['http://127.0.0.1:9000']
    assert.equal(isAllowedLoopback('http://127.0.0.1:9000/webhooks?a=1', allowed), true)
    assert.equal(isAllowedLoopback('http://127.0.0.1:9001/webhooks', allowed), false)
    assert.equal(isAllowedLoopback('http://localhost:9000/webhooks', allowed), false)
    assert.equal(isAllowedLoopback('http://127.0.0.1:9000/webhooks', []), false)
  })
})

describe('the configuration', () => {
  const base = { DATABASE_URL: 'sqlite::memory:' }
  test('a demo webhook URL on loopback is the one loopback origin allowed', () => {
    const c = loadConfig({ ...base, DEMO: 'true', DEMO_WEBHOOK_URL: 'http://127.0.0.1:9000/webhooks' })
    assert.deepEqual(c.loopbackOrigins, ['http://127.0.0.1:9000'])
    assert.equal(c.allowPrivateNetwork, false)
  })

  test('a private demo webhook URL off loopback, or none, allows nothing', () => {
    const off = loadConfig({ ...base, DEMO: 'true', DEMO_WEBHOOK_URL: 'http://10.0.0.5:9000/webhooks' })
    assert.deepEqual(off.loopbackOrigins, [])
    assert.deepEqual(loadConfig({ ...base, DEMO: 'true' }).loopbackOrigins, [])
  })
})

describe('checkOutboundUrl with the demo loopback origin', () => {
  const opts = {
    allowPrivateNetwork: false,
    loopbackOrigins: ['http://127.0.0.1:9000'],
    lookup: async () => ['10.0.0.5'],
  }
  test('accepts the allowed origin over plain http', async () => {
    assert.deepEqual(await checkOutboundUrl('http://127.0.0.1:9000/webhooks', opts), { ok: true })
  })

  test('still refuses a private address, another loopback port and a name resolving privately', async () => {
    for (const url of ['http://10.0.0.5:9000/webhooks', 'https://10.0.0.5/', 'https://127.0.0.1:9001/']) {
      const r = await checkOutboundUrl(url, opts)
      assert.equal(r.ok, false, url)
    }
    const named = await checkOutboundUrl('https://internal.example/', opts)
    assert.equal(named.ok, false)
  })
})

describe('createOutboundHttp with the demo loopback origin', () => {
  const received: string[] = []
  const server = http.createServer((req, res) => {
    received.push(req.url ?? '')
    res.writeHead(204).end()
  })
  let port = 0
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  after(() => server.close())

  const post = (outbound: ReturnType<typeof createOutboundHttp>, url: string): Promise<OutboundResult> =>
    outbound.post({ url, headers: {}, body: '{}', timeoutMs: 2000 })

  test('reaches the allowed origin, by IP and by localhost', async () => {
    const outbound = createOutboundHttp({
      allowPrivateNetwork: false,
      userAgent: 'alertbridge-test',
      loopbackOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
    })
    const byIp = await post(outbound, `http://127.0.0.1:${port}/by-ip`)
    assert.equal(byIp.kind === 'response' && byIp.status, 204, JSON.stringify(byIp))
    const byName = await post(outbound, `http://localhost:${port}/by-name`)
    assert.equal(byName.kind === 'response' && byName.status, 204, JSON.stringify(byName))
    assert.deepEqual(received.slice(-2), ['/by-ip', '/by-name'])
  })

  test('blocks the same receiver on another origin, and private addresses', async () => {
    const before = received.length
    const outbound = createOutboundHttp({
      allowPrivateNetwork: false,
      userAgent: 'alertbridge-test',
      loopbackOrigins: ['http://127.0.0.1:1'],
    })
    for (const url of [
      `http://127.0.0.1:${port}/other`,
      `http://localhost:${port}/other`,
      'http://10.0.0.5/',
    ]) {
      const r = await post(outbound, url)
      assert.equal(r.kind === 'error' && r.error, 'blocked', `${url}: ${JSON.stringify(r)}`)
    }
    assert.equal(received.length, before)
  })
})
