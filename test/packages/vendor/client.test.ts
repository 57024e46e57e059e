// The vendor SDK (@alertbridge/vendor, packages/vendor; docs/vendor-api.md#sdk-and-cli): its retry
// arithmetic, token refresh and webhook verifier on their own, then the whole flow against a real
// service behind a proxy that injects faults: token, OPEN and RESOLVED through a 503, a 429 with
// Retry-After and a lost answer, each retry carrying its call's one Idempotency-Key, so the lost
// RESOLVED is answered from the key and closes nothing twice.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import {
  authOf,
  backoffDelay,
  parseRetryAfter,
  TokenSource,
  VendorClient,
  verifyWebhook,
  WebhookVerificationError,
} from '@alertbridge/vendor'
import { Webhook } from 'standardwebhooks'
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js'
import { defaultAlert, type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'
import { waitFor } from '../../support/wait.js'

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`

function signed(body: string, at: Date, s = secret, id = 'msg_1') {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(s).sign(id, at, body),
  }
}

describe('SDK parts on their own', () => {
  test('backoff: 1 s, 2 s, 4 s, … up to 60 s, each ±20 %', () => {
    const middle = () => 0.5
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, {}, middle)),
      [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000],
    )
    assert.equal(
      backoffDelay(1, {}, () => 0),
      800,
    )
    assert.equal(
      backoffDelay(1, {}, () => 0.9999),
      1200,
    )
    assert.equal(backoffDelay(3, { baseDelayMs: 100, maxDelayMs: 300 }, middle), 300, 'capped')
  })

  test('Retry-After: seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('3'), 3000)
    assert.equal(parseRetryAfter(null), undefined)
    assert.equal(parseRetryAfter('soon'), undefined)
    const now = Date.parse('2026-01-01T00:00:00Z')
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000)
  })

  test('which calls carry a token, body credentials, or neither', () => {
    assert.equal(authOf('POST', '/api/oauth/token'), 'none')
    assert.equal(authOf('POST', '/api/oem-alerts-api/alert/sync'), 'body')
    assert.equal(authOf('POST', '/api/oem-alerts-api/alerts'), 'body')
    assert.equal(authOf('GET', '/api/oem-alerts-api/alert'), 'bearer', 'the ticket reads take a token')
    assert.equal(authOf('PUT', '/api/vendor-api/webhook'), 'bearer')
  })

  test('a token is kept, then asked for again shortly before it expires; callers share one request', async () => {
    let now = 1_000_000
    let issued = 0
    const tokens = new TokenSource(
      async () => {
        issued++
        return { access_token: `t${issued}`, expires_in: 3600 }
      },
      { now: () => now },
    )
    assert.deepEqual(await Promise.all([tokens.get(), tokens.get(), tokens.get()]), ['t1', 't1', 't1'])
    now += 3539_000
    assert.equal(await tokens.get(), 't1', 'still more than a minute to go')
    now += 2_000
    assert.equal(await tokens.get(), 't2', 'within the last minute: a new one')
    tokens.invalidate('t2')
    assert.equal(await tokens.get(), 't3', 'a refused token is replaced')
    assert.equal(issued, 3)
  })

  test('verify: a valid signature passes; a tampered body, an old or future timestamp, another secret do not', () => {
    const body = JSON.stringify({
      module: 'alerts',
      eventType: 'status_update',
      payload: { event: 'Ticket Created' },
    })
    const headers = signed(body, new Date())
    assert.equal(verifyWebhook(body, headers, secret).eventType, 'status_update')
    assert.equal(verifyWebhook(Buffer.from(body), new Headers(headers), secret).eventType, 'status_update')
    const nodeStyle = { ...headers, 'Webhook-Id': headers['webhook-id'], 'x-other': ['a', 'b'] }
    assert.ok(verifyWebhook(body, nodeStyle, secret))

    const refused = (fn: () => unknown, message: RegExp) =>
      assert.throws(fn, (err: Error) => err instanceof WebhookVerificationError && message.test(err.message))
    refused(() => verifyWebhook(body.replace('Created', 'Closed'), headers, secret), /No matching signature/)
    refused(() => verifyWebhook(`${body}\n`, headers, secret), /No matching signature/)
    const other = `whsec_${Buffer.alloc(32, 8).toString('base64')}`
    refused(() => verifyWebhook(body, headers, other), /No matching signature/)
    // Ten seconds past the five-minute tolerance: signing and verifying read the clock in whole seconds, apart.
    refused(() => verifyWebhook(body, signed(body, new Date(Date.now() - 310_000)), secret), /too old/)
    refused(() => verifyWebhook(body, signed(body, new Date(Date.now() + 310_000)), secret), /too new/)
    refused(() => verifyWebhook(body, { 'webhook-id': 'x' }, secret), /Missing required headers/)

    // During a rotation either secret will do; a saved webhook may skip the timestamp check.
    assert.ok(verifyWebhook(body, headers, [other, secret]))
    const old = signed(body, new Date(Date.now() - 3600_000))
    assert.ok(verifyWebhook(body, old, secret, { toleranceSeconds: null }))
    assert.ok(verifyWebhook(body, old, secret, { toleranceSeconds: 7200 }))
    refused(() => verifyWebhook(body, old, secret, { toleranceSeconds: 60 }), /too old/)
    refused(() => verifyWebhook(`${body} `, old, secret, { toleranceSeconds: null }), /No matching signature/)
  })
})

describe('SDK against the service', () => {
  let svc: TestService
  let proxy: FaultProxy
  let s: Setup
  let client: VendorClient
  const retries: string[] = []

  before(async () => {
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    s = await setupIntegration(svc)
    proxy = await startFaultProxy(svc.url)
    client = new VendorClient({
      baseUrl: proxy.url,
      clientId: s.clientId,
      clientSecret: s.clientSecret,
      organizationOemToken: s.orgToken,
      integrationId: s.integrationId,
      retry: {
        baseDelayMs: 20,
        onRetry: (r) => retries.push(`${r.method} ${new URL(r.url).pathname} ${r.status ?? 'error'}`),
      },
    })
  })
  after(async () => {
    await proxy?.close()
    await svc?.close()
  })

  const calls = (method: string, path: string | RegExp) =>
    proxy.seen.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    )

  test('token, OPEN, RESOLVED through a 503, a 429 with Retry-After and a lost answer', async () => {
    const { title, summary, alertType, accountId, productGroup } = defaultAlert
    const data = { title, summary, alertType, accountId, productGroup }
    proxy.add({ method: 'POST', path: '/api/oauth/token', times: 1, fault: { kind: 'answer', status: 503 } })
    proxy.add({
      method: 'POST',
      path: '/api/oem-alerts-api/alert/sync',
      times: 1,
      fault: {
        kind: 'answer',
        status: 429,
        headers: { 'retry-after': '1' },
        body: { statusCode: 429, message: 'failed', error: 'RATE_LIMITED', detail: 'injected' },
      },
    })

    // A bearer call first: the token is fetched through the 503.
    const integrations = await client.api.GET('/api/oem-api/integration/list')
    assert.equal(integrations.response.status, 200, JSON.stringify(integrations.error))

    const opened = await client.open(data)
    assert.equal(opened.ok, true, JSON.stringify(opened.body))
    assert.equal(opened.status, 201)
    assert.equal(opened.message, 'created')
    assert.ok(opened.correlationId)
    const openCalls = calls('POST', '/api/oem-alerts-api/alert/sync')
    assert.deepEqual(
      openCalls.map((c) => c.status),
      [429, 201],
    )
    assert.equal(
      openCalls[0]!.headers['idempotency-key'],
      opened.idempotencyKey,
      'the key went out first time',
    )
    assert.equal(openCalls[1]!.headers['idempotency-key'], opened.idempotencyKey, 'and again on the retry')
    assert.ok(openCalls[1]!.at - openCalls[0]!.at >= 950, 'the retry waited for Retry-After: 1')
    assert.equal(
      openCalls[0]!.headers.authorization,
      undefined,
      'alert calls carry no token: body credentials',
    )

    // RESOLVED: the service closes the ticket, the answer is lost; the retry with the same key is
    // answered from the key without closing anything again.
    proxy.add({
      method: 'POST',
      path: '/api/oem-alerts-api/alert/sync',
      times: 1,
      fault: { kind: 'lose-answer', status: 502 },
    })
    const resolved = await client.resolve(opened.correlationId!, data)
    assert.equal(resolved.ok, true, JSON.stringify(resolved.body))
    assert.equal(resolved.message, 'closed')
    assert.equal(resolved.replayed, true, 'the first answer, again')
    const resolveCalls = calls('POST', '/api/oem-alerts-api/alert/sync').slice(2)
    assert.deepEqual(
      resolveCalls.map((c) => [c.status, c.upstreamStatus]),
      [
        [502, 200],
        [200, 200],
      ],
    )
    assert.equal(resolveCalls[0]!.headers['idempotency-key'], resolveCalls[1]!.headers['idempotency-key'])
    assert.notEqual(resolveCalls[0]!.headers['idempotency-key'], opened.idempotencyKey, 'one key per call')

    const ticket = await client.api.GET('/api/oem-alerts-api/alert/{correlationId}', {
      params: { path: { correlationId: opened.correlationId! } },
    })
    assert.equal(ticket.response.status, 200, JSON.stringify(ticket.error))
    const t = ticket.data as { status: string; eventCount: number; events: { incidentStatus: string }[] }
    assert.equal(t.status, 'closed')
    assert.deepEqual(
      t.events.map((e) => e.incidentStatus),
      ['OPEN', 'RESOLVED'],
      'closed once',
    )

    assert.deepEqual(retries, [
      'POST /api/oauth/token 503',
      'POST /api/oem-alerts-api/alert/sync 429',
      'POST /api/oem-alerts-api/alert/sync 502',
    ])
    assert.equal(
      calls('POST', '/api/oauth/token').length,
      2,
      'one token (after its 503), kept for every call',
    )
  })

  test('a failure is an answer, not an exception; a refused token is replaced once', async () => {
    const unknown = await client.update('no-such-ticket', {
      title: 'x',
      alertType: defaultAlert.alertType,
      accountId: defaultAlert.accountId,
      productGroup: defaultAlert.productGroup,
    })
    assert.equal(unknown.ok, false)
    assert.equal(unknown.message, 'failed')
    assert.equal(unknown.error, 'TICKET_NOT_FOUND')
    assert.ok(unknown.detail)

    const tokenCalls = calls('POST', '/api/oauth/token').length
    const revoked = await svc.request('POST', `/api/admin/vendors/${s.vendorId}/tokens/revoke`, {
      token: svc.adminToken,
    })
    assert.equal(revoked.status, 200, revoked.text)
    const webhook = await client.getWebhook()
    assert.equal(webhook.url, null)
    assert.equal(calls('POST', '/api/oauth/token').length, tokenCalls + 1, 'a new token after the 401')
  })

  test('verifies a webhook the service delivered, and the same event listened for; refuses it tampered or too old', async () => {
    const arrived: { raw: string; headers: http.IncomingHttpHeaders }[] = []
    const endpoint = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        arrived.push({ raw: Buffer.concat(chunks).toString('utf8'), headers: req.headers })
        res.writeHead(204).end()
      })
    })
    endpoint.listen(0, '127.0.0.1')
    await once(endpoint, 'listening')
    try {
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`
      const admin = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Hooked Vendor', webhookUrl: url },
      })
      assert.equal(admin.status, 201, admin.text)
      const hooked = new VendorClient({
        baseUrl: svc.url,
        clientId: admin.body.clientId,
        clientSecret: admin.body.clientSecret,
      })
      const { nextCursor } = await hooked.events()
      const sent = await hooked.sendTestEvent({ event: 'Ticket Not Found' })
      const got = await waitFor(() => arrived[0], { what: 'the test event to arrive' })
      assert.equal(got.headers['webhook-id'], sent.deliveryId)

      const event = verifyWebhook(got.raw, got.headers, admin.body.webhookSecret)
      assert.equal(event.eventType, 'status_update')
      assert.equal(event.payload.test, true)
      assert.ok(event.eventType === 'status_update' && event.payload.event === 'Ticket Not Found')

      assert.throws(
        () =>
          verifyWebhook(
            got.raw.replace('"test":true', '"test":false'),
            got.headers,
            admin.body.webhookSecret,
          ),
        WebhookVerificationError,
      )
      assert.throws(
        () =>
          verifyWebhook(got.raw, got.headers, admin.body.webhookSecret, { now: () => Date.now() + 301_000 }),
        /too old/,
      )

      // The same event through the long-poll: its body and freshly signed headers verify too.
      const stop = new AbortController()
      const listened = []
      for await (const e of hooked.listen({ after: nextCursor, waitSeconds: 2, signal: stop.signal })) {
        listened.push(e)
        stop.abort()
      }
      assert.deepEqual(
        listened.map((e) => e.deliveryId),
        [sent.deliveryId],
      )
      const again = verifyWebhook(listened[0]!.body, listened[0]!.headers, admin.body.webhookSecret)
      assert.deepEqual(again, event)
    } finally {
      endpoint.closeAllConnections()
      await new Promise((r) => endpoint.close(r))
    }
  })
})
