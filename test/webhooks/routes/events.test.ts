// The vendor's events by long-poll (docs/vendor-api.md#self-service), what `alertbridge-vendor listen`
// reads: an answer at once when events are waiting, a wait that ends when one arrives (written by this
// process or, on PostgreSQL, another), headers the standardwebhooks verifier accepts, a vendor without a
// webhook URL whose events are recorded while it listens (dead, replayed once it sets a URL), and a
// token bound to an integration that sees that integration's events only. On every configuration: the
// cursor's order and the listening mark are the database's.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { catalogue, issueToken, type Setup, setupIntegration } from '../../support/fixtures.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import { hold } from '../../support/wait.js'

const env = { ALLOW_PRIVATE_NETWORK: 'true' }

for (const backend of backends('matrix')) {
  describe(`the vendor's events by long-poll (${backend})`, () => {
    let svc: TestService
    let receiver: Receiver
    let vendor: { id: string; clientId: string; clientSecret: string; webhookSecret: string }
    let s: Setup
    let second: Setup
    before(async () => {
      svc = await startService({ backend, env })
      receiver = await startReceiver()
      const created = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Listening Vendor', productGroups: catalogue },
      })
      assert.equal(created.status, 201, created.text)
      vendor = created.body
      receiver.setSecret(vendor.webhookSecret)
      s = await setupIntegration(svc, { vendor, partnerName: 'Listened MSP' })
      second = await setupIntegration(svc, { vendor, partnerName: 'Other MSP' })
    })
    after(async () => {
      await receiver.close()
      await svc.close()
    })

    const poll = (query: string, token = s.vendorToken) =>
      svc.request('GET', `/api/vendor-api/events${query}`, { token })
    const testEvent = (body: unknown = {}, token = s.vendorToken) =>
      svc.request('POST', '/api/vendor-api/webhook/test', { token, body })
    const verify = (e: { body: string; headers: Record<string, string> }) =>
      new Webhook(vendor.webhookSecret).verify(e.body, e.headers) as any

    test('without a URL and not listening, a test event is refused; a poll starts listening', async () => {
      expectFailure(await testEvent(), 409, 'CONFLICT')
      const first = await poll('')
      assert.equal(first.status, 200, first.text)
      assert.deepEqual(first.body.data, [])
      assert.equal(typeof first.body.nextCursor, 'string')
      const hook = await svc.request('GET', '/api/vendor-api/webhook', { token: s.vendorToken })
      assert.equal(typeof hook.body.listeningUntil, 'string')
      const left = Date.parse(hook.body.listeningUntil) - Date.now()
      assert.ok(left > 50_000 && left <= 60_000, `listening for about a minute (${left} ms)`)
    })

    test('pending events come at once, signed for the standardwebhooks verifier', async () => {
      await svc.counts() // the set-up's state_snapshots are written (recorded for the listener) by now
      const start = (await poll('')).body.nextCursor
      const sent = await testEvent({ event: 'Ticket Closed' })
      assert.equal(sent.status, 202, sent.text)
      assert.equal(sent.body.status, 'dead', 'no URL: recorded for the listener')
      const t0 = Date.now()
      const res = await poll(`?after=${start}&waitSeconds=20`)
      assert.ok(Date.now() - t0 < 5000, 'no wait (of 20 s) when an event is pending')
      assert.equal(res.body.data.length, 1, res.text)
      const [e] = res.body.data
      assert.equal(e.deliveryId, sent.body.deliveryId)
      assert.equal(e.eventType, 'status_update')
      assert.equal(e.integrationId, s.integrationId)
      assert.equal(e.headers['webhook-id'], e.deliveryId)
      assert.equal(e.body, JSON.stringify(sent.body.payload))
      const verified = verify(e)
      assert.equal(verified.payload.event, 'Ticket Closed')
      assert.equal(verified.payload.test, true)
      assert.throws(() =>
        new Webhook(`whsec_${Buffer.alloc(32).toString('base64')}`).verify(e.body, e.headers),
      )
      // The cursor moves past it; nothing more is waiting.
      const empty = await poll(`?after=${res.body.nextCursor}&waitSeconds=1`)
      assert.deepEqual(empty.body.data, [])
      assert.equal(empty.body.nextCursor, res.body.nextCursor)
      // The delivery says why it is dead.
      const d = await svc.request('GET', `/api/vendor-api/deliveries/${e.deliveryId}`, {
        token: s.vendorToken,
      })
      assert.equal(d.body.lastError, 'no webhook URL; recorded for a listener')
    })

    test('a waiting poll returns when a real alert’s event arrives', async () => {
      await svc.counts()
      const start = (await poll('')).body.nextCursor
      const t0 = Date.now()
      const waiting = poll(`?after=${start}&waitSeconds=20`)
      await hold(800, 'the poll is waiting when the alert arrives')
      const alert = await svc.request('POST', '/api/oem-alerts-api/alert', { body: s.body() })
      assert.equal(alert.status, 201, alert.text)
      const res = await waiting
      const took = Date.now() - t0
      assert.ok(took >= 700 && took < 15_000, `waited for the event (${took} ms)`)
      // The status_update first; the first alert connects the integration, whose state_snapshot may follow.
      assert.ok(res.body.data.length >= 1, res.text)
      assert.ok(res.body.data.every((e: any) => verify(e)))
      const event = verify(res.body.data[0])
      assert.equal(event.eventType, 'status_update')
      assert.equal(event.payload.event, 'Ticket Created')
      assert.equal(event.payload.messageId, alert.body.data.messageId)
      assert.equal(event.payload.test, false)
    })

    test('a bound token sees its integration’s events only; bad input is a 400', async () => {
      await svc.counts() // the state_snapshot of the first alert's connecting is written by now
      const start = (await poll('')).body.nextCursor
      const unbound = await issueToken(svc, vendor)
      const startAll = (await poll('', unbound)).body.nextCursor
      const toSecond = await testEvent({ integrationId: second.integrationId }, unbound)
      const toFirst = await testEvent({}, s.vendorToken)
      assert.equal(toSecond.status, 202, toSecond.text)
      const mine = await poll(`?after=${start}&waitSeconds=2`)
      assert.deepEqual(
        mine.body.data.map((e: any) => e.deliveryId),
        [toFirst.body.deliveryId],
      )
      const all = await poll(`?after=${startAll}&limit=1`, unbound)
      assert.deepEqual(
        all.body.data.map((e: any) => e.deliveryId),
        [toSecond.body.deliveryId],
        'oldest first, one a page',
      )
      const rest = await poll(`?after=${all.body.nextCursor}`, unbound)
      assert.deepEqual(
        rest.body.data.map((e: any) => e.deliveryId),
        [toFirst.body.deliveryId],
      )
      for (const query of [
        '?waitSeconds=26',
        '?waitSeconds=-1',
        '?limit=101',
        '?limit=0',
        '?after=nonsense',
      ]) {
        expectFailure(await poll(query), 400, 'VALIDATION_FAILED')
      }
    })

    test('a poll ends at once when the listener goes away', async () => {
      const controller = new AbortController()
      const aborted = fetch(`${svc.url}/api/vendor-api/events?waitSeconds=25`, {
        headers: { authorization: `Bearer ${s.vendorToken}` },
        signal: controller.signal,
      }).catch((err: Error) => err.name)
      await hold(300, 'the poll is waiting when the listener goes away')
      controller.abort()
      assert.equal(await aborted, 'AbortError')
    })

    if (backend !== 'sqlite') {
      test('an event written by another process wakes the poll', async () => {
        const other = await startService({ share: svc, env })
        try {
          const start = (await poll('')).body.nextCursor
          const waiting = poll(`?after=${start}&waitSeconds=20`)
          await hold(500, 'the poll is waiting when the other process writes')
          const sent = await other.request('POST', '/api/vendor-api/webhook/test', {
            token: s.vendorToken,
            body: {},
          })
          assert.equal(sent.status, 202, sent.text)
          const res = await waiting
          assert.deepEqual(
            res.body.data.map((e: any) => e.deliveryId),
            [sent.body.deliveryId],
          )
        } finally {
          await other.close()
        }
      })
    }

    test('once the vendor sets a URL, what was recorded for the listener is replayed to it', async () => {
      const since = new Date(Date.now() - 3_600_000).toISOString()
      const put = await svc.request('PUT', '/api/vendor-api/webhook', {
        token: s.vendorToken,
        body: { url: receiver.url },
      })
      assert.equal(put.status, 200, put.text)
      const dead = await svc.request('GET', '/api/vendor-api/deliveries?status=dead&limit=200', {
        token: s.vendorToken,
      })
      assert.ok(dead.body.data.length >= 3, dead.text)
      const replay = await svc.request('POST', '/api/vendor-api/deliveries/replay', {
        token: s.vendorToken,
        body: { since },
      })
      assert.equal(replay.status, 202, replay.text)
      assert.equal(replay.body.replayed, dead.body.data.length)
      const ids = new Set(dead.body.data.map((d: any) => d.id))
      await receiver.waitFor(
        () => receiver.accepted().filter((r) => ids.has(r.id)).length === ids.size,
        'the replays',
      )
      assert.deepEqual(receiver.unverified, [])
      // Listening or not, with a URL the events are delivered as usual; when listening has ended and
      // there is no URL, nothing is recorded.
      await svc.request('PUT', '/api/vendor-api/webhook', { token: s.vendorToken, body: { url: null } })
      await svc.services.store.vendors.listenUntil(vendor.id, new Date(Date.now() - 1000).toISOString())
      expectFailure(await testEvent(), 409, 'CONFLICT')
    })
  })
}
