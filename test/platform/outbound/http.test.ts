// The outbound webhook sender against a real local receiver, and the SSRF checks on configured URLs.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { checkOutboundUrl, isPublicAddress } from '../../../src/platform/outbound/address.js'
import {
  createOutboundHttp,
  maxResponseBodyBytes,
  type OutboundResult,
} from '../../../src/platform/outbound/http.js'
import { waitFor } from '../../support/wait.js'

interface Received {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** A receiver on 127.0.0.1:0 whose behaviour is chosen by the request path. */
async function startReceiver() {
  const received: Received[] = []
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    received.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    })
    if (req.url?.startsWith('/echo')) {
      res.writeHead(200, { 'content-type': 'application/json', 'x-total': '3' }).end('{"echo":true}')
      return
    }
    switch (req.url) {
      case '/ok':
        res.writeHead(202, { 'content-type': 'text/plain' }).end('accepted')
        return
      case '/busy':
        res.writeHead(503, { 'retry-after': '120' }).end()
        return
      case '/redirect':
        res.writeHead(302, { location: '/ok' }).end()
        return
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(1024 * 1024))
        return
      case '/slow-body':
        res.writeHead(200).write('partial') // and never ends
        return
      default: // '/hang': never answers
        return
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    received,
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

const userAgent = 'AlertBridge-Webhooks/test'
const post = (http: ReturnType<typeof createOutboundHttp>, url: string, over: { timeoutMs?: number } = {}) =>
  http.post({ url, headers: {}, body: '{"a":1}', timeoutMs: over.timeoutMs ?? 5000 })

function asResponse(r: OutboundResult) {
  assert.equal(r.kind, 'response', `expected a response, got ${JSON.stringify(r)}`)
  return r as Extract<OutboundResult, { kind: 'response' }>
}
function asError(r: OutboundResult) {
  assert.equal(r.kind, 'error', `expected an error, got ${JSON.stringify(r).slice(0, 300)}`)
  return r as Extract<OutboundResult, { kind: 'error' }>
}

describe('createOutboundHttp with private networks allowed', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const outbound = createOutboundHttp({ allowPrivateNetwork: true, userAgent })
  before(async () => {
    receiver = await startReceiver()
  })
  after(() => receiver.close())

  test('POSTs the body with JSON content type, our user agent and the caller headers', async () => {
    const body = JSON.stringify({ type: 'status_update', data: { messageId: 'm-1', note: 'héllo' } })
    const result = await outbound.post({
      url: receiver.url('/ok'),
      headers: {
        'webhook-id': 'evt_1',
        authorization: 'Bearer vendor-token',
        'User-Agent': 'evil/1.0',
        'Content-Type': 'text/plain',
        'Content-Length': '3',
        Host: 'evil.example',
      },
      body,
      timeoutMs: 5000,
    })
    const r = asResponse(result)
    assert.deepEqual([r.status, r.body, r.retryAfter], [202, 'accepted', null])
    assert.ok(r.durationMs >= 0)

    const got = receiver.received.find((x) => x.url === '/ok')
    assert.ok(got)
    assert.equal(got.method, 'POST')
    assert.equal(got.body, body)
    assert.equal(got.headers['content-type'], 'application/json')
    assert.equal(got.headers['content-length'], String(Buffer.byteLength(body)))
    assert.equal(got.headers['user-agent'], userAgent)
    assert.equal(got.headers.host, `127.0.0.1:${receiver.port}`)
    assert.equal(got.headers['webhook-id'], 'evt_1')
    assert.equal(got.headers.authorization, 'Bearer vendor-token')
  })

  test('any method, query parameters, the caller content type, and the answer headers', async () => {
    const r = asResponse(
      await outbound.send({
        method: 'PUT',
        url: receiver.url('/echo?keep=1'),
        query: { page: 2, search: 'a b&c', skipped: undefined, flag: true },
        headers: { authorization: 'Basic abc' },
        body: 'grant_type=client_credentials',
        contentType: 'application/x-www-form-urlencoded',
        timeoutMs: 5000,
        maxBodyBytes: 1024,
      }),
    )
    assert.deepEqual([r.status, r.body, r.headers['x-total']], [200, '{"echo":true}', '3'])
    const got = receiver.received.at(-1)!
    assert.equal(got.method, 'PUT')
    assert.equal(got.url, '/echo?keep=1&page=2&search=a+b%26c&flag=true')
    assert.equal(got.headers['content-type'], 'application/x-www-form-urlencoded')
    assert.equal(got.body, 'grant_type=client_credentials')
  })

  test("the caller's AbortSignal gives the call up at once, as 'aborted', and closes the connection", async () => {
    const controller = new AbortController()
    const reached = receiver.received.length
    const pending = outbound.send({
      method: 'GET',
      url: receiver.url('/hang'),
      timeoutMs: 10_000,
      signal: controller.signal,
      maxBodyBytes: 1024,
    })
    await waitFor(() => receiver.received.length > reached, { what: 'the call to reach the receiver' })
    controller.abort(new Error('shutting down'))
    const e = asError(await pending)
    assert.equal(e.error, 'aborted')
    assert.match(e.message, /shutting down/)
    assert.ok(e.durationMs < 5000)
    const already = asError(
      await outbound.send({
        method: 'GET',
        url: receiver.url('/hang'),
        timeoutMs: 10_000,
        signal: controller.signal,
        maxBodyBytes: 1024,
      }),
    )
    assert.equal(already.error, 'aborted', 'a signal that fired before the call: no request is made')
  })

  test('returns the status and Retry-After of a refusal', async () => {
    const r = asResponse(await post(outbound, receiver.url('/busy')))
    assert.deepEqual([r.status, r.retryAfter], [503, '120'])
  })

  test('does not follow a redirect', async () => {
    const before = receiver.received.length
    const r = asResponse(await post(outbound, receiver.url('/redirect')))
    assert.equal(r.status, 302)
    assert.deepEqual(
      receiver.received.slice(before).map((x) => x.url),
      ['/redirect'],
    )
  })

  test('a receiver that never answers is a timeout within the budget', async () => {
    const started = performance.now()
    const e = asError(await post(outbound, receiver.url('/hang'), { timeoutMs: 200 }))
    const took = performance.now() - started
    assert.equal(e.error, 'timeout')
    assert.ok(took >= 190 && took < 1000, `took ${took} ms`)
    assert.ok(e.durationMs >= 190 && e.durationMs < 1000, `durationMs ${e.durationMs}`)
  })

  test('the budget covers the body too: a body that never ends is a timeout', async () => {
    const e = asError(await post(outbound, receiver.url('/slow-body'), { timeoutMs: 200 }))
    assert.equal(e.error, 'timeout')
  })

  test('keeps only the first 20 KiB of a 1 MB response body', async () => {
    const r = asResponse(await post(outbound, receiver.url('/big')))
    assert.equal(r.status, 200)
    assert.equal(maxResponseBodyBytes, 20 * 1024)
    assert.equal(r.body, 'x'.repeat(20 * 1024))
    assert.equal(r.truncated, true)
  })

  test('GET (the vendor catalogue): no body or content type, the caller headers, its own body limit', async () => {
    const get = (path: string, maxBodyBytes: number) =>
      outbound.get({
        url: receiver.url(path),
        headers: { authorization: 'Key k' },
        timeoutMs: 5000,
        maxBodyBytes,
      })
    const ok = asResponse(await get('/ok', 100))
    assert.deepEqual([ok.status, ok.body, ok.truncated], [202, 'accepted', false])
    const seen = receiver.received.at(-1)!
    assert.equal(seen.method, 'GET')
    assert.equal(seen.body, '')
    assert.equal(seen.headers['content-type'], undefined)
    assert.equal(seen.headers.authorization, 'Key k')
    assert.equal(seen.headers['user-agent'], userAgent)
    const big = asResponse(await get('/big', 2 * 1024 * 1024))
    assert.deepEqual([big.body.length, big.truncated], [1024 * 1024, false])
    const exact = asResponse(await get('/big', 1024 * 1024))
    assert.deepEqual(
      [exact.body.length, exact.truncated],
      [1024 * 1024, false],
      'a body exactly at the limit is whole',
    )
    const cut = asResponse(await get('/big', 1000))
    assert.deepEqual([cut.body.length, cut.truncated], [1000, true])
  })

  test('a closed port is a connection error', async () => {
    const closed = http.createServer()
    closed.listen(0, '127.0.0.1')
    await once(closed, 'listening')
    const { port } = closed.address() as AddressInfo
    closed.close()
    await once(closed, 'close')
    const e = asError(await post(outbound, `http://127.0.0.1:${port}/hook`))
    assert.equal(e.error, 'conn')
    assert.match(e.message, /ECONNREFUSED/)
  })

  test('https to a plain-HTTP receiver is a TLS error', async () => {
    const e = asError(await post(outbound, `https://127.0.0.1:${receiver.port}/ok`))
    assert.equal(e.error, 'tls')
  })

  test('an unknown host is a DNS error', async () => {
    const e = asError(await post(outbound, 'http://no-such-host.invalid/hook'))
    assert.equal(e.error, 'dns')
  })

  test('an unparsable URL or another protocol is invalid_url', async () => {
    for (const url of ['not a url', 'ftp://127.0.0.1/hook', 'file:///etc/passwd']) {
      assert.equal(asError(await post(outbound, url)).error, 'invalid_url', url)
    }
  })
})

describe('createOutboundHttp with private networks refused', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const outbound = createOutboundHttp({ allowPrivateNetwork: false, userAgent })
  before(async () => {
    receiver = await startReceiver()
  })
  after(() => receiver.close())

  test('a loopback IP is blocked and the receiver gets nothing', async () => {
    const e = asError(await post(outbound, receiver.url('/ok')))
    assert.equal(e.error, 'blocked')
    assert.equal(receiver.received.length, 0)
  })

  test('a host name resolving to loopback is blocked at connect time', async () => {
    const e = asError(await post(outbound, `http://localhost:${receiver.port}/ok`))
    assert.equal(e.error, 'blocked')
    assert.equal(receiver.received.length, 0)
  })

  test('the metadata address is blocked', async () => {
    const e = asError(await post(outbound, 'http://169.254.169.254/latest/meta-data', { timeoutMs: 1000 }))
    assert.equal(e.error, 'blocked')
  })
})

describe('checkOutboundUrl', () => {
  const refuse = { allowPrivateNetwork: false, lookup: async () => ['93.184.216.34'] }
  const allow = { allowPrivateNetwork: true, lookup: async () => ['127.0.0.1'] }

  async function refusal(url: string, opts: Parameters<typeof checkOutboundUrl>[1] = refuse) {
    const r = await checkOutboundUrl(url, opts)
    assert.equal(r.ok, false, `${url} should be refused`)
    return (r as { reason: string }).reason
  }

  test('private, loopback and metadata addresses are refused with a reason', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://0.0.0.0/hook',
      'https://2130706433/hook', // 127.0.0.1 spelt as a number
    ]) {
      assert.match(await refusal(url), /is not a public address/, url)
    }
  })

  test('a host name is judged by every address it resolves to', async () => {
    const toLoopback = { allowPrivateNetwork: false, lookup: async () => ['127.0.0.1'] }
    assert.match(await refusal('https://localhost/hook', toLoopback), /127\.0\.0\.1.*localhost/)
    const mixed = { allowPrivateNetwork: false, lookup: async () => ['93.184.216.34', '10.0.0.5'] }
    assert.match(await refusal('https://vendor.example/hook', mixed), /10\.0\.0\.5/)
  })

  test('a host that does not resolve yet is accepted: the connection checks it again', async () => {
    const failing = {
      allowPrivateNetwork: false,
      lookup: async () => {
        throw new Error('ENOTFOUND')
      },
    }
    assert.deepEqual(await checkOutboundUrl('https://vendor.example/hook', failing), { ok: true })
    const empty = { allowPrivateNetwork: false, lookup: async () => [] }
    assert.deepEqual(await checkOutboundUrl('https://vendor.example/hook', empty), { ok: true })
  })

  test('userinfo, other protocols and garbage are refused, even when private networks are allowed', async () => {
    for (const opts of [refuse, allow]) {
      assert.match(await refusal('https://user:pass@vendor.example/hook', opts), /user name or password/)
      assert.match(await refusal('https://user@vendor.example/hook', opts), /user name or password/)
      assert.match(await refusal('ftp://vendor.example/hook', opts), /protocol ftp:/)
      assert.match(await refusal('not a url', opts), /cannot be parsed/)
    }
  })

  test('a public https URL is accepted', async () => {
    assert.deepEqual(await checkOutboundUrl('https://93.184.216.34/hook', refuse), { ok: true })
    assert.deepEqual(await checkOutboundUrl('https://vendor.example/hook', refuse), { ok: true })
    assert.deepEqual(await checkOutboundUrl('https://[2606:4700::1111]/hook', refuse), { ok: true })
  })

  test('plain http needs private networks allowed', async () => {
    assert.match(await refusal('http://93.184.216.34/hook'), /https is required/)
    assert.deepEqual(await checkOutboundUrl('http://93.184.216.34/hook', allow), { ok: true })
  })

  test('with private networks allowed, local receivers are accepted', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'https://[::1]/hook']) {
      assert.deepEqual(await checkOutboundUrl(url, allow), { ok: true }, url)
    }
  })
})

describe('isPublicAddress', () => {
  const table: [string, boolean][] = [
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['2606:4700::1111', true],
    ['2001:4860:4860::8888', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['192.0.0.8', false],
    ['198.18.0.1', false],
    ['240.0.0.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::a00:1', false],
    ['2002:a00:1::1', false],
    ['not-an-ip', false],
    ['', false],
  ]
  for (const [ip, expected] of table) {
    test(`${ip || '(empty)'} is ${expected ? 'public' : 'not public'}`, () => {
      assert.equal(isPublicAddress(ip), expected)
    })
  }
})
