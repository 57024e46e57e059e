// The delivery job's handler with the clock and the transport injected (no sleeping): every attempt
// answers the queue when the next one is due (Retry-After deferrals that do not use up an attempt, the
// schedule running out), an endpoint failing for five days is paused and a success clears the failing
// run, a paused endpoint's or a disabled vendor's deliveries are held and the endpoint's re-enabling
// resumes them, a 410 disables the endpoint and drops its other deliveries' jobs, and a run whose
// attempt was recorded already (its runner died before rescheduling) sends nothing.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { must } from '../../src/platform/core/result.js'
import type { OutboundHttp, OutboundRequest, OutboundResult } from '../../src/platform/outbound/http.js'
import type { JobKindEntry } from '../../src/platform/queue/port.js'
import { runJob } from '../../src/platform/queue/run-job.js'
import { deliveryJob, deliveryKind, endpointHoldKey } from '../../src/webhooks/delivery-job.js'
import { WebhookSender } from '../../src/webhooks/sender.js'
import { backends, manualClock, startService, type TestService } from '../support/service.js'

const day = 24 * 60 * 60 * 1000

for (const backend of backends('matrix')) {
  describe(`the delivery job (${backend})`, () => {
    const clock = manualClock()
    let svc: TestService
    before(async () => {
      // ROLE=api: no runner; the test runs the kind's handler by hand.
      svc = await startService({ backend, clock, env: { ROLE: 'api', ALLOW_PRIVATE_NETWORK: 'true' } })
    })
    after(() => svc.close())

    const spec = deliveryJob([10, 20])
    function kind(answers: OutboundResult[], sent: OutboundRequest[]): JobKindEntry {
      const http: Pick<OutboundHttp, 'post'> = {
        post: async (req) => {
          sent.push(req)
          const next = answers.shift()
          assert.ok(next, 'no answer scripted for this attempt')
          return next
        },
      }
      const log = pino({ level: 'silent' })
      const { store, jobs } = svc.services
      const sender = new WebhookSender({
        store,
        http,
        clock,
        log,
        scheduleSeconds: [10, 20],
        random: () => 0.5,
      })
      return deliveryKind(spec, { store, sender, jobs, clock, log })
    }

    async function vendor() {
      const { vendor } = must(
        await svc.services.tenants.provisioning.createVendor({
          name: 'V',
          webhookUrl: 'http://127.0.0.1:9/hook',
        }),
      )
      return vendor.id
    }

    /** A pending delivery and its job, queued as the outbox queues them. */
    async function delivery(vendorId?: string) {
      const v = vendorId ?? (await vendor())
      const id = await svc.services.store.transaction(async (tx) => {
        const id = await tx.deliveries.insert(
          {
            vendorId: v,
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
        await svc.services.webhooks.deliveryJobs.enqueue(tx, [{ id, vendorId: v }])
        return id
      })
      return { vendorId: v, id }
    }

    /** The job's run: what it answered, and the delivery after it. */
    async function run(k: JobKindEntry, deliveryId: string) {
      const answer = await k.run({
        id: randomUUID(),
        kind: 'delivery',
        payload: { deliveryId },
        attempt: 1,
        canRetry: false,
        canWait: true,
      })
      return { answer, row: (await svc.services.store.deliveries.get(deliveryId))! }
    }

    /** A hold's key and reason (its recheck is a function). */
    const heldAs = (answer: Awaited<ReturnType<JobKindEntry['run']>>) => {
      assert.equal(answer.kind, 'hold')
      return answer.kind === 'hold' ? { key: answer.key, reason: answer.reason } : null
    }

    const jobsOf = (vendorId: string) =>
      svc.services.db.kysely
        .selectFrom('jobs')
        .selectAll()
        .where('group_key', '=', spec.groupKey(vendorId))
        .execute()

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
      const k = kind([response(429, '120'), response(500), response(500), response(500)], sent)
      const { id } = await delivery()

      let { answer, row } = await run(k, id)
      assert.equal(row.status, 'pending')
      assert.equal(row.failedAttempts, 0, 'a rate-limit deferral is not a failed attempt')
      // clamp(120 s, 10 s, 20 s) = 20 s, then the 60 s floor: the job runs again then.
      assert.equal(Date.parse(row.runAt) - clock().getTime(), 60_000)
      assert.deepEqual(answer, {
        kind: 'retry',
        reason: 'HTTP 429, Retry-After 120 s honoured as 60 s',
        notBeforeMs: 60_000,
      })

      clock.advance(60_000)
      ;({ answer, row } = await run(k, id))
      assert.equal(row.failedAttempts, 1)
      assert.equal(Date.parse(row.runAt) - clock().getTime(), 10_000, 'first scheduled delay (jitter 0)')
      assert.deepEqual(answer, { kind: 'retry', reason: 'HTTP 500', notBeforeMs: 10_000 })
      clock.advance(10_000)
      ;({ answer, row } = await run(k, id))
      assert.equal(Date.parse(row.runAt) - clock().getTime(), 20_000)
      clock.advance(20_000)
      ;({ answer, row } = await run(k, id))
      assert.equal(row.status, 'dead', 'no attempt left after the schedule')
      assert.equal(row.attemptCount, 4)
      assert.deepEqual(answer, { kind: 'done' })

      // Every attempt was signed afresh with the same webhook-id.
      assert.deepEqual(new Set(sent.map((r) => r.headers['webhook-id'])), new Set([id]))
      assert.equal(new Set(sent.map((r) => r.headers['webhook-signature'])).size, 4)
      const log = (await svc.services.store.deliveries.attempts([id])).get(id)!
      assert.deepEqual(
        log.map((a) => a.statusCode),
        [429, 500, 500, 500],
      )
      // A job of a dead delivery (a second one, say) sends nothing.
      assert.deepEqual((await run(k, id)).answer, { kind: 'done' })
      assert.equal(sent.length, 4)
    })

    test('a run whose attempt was recorded already waits for the next one and sends nothing', async () => {
      const sent: OutboundRequest[] = []
      const k = kind([response(500)], sent)
      const { id } = await delivery()
      await run(k, id)
      // As if the runner had died after recording the attempt and before rescheduling the job: the
      // job is due again at once (its lease ran out), 3 s into the 10 s wait.
      clock.advance(3_000)
      const { answer, row } = await run(k, id)
      assert.deepEqual(answer, {
        kind: 'retry',
        reason: 'the next attempt is not due yet',
        notBeforeMs: 7_000,
      })
      assert.equal(row.attemptCount, 1)
      assert.equal(sent.length, 1)
    })

    test('an endpoint failing for five days is paused, its deliveries held until it is enabled again', async () => {
      const sent: OutboundRequest[] = []
      const k = kind([response(500), response(204), response(500), response(500), response(204)], sent)
      const { vendorId, id } = await delivery()
      const vendor = () => svc.services.store.vendors.findById(vendorId)

      await run(k, id)
      assert.ok((await vendor())?.webhookFailingSince)
      clock.advance(10_000)
      assert.deepEqual((await run(k, id)).answer, { kind: 'done' })
      assert.equal((await vendor())?.webhookFailingSince, null, 'a success ends the failing run')

      const second = await delivery(vendorId)
      await run(k, second.id)
      assert.equal((await vendor())?.webhookState, 'active')
      clock.advance(5 * day)
      await run(k, second.id)
      const v = await vendor()
      assert.equal(v?.webhookState, 'paused')
      assert.match(v?.webhookStateReason ?? '', /failed since/)

      // A paused endpoint's deliveries are held (no attempt) under the endpoint's key.
      clock.advance(60_000)
      const third = await delivery(vendorId)
      const held = await run(k, third.id)
      assert.deepEqual(heldAs(held.answer), {
        key: endpointHoldKey(vendorId),
        reason: 'held: the webhook endpoint is paused',
      })
      assert.equal(held.row.attemptCount, 0)
      assert.equal(sent.length, 4)

      // Held as the runner holds it; enabling the endpoint makes it due now.
      const { jobs } = svc.services
      const job = (await jobsOf(vendorId)).find((j) => JSON.parse(j.payload).deliveryId === third.id)
      const [claimed] = await jobs.claimIds([job!.id], 30_000)
      assert.ok(claimed)
      await jobs.hold(claimed, endpointHoldKey(vendorId), new Date(clock().getTime() + 600_000), 'held')
      must(await svc.services.tenants.provisioning.updateVendor(vendorId, { webhookEnabled: true }))
      const [resumed] = (await jobsOf(vendorId)).filter((j) => j.id === claimed.id)
      assert.equal(resumed?.hold_key, null)
      assert.ok(Date.parse(resumed!.run_at) <= clock().getTime(), 'due now')
      assert.deepEqual((await run(k, third.id)).answer, { kind: 'done' })
      assert.equal((await svc.services.store.deliveries.get(third.id))?.status, 'delivered')
    })

    test("a disabled vendor's deliveries are held under the vendor's key", async () => {
      const k = kind([], [])
      const { vendorId, id } = await delivery()
      must(await svc.services.tenants.tenantStatus.disable('vendor', vendorId, 'test'))
      const { answer } = await run(k, id)
      assert.deepEqual(heldAs(answer), {
        key: `vendor:${vendorId}`,
        reason: 'held: the vendor is disabled',
      })
    })

    test('an endpoint enabled while its delivery was being held: the job is due again at once', async () => {
      const k = kind([], [])
      const vendorId = await vendor()
      const { jobs } = svc.services
      const { provisioning } = svc.services.tenants
      const log = pino({ level: 'silent' })
      const heldRun = async (enableMeanwhile: boolean) => {
        must(await provisioning.updateVendor(vendorId, { webhookEnabled: false }))
        const { id } = await delivery(vendorId)
        const row = (await jobsOf(vendorId)).find((j) => JSON.parse(j.payload).deliveryId === id)
        const [claimed] = await jobs.claimIds([row!.id], 30_000)
        assert.ok(claimed)
        // The enabling commits after the job read the endpoint paused, before its hold is written:
        // its resume finds nothing held yet.
        const racing: JobKindEntry = {
          ...k,
          run: async (job) => {
            const answer = await k.run(job)
            if (enableMeanwhile) must(await provisioning.updateVendor(vendorId, { webhookEnabled: true }))
            return answer
          },
        }
        const settled = await runJob({ queue: jobs, clock, log }, racing, claimed)
        return { settled, row: (await jobsOf(vendorId)).find((j) => j.id === claimed.id)! }
      }

      const quiet = await heldRun(false)
      assert.equal(quiet.settled, 'hold')
      assert.equal(quiet.row.hold_key, endpointHoldKey(vendorId))
      assert.ok(Date.parse(quiet.row.run_at) > clock().getTime(), 'held for the hold period')

      const raced = await heldRun(true)
      assert.equal(raced.settled, 'retry')
      assert.equal(raced.row.hold_key, null)
      assert.ok(Date.parse(raced.row.run_at) <= clock().getTime(), 'due again at once')
    })

    test('an attempt that ends the delivery removes its job in the same write; one that schedules another keeps it', async () => {
      const log = pino({ level: 'silent' })
      const { jobs } = svc.services
      // The runner's own removal, counted: a job that removed itself must not be removed again.
      const removals: string[] = []
      const queue = Object.assign(Object.create(jobs) as typeof jobs, {
        complete: async (done: Parameters<typeof jobs.complete>[0]) => {
          removals.push(...done.map((j) => j.id))
          return jobs.complete(done)
        },
      })
      const claim = async (vendorId: string, deliveryId: string) => {
        const row = (await jobsOf(vendorId)).find((j) => JSON.parse(j.payload).deliveryId === deliveryId)
        const [claimed] = await jobs.claimIds([row!.id], 30_000)
        assert.ok(claimed)
        return claimed
      }

      const ok = await delivery()
      const settled = await runJob(
        { queue, clock, log },
        kind([response(204)], []),
        await claim(ok.vendorId, ok.id),
      )
      assert.equal(settled, 'done')
      assert.equal((await svc.services.store.deliveries.get(ok.id))?.status, 'delivered')
      assert.deepEqual(await jobsOf(ok.vendorId), [], 'removed with the attempt')
      assert.deepEqual(removals, [], 'and not removed again')

      const failing = await delivery()
      const claimed = await claim(failing.vendorId, failing.id)
      assert.equal(await runJob({ queue, clock, log }, kind([response(500)], []), claimed), 'retry')
      const [kept] = await jobsOf(failing.vendorId)
      assert.equal(kept?.id, claimed.id, 'the job stays for the next attempt')
      assert.equal(kept?.lease_token, null)
    })

    test('410 disables the endpoint: its pending deliveries die and their queued jobs go; new ones are stored dead', async () => {
      const sent: OutboundRequest[] = []
      const k = kind([response(410)], sent)
      const { vendorId, id } = await delivery()
      const other = await delivery(vendorId)
      assert.equal((await jobsOf(vendorId)).length, 2)
      assert.deepEqual((await run(k, id)).answer, { kind: 'done' })
      const v = await svc.services.store.vendors.findById(vendorId)
      assert.equal(v?.webhookState, 'disabled')
      assert.match(v?.webhookStateReason ?? '', /410/)
      assert.equal((await svc.services.store.deliveries.get(id))?.status, 'dead')
      const killed = await svc.services.store.deliveries.get(other.id)
      assert.equal(killed?.status, 'dead')
      assert.match(killed?.lastError ?? '', /410 Gone/)
      assert.deepEqual(await jobsOf(vendorId), [], 'no job is left to run for a dead delivery')
      assert.equal(sent.length, 1)
    })
  })
}
