// The Redis transport's producer and relay on their own (docs/decisions/scale-out/hand-over-and-relay.md),
// against a ROLE=api service on PostgreSQL + Redis (no runner, no relay of its own running), with a clock
// the test moves: a job due now is handed to BullMQ at once; one scheduled for later only when the relay
// sees it due; after Redis lost the installation's keys, the relay's next look sends every due job again;
// ids BullMQ would refuse (colons, integers) are encoded.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Queue } from 'bullmq'
import pino from 'pino'
import { Registry } from 'prom-client'
import {
  type BullJobData,
  bullJobId,
  bullQueue,
  QueueRelay,
} from '../../../src/platform/queue/redis-transport.js'
import { backends, manualClock, redisPrefix, startService, type TestService } from '../../support/service.js'
import { waitFor } from '../../support/wait.js'

describe('the Redis transport: hand-over and relay (postgres+redis)', {
  skip:
    !backends('matrix').includes('postgres+redis') && 'TEST_POSTGRES_URL and TEST_REDIS_URL are not both set',
}, () => {
  const clock = manualClock()
  let svc: TestService
  let bull: Queue<BullJobData>
  let relay: QueueRelay
  const metrics = new Registry()

  before(async () => {
    svc = await startService({ backend: 'postgres+redis', clock, env: { ROLE: 'api' } })
    const redis = svc.services.redis!
    bull = bullQueue(redis, pino({ level: 'silent' }))
    relay = new QueueRelay({
      sql: svc.services.jobs,
      queue: bull,
      redis,
      clock,
      log: pino({ level: 'silent' }),
      metrics,
    })
  })
  after(async () => {
    await bull.close()
    await svc.close()
  })

  const inRedis = async (ref: { id: string; kind: string; runAt: string; createdAt: string }) =>
    (await svc.services.redis!.client.exists(bull.toKey(bullJobId(ref)))) === 1
  const row = async (id: string) =>
    svc.services.db.kysely
      .selectFrom('jobs')
      .select(['id', 'kind', 'run_at as runAt', 'created_at as createdAt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  test('a job due now is handed to BullMQ when its transaction has committed', async () => {
    await svc.services.queue.add([{ id: 'now-1', kind: 'echo', payload: {} }])
    await waitFor(async () => inRedis(await row('now-1')), { what: 'now-1 in Redis', timeoutMs: 5000 })
    assert.equal(bullJobId(await row('now-1')), 'echo-now-1', 'a job due at once keeps its own id')
  })

  test('a job scheduled for later waits in PostgreSQL until the relay sees it due', async () => {
    const runAt = new Date(clock().getTime() + 60_000)
    await svc.services.queue.add([{ id: 'later-1', kind: 'echo', payload: {}, runAt }])
    await relay.tick()
    assert.equal(await inRedis(await row('later-1')), false, 'not before it is due')
    clock.advance(60_000)
    await relay.tick()
    const ref = await row('later-1')
    assert.equal(await inRedis(ref), true, 'handed over once due')
    assert.equal(
      bullJobId(ref),
      `echo-later-1@${runAt.getTime()}`,
      'a job that waited: its due time in the id',
    )
    await relay.tick()
    const counts = await bull.getJobCounts('waiting')
    assert.equal(counts.waiting, 2, 'a second look adds nothing twice')
  })

  test('Redis loses every key of the installation: the next look sends every due job again', async () => {
    await redisPrefix(svc.services.redis!.prefix).drop()
    assert.equal((await bull.getJobCounts('waiting')).waiting, 0)
    await relay.tick()
    assert.equal(await inRedis(await row('now-1')), true)
    assert.equal(await inRedis(await row('later-1')), true)
    const text = await metrics.metrics()
    // The job that became due a moment ago goes back with the look for newly due jobs; the other one is
    // found missing by the sweep.
    assert.match(text, /alertbridge_queue_relay_resent_total [12]\n/)
    assert.match(text, /alertbridge_queue_relay_lag_seconds \d/)
  })

  test('ids BullMQ refuses as they are (a colon, an integer) are encoded', async () => {
    await svc.services.queue.add([
      { id: 'usage:acc-1:svc-2', kind: 'echo', payload: {} },
      { id: '12345', kind: 'echo', payload: {} },
    ])
    await waitFor(async () => inRedis(await row('usage:acc-1:svc-2')), {
      what: 'the colon id in Redis',
      timeoutMs: 5000,
    })
    await waitFor(async () => inRedis(await row('12345')), {
      what: 'the integer id in Redis',
      timeoutMs: 5000,
    })
    assert.equal(bullJobId(await row('usage:acc-1:svc-2')), 'echo-usage%3Aacc-1%3Asvc-2')
  })
})
