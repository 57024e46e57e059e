// The dispatcher's bookkeeping with the clock and the transport injected (no sleeping): Retry-After
// deferrals that do not use up an attempt, the schedule running out, an endpoint failing for five
// days being paused, and a success clearing the failing run.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import type { OutboundHttp, OutboundRequest, OutboundResult } from '../../src/outbound/http.js'
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js'
import { backends, manualClock, startService, type TestService } from '../helpers/service.js'

const day = 24 * 60 * 60 * 1000

for (const backend of backends()) {
  describe(`webhook dispatcher bookkeeping (${backend})`, () => {
    const clock = manualClock()
    let svc: TestService
    before(async () => {
      // ROLE=api: no background dispatcher; the test drives one by hand.
      svc = await startService({ backend, clock, env: { ROLE: 'api', ALLOW_PRIVATE_NETWORK: 'true' } })
    })
    after(() => svc.close())

    function dispatcher(answers: OutboundResult[], sent: OutboundRequest[]) {
      const http: Pick<OutboundHttp, 'post'> = {
        post: async (req) => {
          sent.push(req)
          const next = answers.shift()
          assert.ok(next, 'no answer scripted for this attempt')
          return next
        },
      }
      return new WebhookDispatcher({
        store: svc.services.store,
        http,
        clock,
        log: pino({ level: 'silent' }),
        scheduleSeconds: [10, 20],
        random: () => 0.5,
      })
    }

    async function delivery() {
      const { vendor } = await svc.services.provisioning.createVendor({
        name: 'V',
        webhookUrl: 'http://127.0.0.1:9/hook',
      })
      const id = await svc.services.store.deliveries.insert(
        {
          vendorId: vendor.id,
          partnerId: null,
          integrationId: null,
          // One status_update per messageId (the outbox's unique key): each test's delivery has its own.
          messageId: randomUUID(),
          eventType: 'status_update',
          body: '{"module":"alerts"}',
        },
        clock().toISOString(),
      )
      assert.ok(id)
      return { vendorId: vendor.id, id }
    }

    async function attempt(d: WebhookDispatcher, id: string) {
      const now = clock().toISOString()
      const claimed = await svc.services.store.deliveries.claim(
        id,
        now,
        new Date(clock().getTime() + 30_000).toISOString(),
      )
      assert.ok(claimed, 'the delivery is due')
      await d.deliver(claimed)
      return (await svc.services.store.deliveries.get(id))!
    }

    const response = (status: number, retryAfter: string | null = null): OutboundResult => ({
      kind: 'response',
      status,
      truncated: false,
      retryAfter,
      headers: {},
      body: '',
      durationMs: 3,
    })

    test('Retry-After on 429 defers without using an attempt; the schedule then runs out', async () => {
      const sent: OutboundRequest[] = []
      const d = dispatcher([response(429, '120'), response(500), response(500), response(500)], sent)
      const { id } = await delivery()

      let row = await attempt(d, id)
      assert.equal(row.status, 'pending')
      assert.equal(row.failedAttempts, 0, 'a rate-limit deferral is not a failed attempt')
      // clamp(120 s, 10 s, 20 s) = 20 s, then the 60 s floor.
      assert.equal(Date.parse(row.runAt) - clock().getTime(), 60_000)

      clock.advance(60_000)
      row = await attempt(d, id)
      assert.equal(row.failedAttempts, 1)
      assert.equal(Date.parse(row.runAt) - clock().getTime(), 10_000, 'first scheduled delay (jitter 0)')
      clock.advance(10_000)
      row = await attempt(d, id)
      assert.equal(Date.parse(row.runAt) - clock().getTime(), 20_000)
      clock.advance(20_000)
      row = await attempt(d, id)
      assert.equal(row.status, 'dead', 'no attempt left after the schedule')
      assert.equal(row.attemptCount, 4)

      // Every attempt was signed afresh with the same webhook-id.
      assert.deepEqual(new Set(sent.map((r) => r.headers['webhook-id'])), new Set([id]))
      assert.equal(new Set(sent.map((r) => r.headers['webhook-signature'])).size, 4)
      const log = (await svc.services.store.deliveries.attempts([id])).get(id)!
      assert.deepEqual(
        log.map((a) => a.statusCode),
        [429, 500, 500, 500],
      )
    })

    test('an endpoint failing for five days is paused; success before that clears the failing run', async () => {
      const sent: OutboundRequest[] = []
      const d = dispatcher([response(500), response(204), response(500), response(500)], sent)
      const { vendorId, id } = await delivery()
      const vendor = () => svc.services.store.vendors.findById(vendorId)

      await attempt(d, id)
      assert.ok((await vendor())?.webhookFailingSince)
      clock.advance(10_000)
      await attempt(d, id)
      assert.equal((await vendor())?.webhookFailingSince, null, 'a success ends the failing run')

      const second = await svc.services.store.deliveries.insert(
        {
          vendorId,
          partnerId: null,
          integrationId: null,
          messageId: randomUUID(),
          eventType: 'status_update',
          body: '{}',
        },
        clock().toISOString(),
      )
      assert.ok(second)
      await attempt(d, second)
      assert.equal((await vendor())?.webhookState, 'active')
      clock.advance(5 * day)
      await svc.services.store.kysely
        .updateTable('webhook_deliveries')
        .set({ run_at: clock().toISOString() })
        .where('id', '=', second)
        .execute()
      await attempt(d, second)
      const v = await vendor()
      assert.equal(v?.webhookState, 'paused')
      assert.match(v?.webhookStateReason ?? '', /failed since/)
      // A paused endpoint's deliveries wait: they are not offered to the dispatcher. Another
      // vendor's due delivery (its own, so this test does not lean on the ones before it) is.
      await delivery()
      const heads = await svc.services.store.deliveries.nextDuePerVendor()
      assert.ok(!heads.some((h) => h.vendorId === vendorId), 'a paused endpoint is not offered')
      assert.ok(heads.length > 0, 'active endpoints are')
    })
  })
}
