// A hand-over that reaches a worker before the producer's transaction has committed (issue 14): the
// worker finds no row yet, waits a moment and runs the job once the row is there.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { snapshotJob } from '../../src/integrations/snapshots.js'
import { backends, startService, type TestService } from '../helpers/service.js'

describe('a hand-over ahead of its commit (postgres+redis)', {
  skip: !backends().includes('postgres+redis') && 'TEST_POSTGRES_URL and TEST_REDIS_URL are not both set',
}, () => {
  let svc: TestService
  before(async () => {
    svc = await startService({ backend: 'postgres+redis' })
  })
  after(() => svc.close())

  test('the worker waits for the row and runs the job once it is committed', async () => {
    const { store, queue, db } = svc.services
    const id = 'early-snapshot-1'
    await store.transaction(async (tx) => {
      await queue.enqueue(tx, [snapshotJob.job({ id, payload: { integrationId: 'no-such-integration' } })])
      queue.handOver() // before the commit: the BullMQ job can reach a worker first
      await new Promise((r) => setTimeout(r, 700))
    })
    const deadline = Date.now() + 10_000
    for (;;) {
      const row = await db.kysely.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst()
      if (!row) break
      assert.ok(Date.now() < deadline, 'the job ran within 10 s of its commit')
      await new Promise((r) => setTimeout(r, 50))
    }
  })
})
