// The embedded job queue against a real database, on each backend. The service runs with ROLE=api
// (no runner), so the test drives the queue itself, and with a manual clock, which the queue uses for
// every run_at comparison: a job commits or rolls back with its transaction; only due jobs are
// claimed, and only of the kinds asked for; a claim hides a job until its lease ends, then it is
// claimed again with a new lease token; a renewal moves the end of a lease that is still its claim's;
// completing needs the current token; retryAt reschedules; a dead job is kept and never claimed; a
// dedupe key coalesces queued jobs only; dropping a group's queued jobs leaves its running ones;
// nextDueAt and depth report what is waiting or running.
import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, test } from 'node:test'
import type { NewJob } from '../../../src/platform/queue/port.js'
import type { ClaimedJob, SqlJobQueue } from '../../../src/platform/queue/sql-queue.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'

const leaseMs = 30_000

for (const backend of backends('matrix')) {
  describe(`SqlJobQueue (${backend})`, () => {
    const clock = manualClock()
    let svc: TestService
    let queue: SqlJobQueue

    before(async () => {
      svc = await startService({ backend, clock, env: { ROLE: 'api' } })
      queue = svc.services.jobs
    })
    after(() => svc.close())
    beforeEach(async () => {
      await svc.services.db.kysely.deleteFrom('jobs').execute()
    })

    const job = (id: string, over: Partial<NewJob> = {}): NewJob => ({
      id,
      kind: 'alert',
      payload: { id },
      ...over,
    })
    const enqueue = (...jobs: NewJob[]) => svc.services.store.transaction((tx) => queue.enqueue(tx, jobs))
    const complete = async (j: ClaimedJob) => (await queue.complete([j])) === 1
    const ids = (jobs: ClaimedJob[]) => jobs.map((j) => j.id)
    const later = (ms: number) => new Date(clock().getTime() + ms)
    const row = (id: string) =>
      svc.services.db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()

    test('an empty queue: depth 0, nothing due, nothing to claim', async () => {
      assert.equal(await queue.depth(), 0)
      assert.equal(await queue.nextDueAt(), null)
      assert.deepEqual(await queue.claim(10, leaseMs), [])
    })

    test('enqueue commits with its transaction, and a rollback leaves no job', async () => {
      await assert.rejects(
        svc.services.store.transaction(async (tx) => {
          await queue.enqueue(tx, [job('rolled-back')])
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.equal(await queue.depth(), 0)
      assert.deepEqual(await queue.claim(10, leaseMs), [])

      await enqueue(job('committed', { payload: { messageId: 'm-1', n: 1 } }))
      assert.equal(await queue.depth(), 1)
      const claimed = await queue.claim(10, leaseMs)
      assert.equal(claimed.length, 1)
      const [c] = claimed
      assert.deepEqual(
        { id: c?.id, kind: c?.kind, payload: c?.payload, attempts: c?.attempts },
        { id: 'committed', kind: 'alert', payload: { messageId: 'm-1', n: 1 }, attempts: 1 },
      )
      assert.equal(typeof c?.leaseToken, 'string')
      assert.ok(c?.leaseToken)
    })

    test('claim takes due jobs only: a job whose runAt is ahead waits until the clock reaches it', async () => {
      await enqueue(job('now'), job('soon', { runAt: later(5000) }))
      assert.deepEqual(ids(await queue.claim(10, leaseMs)), ['now'])
      clock.advance(4999)
      assert.deepEqual(await queue.claim(10, leaseMs), [], 'not due 1 ms before its runAt')
      clock.advance(1)
      assert.deepEqual(ids(await queue.claim(10, leaseMs)), ['soon'])
    })

    test('claim takes at most `limit` jobs, earliest runAt first, and nothing with limit 0', async () => {
      // z has the latest id but has been due the longest: it goes first.
      await enqueue(job('b'), job('c'), job('z', { runAt: later(-1000) }))
      assert.deepEqual(await queue.claim(0, leaseMs), [])
      assert.deepEqual(ids(await queue.claim(2, leaseMs)), ['b', 'z'], 'z and b, returned in id order')
      assert.deepEqual(ids(await queue.claim(2, leaseMs)), ['c'])
      assert.deepEqual(await queue.claim(2, leaseMs), [])
    })

    test('a claimed job is hidden until its lease ends, then claimed again with attempts 2 and a new token', async () => {
      await enqueue(job('leased'))
      const [first] = await queue.claim(10, leaseMs)
      assert.equal(first?.attempts, 1)
      assert.deepEqual(await queue.claim(10, leaseMs), [], 'not claimed twice')
      clock.advance(leaseMs - 1)
      assert.deepEqual(await queue.claim(10, leaseMs), [], 'still leased 1 ms before the lease ends')
      clock.advance(2)
      const [second] = await queue.claim(10, leaseMs)
      assert.equal(second?.id, 'leased')
      assert.equal(second?.attempts, 2)
      assert.notEqual(second?.leaseToken, first?.leaseToken)
      assert.deepEqual(await queue.claim(10, leaseMs), [], 'the new lease hides it again')
    })

    test('complete with the token of a lost lease returns false and keeps the job; the current token removes it', async () => {
      await enqueue(job('done'))
      const [stale] = await queue.claim(10, leaseMs)
      clock.advance(leaseMs + 1)
      const [current] = await queue.claim(10, leaseMs)
      assert.ok(stale && current)
      assert.equal(await complete(stale), false)
      assert.equal(await queue.depth(), 1)
      assert.equal((await row('done'))?.lease_token, current.leaseToken)
      assert.equal(await complete(current), true)
      assert.equal(await queue.depth(), 0)
      assert.equal(await row('done'), undefined)
      assert.equal(await complete(current), false, 'a second complete finds nothing')
    })

    test('complete removes several jobs at once, each only with its own current token', async () => {
      await enqueue(job('one'), job('two'), job('three'))
      const claimed = new Map((await queue.claim(10, leaseMs)).map((j) => [j.id, j]))
      assert.equal(claimed.size, 3)
      const stale = { ...claimed.get('three')!, leaseToken: 'not-the-lease' }
      assert.equal(await queue.complete([claimed.get('one')!, claimed.get('two')!, stale]), 2)
      assert.deepEqual(
        (await svc.services.db.kysely.selectFrom('jobs').select('id').execute()).map((r) => r.id),
        ['three'],
      )
      assert.equal(await queue.complete([]), 0)
    })

    test('only the kinds asked for are taken, each hidden for the one lease; other kinds are not taken', async () => {
      await enqueue(job('a-1'), job('s-1', { kind: 'snapshot' }), job('x-1', { kind: 'other' }))
      const claimed = await queue.claim(10, leaseMs, [], ['alert', 'snapshot'])
      assert.deepEqual(ids(claimed), ['a-1', 's-1'])
      const runAt = async (id: string) => Date.parse((await row(id))!.run_at) - clock().getTime()
      assert.deepEqual([await runAt('a-1'), await runAt('s-1'), await runAt('x-1')], [leaseMs, leaseMs, 0])
      assert.equal((await row('x-1'))?.lease_token, null, 'a kind this runner does not know waits')
      assert.deepEqual(await queue.claim(10, leaseMs, [], []), [], 'no kind: nothing is taken')
    })

    test('a renewal moves the lease of a claim still its own; a settled or lost claim is not renewed', async () => {
      await enqueue(job('r-1'), job('r-2'))
      const [first, second] = await queue.claim(10, leaseMs)
      assert.ok(first && second)
      clock.advance(leaseMs - 1)
      assert.equal(await queue.renew([first, second], leaseMs), 2)
      clock.advance(leaseMs - 1)
      assert.deepEqual(await queue.claim(10, leaseMs), [], 'renewed: still hidden past the first lease')
      assert.equal(await complete(first), true)
      clock.advance(2)
      const [again] = await queue.claim(10, leaseMs)
      assert.equal(again?.id, 'r-2', 'the lease ran out without a renewal: claimed again')
      assert.equal(await queue.renew([first, second], leaseMs), 0, 'finished, and taken by another claim')
      assert.equal(await queue.renew([again!], leaseMs), 1)
    })

    test("dropping a group's queued jobs leaves the running ones, other groups and dead jobs", async () => {
      await enqueue(job('d-dead', { group: 'delivery:v1' }))
      const [dead] = await queue.claim(1, leaseMs)
      await queue.kill(dead!, 'does not fit')
      await enqueue(
        job('d-run', { group: 'delivery:v1' }),
        job('d-wait', { group: 'delivery:v1', runAt: later(60_000) }),
        job('d-now', { group: 'delivery:v1', runAt: later(1) }),
        job('other', { group: 'delivery:v2' }),
      )
      const [running] = await queue.claim(1, leaseMs)
      assert.equal(running?.id, 'd-run')
      const dropped = await svc.services.store.transaction((tx) => queue.dropQueued(tx, 'delivery:v1'))
      assert.equal(dropped, 2)
      const left = await svc.services.db.kysely.selectFrom('jobs').select('id').orderBy('id').execute()
      assert.deepEqual(
        left.map((r) => r.id),
        ['d-dead', 'd-run', 'other'],
      )
      assert.equal(await complete(running!), true, 'the running job settles as usual')
    })

    test('jobs of a busy group are left for later; other groups and ungrouped jobs are taken', async () => {
      await enqueue(job('g-1', { group: 'alert:p-1' }), job('g-2', { group: 'alert:p-2' }), job('g-3'))
      assert.deepEqual(ids(await queue.claim(10, leaseMs, ['alert:p-1'])), ['g-2', 'g-3'])
      assert.deepEqual(ids(await queue.claim(10, leaseMs)), ['g-1'])
    })

    test('a dead job keeps its reason, is never claimed again and is not counted', async () => {
      await enqueue(job('broken'))
      const [claimed] = await queue.claim(10, leaseMs)
      assert.ok(claimed)
      await queue.kill(claimed, "the alert job's payload is not valid")
      const stored = await row('broken')
      assert.equal(stored?.last_error, "the alert job's payload is not valid")
      assert.ok(stored?.failed_at)
      assert.equal(await queue.depth(), 0)
      assert.equal(await queue.nextDueAt(), null)
      clock.advance(365 * 24 * 3600_000)
      assert.deepEqual(await queue.claim(10, leaseMs), [])
    })

    test('retryAt gives the job back at a later time, records the error, and the next claim is attempt 2', async () => {
      await enqueue(job('retry'))
      const [claimed] = await queue.claim(10, leaseMs)
      assert.ok(claimed)
      const at = later(60_000)
      await queue.retryAt(claimed, at, 'PSA timed out')
      const stored = await row('retry')
      assert.equal(stored?.last_error, 'PSA timed out')
      assert.equal(stored?.lease_token, null)
      assert.equal((await queue.nextDueAt())?.toISOString(), at.toISOString())
      assert.equal(await complete(claimed), false, 'the given-back lease no longer completes it')
      clock.advance(59_999)
      assert.deepEqual(await queue.claim(10, leaseMs), [])
      clock.advance(1)
      const [again] = await queue.claim(10, leaseMs)
      assert.equal(again?.id, 'retry')
      assert.equal(again?.attempts, 2)
    })

    test('retryAt with a lost lease changes nothing', async () => {
      await enqueue(job('owned'))
      const [stale] = await queue.claim(10, leaseMs)
      clock.advance(leaseMs + 1)
      const [current] = await queue.claim(10, leaseMs)
      assert.ok(stale && current)
      const leased = await row('owned')
      assert.equal(leased?.lease_token, current.leaseToken)
      await queue.retryAt(stale, later(1000), 'late worker')
      assert.deepEqual(await row('owned'), leased)
    })

    test('jobs with the same dedupeKey coalesce while queued, but not once the first was claimed', async () => {
      await enqueue(job('snap-1', { kind: 'snapshot', dedupeKey: 'snapshot:i-1', payload: { n: 1 } }))
      await enqueue(job('snap-2', { kind: 'snapshot', dedupeKey: 'snapshot:i-1', payload: { n: 2 } }))
      await enqueue(job('other', { kind: 'snapshot', dedupeKey: 'snapshot:i-2' }))
      assert.equal(await queue.depth(), 2, 'the second enqueue for i-1 was dropped')
      const claimed = await queue.claim(10, leaseMs)
      assert.deepEqual(
        claimed.map((j) => [j.id, j.kind, j.payload]),
        [
          ['other', 'snapshot', { id: 'other' }],
          ['snap-1', 'snapshot', { n: 1 }],
        ],
      )
      // snap-1 is running: a new job for the same key is queued beside it.
      await enqueue(job('snap-3', { kind: 'snapshot', dedupeKey: 'snapshot:i-1', payload: { n: 3 } }))
      assert.equal(await queue.depth(), 3)
      assert.deepEqual(ids(await queue.claim(10, leaseMs)), ['snap-3'])
    })

    test('two jobs with one dedupeKey in the same enqueue call coalesce too', async () => {
      await enqueue(job('x-1', { dedupeKey: 'k' }), job('x-2', { dedupeKey: 'k' }), job('x-3'))
      assert.equal(await queue.depth(), 2)
      assert.deepEqual(ids(await queue.claim(10, leaseMs)), ['x-1', 'x-3'])
    })

    // PostgreSQL runs transactions side by side: a change that found its snapshot already queued must
    // not see that job run (and read the state) before the change commits, or the state it made is
    // never sent. SQLite runs one write at a time, so there is nothing to interleave.
    if (backend !== 'sqlite')
      test('a queued job whose dedupeKey an open transaction hit is not claimed until that transaction ends', async () => {
        await enqueue(job('snap-a', { kind: 'snapshot', dedupeKey: 'snapshot:i-9' }))
        let commit!: () => void
        const held = new Promise<void>((r) => {
          commit = r
        })
        let enqueued!: () => void
        const hit = new Promise<void>((r) => {
          enqueued = r
        })
        const change = svc.services.store.transaction(async (tx) => {
          await queue.enqueue(tx, [job('snap-b', { kind: 'snapshot', dedupeKey: 'snapshot:i-9' })])
          enqueued()
          await held
        })
        await hit
        try {
          assert.deepEqual(ids(await queue.claim(10, leaseMs)), [], 'claim waits for the change')
          assert.deepEqual(ids(await queue.claimIds(['snap-a'], leaseMs)), [], 'so does a claim by id')
        } finally {
          commit()
          await change
        }
        assert.equal(await queue.depth(), 1, "the change's own job was dropped for the queued one")
        assert.deepEqual(ids(await queue.claimIds(['snap-a'], leaseMs)), ['snap-a'])
      })

    test('concurrent claims never hand out the same job twice', async () => {
      const all = Array.from({ length: 24 }, (_, i) => `c-${String(i).padStart(2, '0')}`)
      await enqueue(...all.map((id) => job(id)))
      const batches = await Promise.all(Array.from({ length: 6 }, () => queue.claim(5, leaseMs)))
      const claimed = batches.flatMap(ids)
      assert.equal(new Set(claimed).size, claimed.length, `a job was claimed twice: ${claimed.join(',')}`)
      // Whatever a claim skipped (locked by another) is still there for the next one.
      claimed.push(...ids(await queue.claim(100, leaseMs)))
      assert.deepEqual(claimed.sort(), all)
    })

    test('nextDueAt is the earliest runAt or lease end; depth counts waiting and running jobs', async () => {
      const start = clock()
      await enqueue(job('late', { runAt: later(60_000) }), job('early', { runAt: later(5000) }))
      assert.equal((await queue.nextDueAt())?.toISOString(), later(5000).toISOString())
      assert.equal(await queue.depth(), 2)
      await enqueue(job('due'))
      assert.equal((await queue.nextDueAt())?.toISOString(), start.toISOString())
      assert.equal(await queue.depth(), 3)

      const [running] = await queue.claim(10, 10_000)
      assert.equal(running?.id, 'due')
      assert.equal(await queue.depth(), 3, 'a running job still counts')
      assert.equal((await queue.nextDueAt())?.toISOString(), later(5000).toISOString())

      clock.advance(5000)
      assert.deepEqual(ids(await queue.claim(10, 10_000)), ['early'])
      // Leases end at start+10s and start+15s, the last job is due at start+60s.
      assert.equal((await queue.nextDueAt())?.toISOString(), new Date(start.getTime() + 10_000).toISOString())
      assert.ok(running)
      assert.equal(await complete(running), true)
      assert.equal((await queue.nextDueAt())?.toISOString(), new Date(start.getTime() + 15_000).toISOString())
      assert.equal(await queue.depth(), 2)
    })
  })
}
