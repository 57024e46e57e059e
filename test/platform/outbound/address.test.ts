// Every IPv6 spelling of a private, loopback, link-local, unique-local or unspecified address is refused
// when private networks are not allowed: when a URL is saved (checkOutboundUrl), and when a connection
// is made (the client's own check of IP literals, and publicOnlyLookup for host names), including the
// IPv4-compatible form `::a.b.c.d` that ipaddr.js calls unicast (docs/webhooks.md#private-addresses).
import assert from 'node:assert/strict'
import type { LookupAddress } from 'node:dns'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import {
  blockedCode,
  checkOutboundUrl,
  isPublicAddress,
  type Lookup,
  publicOnlyLookup,
} from '../../../src/platform/outbound/address.js'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'

/** The forms of the review, as a URL's host. */
const privateHosts = [
  '[::127.0.0.1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[fe80::1]',
  '[fc00::1]',
  '[64:ff9b::7f00:1]',
  '[::1]',
  '[::]',
  '[::10.0.0.1]',
  '[::169.254.169.254]',
  '[::ffff:0:7f00:1]',
  '[64:ff9b:1::a00:1]',
  '[2002:7f00:1::1]',
  '[fec0::1]',
]

describe('isPublicAddress over IPv6 forms', () => {
  const table: [string, boolean][] = [
    // IPv4-compatible (::/96): judged as the IPv4 address it carries.
    ['::7f00:1', false],
    ['::127.0.0.1', false],
    ['::a00:1', false],
    ['::c0a8:101', false],
    ['::a9fe:a9fe', false],
    ['::808:808', true],
    // IPv4-mapped, NAT64, SIIT, 6to4: never public, whatever they embed.
    ['::ffff:7f00:1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::808:808', false],
    ['64:ff9b:1::7f00:1', false],
    ['::ffff:0:7f00:1', false],
    ['2002:7f00:1::1', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fec0::1', false],
    ['::1', false],
    ['::', false],
    ['2606:4700::1111', true],
  ]
  for (const [ip, expected] of table) {
    test(`${ip} is ${expected ? 'public' : 'not public'}`, () => {
      assert.equal(isPublicAddress(ip), expected)
    })
  }
})

describe('checkOutboundUrl refuses every IPv6 form of a private address', () => {
  const refuse = { allowPrivateNetwork: false, lookup: async () => ['93.184.216.34'] }

  test('as a literal', async () => {
    for (const host of privateHosts) {
      const r = await checkOutboundUrl(`https://${host}/hook`, refuse)
      assert.equal(r.ok, false, host)
      assert.match((r as { reason: string }).reason, /is not a public address/, host)
    }
  })

  test('as what a host name resolves to', async () => {
    for (const address of ['::7f00:1', '::ffff:7f00:1', 'fe80::1', '64:ff9b::a9fe:a9fe']) {
      const r = await checkOutboundUrl('https://vendor.example/hook', {
        allowPrivateNetwork: false,
        lookup: async () => [address],
      })
      assert.equal(r.ok, false, address)
    }
  })

  test('allowed when private networks are', async () => {
    const allow = { allowPrivateNetwork: true, lookup: async () => ['::1'] }
    for (const host of privateHosts)
      assert.deepEqual(await checkOutboundUrl(`https://${host}/hook`, allow), { ok: true }, host)
  })
})

describe('the connect-time guard', () => {
  let server: http.Server
  let port = 0
  let hits = 0
  before(async () => {
    server = http.createServer((_req, res) => {
      hits++
      res.end('{}')
    })
    await new Promise<void>((resolve) => server.listen(0, '::', resolve))
    port = (server.address() as AddressInfo).port
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  test('an IP literal of a private address is blocked before any connection', async () => {
    const outbound = createOutboundHttp({ allowPrivateNetwork: false, userAgent: 'alertbridge-test' })
    for (const host of privateHosts) {
      const r = await outbound.post({
        url: `http://${host}:${port}/hook`,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
      })
      assert.equal(r.kind, 'error', host)
      assert.equal(r.kind === 'error' && r.error, 'blocked', `${host}: ${JSON.stringify(r)}`)
    }
    assert.equal(hits, 0, 'nothing reached the listener')
  })

  test('with private networks allowed the same listener is reached', async () => {
    const outbound = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
    const r = await outbound.post({
      url: `http://[::1]:${port}/hook`,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    })
    assert.equal(r.kind === 'response' && r.status, 200, JSON.stringify(r))
    assert.equal(hits, 1)
  })

  test('a host name resolving to a private IPv6 form fails the lookup, one address or all', async () => {
    const fake =
      (addresses: string[]): Lookup =>
      (_host, options, callback) =>
        options.all
          ? callback(
              null,
              addresses.map((address): LookupAddress => ({ address, family: 6 })),
            )
          : callback(null, addresses[0] ?? '', 6)
    const run = (addresses: string[], all: boolean) =>
      new Promise<NodeJS.ErrnoException | null>((resolve) =>
        publicOnlyLookup(fake(addresses))('vendor.example', { all }, (err) => resolve(err)),
      )
    for (const all of [true, false]) {
      for (const address of ['::7f00:1', '::ffff:7f00:1', 'fe80::1', 'fc00::1', '64:ff9b::7f00:1', '::1'])
        assert.equal((await run([address], all))?.code, blockedCode, `${address} (all: ${all})`)
      assert.equal(await run(['2606:4700::1111'], all), null)
    }
    assert.equal((await run(['2606:4700::1111', '::a00:1'], true))?.code, blockedCode)
  })
})
