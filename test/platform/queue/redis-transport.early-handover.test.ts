// A hand-over that reaches a worker before the worker can claim the job
// (docs/decisions/scale-out/missing-row.md): the producer's transaction has not committed (no row yet), or
// a change that counted on the queued job is still committing (the row is locked, sql-queue.ts). Either way
// the worker waits a moment and runs the job from its own hand-over, not from the relay's sweep seconds
// later.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { snapshotJob } from '../../../src/webhooks/snapshots.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { hold, waitFor } from '../../support/wait.js'

describe('a hand-over ahead of its commit (postgres+redis)', {
  skip:
    !backends('matrix').includes('postgres+redis') && 'TEST_POSTGRES_URL and TEST_REDIS_URL are not both set',
}, () => {
  let svc: TestService
  before(async () => {
    svc = await startService({ backend: 'postgres+redis' })
  })
  after(() => svc.close())

  const gone = (id: string) =>
    waitFor(
      async () =>
        !(await svc.services.db.kysely
          .selectFrom('jobs')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst()),
      { what: `job ${id} to have run after its commit`, timeoutMs: 10_000, intervalMs: 50 },
    )
  const resent = async () => {
    const metrics = await svc.request('GET', '/metrics')
    return Number(/^alertbridge_queue_relay_resent_total (\d+)$/m.exec(metrics.text)?.[1])
  }

  test('the worker waits for the row and runs the job once it is committed', async () => {
    const { store, queue } = svc.services
    const id = 'early-snapshot-1'
    await store.transaction(async (tx) => {
      await queue.enqueue(tx, [snapshotJob.job({ id, payload: { integrationId: 'no-such-integration' } })])
      queue.handOver() // before the commit: the BullMQ job can reach a worker first
      await hold(700, 'the commit held back while the hand-over reaches a worker')
    })
    await gone(id)
  })

  test('a due job locked by a change that counted on it is run once the change commits', async () => {
    const { store, queue } = svc.services
    const job = (id: string) =>
      snapshotJob.job({ id, payload: { integrationId: 'no-such-integration' }, dedupeKey: 'snapshot:locked' })
    // Queued and committed, not handed over yet.
    await store.transaction((tx) => queue.enqueue(tx, [job('locked-1')]))
    const before = await resent()
    await store.transaction(async (tx) => {
      await queue.enqueue(tx, [job('locked-2')]) // dropped for locked-1, which it locks
      queue.handOver() // locked-1 reaches a worker while the change holds it
      await hold(700, 'the change held uncommitted while locked-1 reaches a worker')
    })
    await gone('locked-1')
    assert.equal(await resent(), before, 'run from its own hand-over, not re-sent by the relay')
  })
})
