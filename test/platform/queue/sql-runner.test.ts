// The embedded runner with a job catalogue of its own, against a real database on each backend (the
// service runs with ROLE=api, so no other runner takes these jobs): a job is checked against its
// kind's payload schema before its handler runs; done removes it; retry gives it back after the
// kind's retry delay (or the handler's later notBefore) with the attempt counted and `canRetry` told;
// a handler that throws is retried the same way; a payload that does not fit makes the job dead
// without running anything, and a kind the catalogue lacks is left queued for a runner that knows it.
// A job running longer than its lease keeps it (the runner renews it) and runs once.
import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, test } from 'node:test'
import pino from 'pino'
import Type from 'typebox'
import { defineJob, jobKind } from '../../../src/platform/queue/jobs.js'
import type { JobResult, RunningJob } from '../../../src/platform/queue/port.js'
import { SqlJobRunner } from '../../../src/platform/queue/sql-runner.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { hold, waitFor } from '../../support/wait.js'

const echo = defineJob({
  kind: 'echo',
  payload: Type.Object({ n: Type.Integer(), answer: Type.Enum(['done', 'retry', 'later', 'throw', 'wait']) }),
  retry: { delaysMs: [20, 40], maxDelayMs: 60_000 },
})

/** Queued "long ago": its waits spend attempts like retries. */
const stale = defineJob({
  kind: 'stale',
  payload: Type.Object({}),
  retry: { delaysMs: [20], maxDelayMs: 60_000, waitLimitMs: 0 },
})

/** Runs for several of this test's short leases. */
const long = defineJob({
  kind: 'long',
  payload: Type.Object({}),
  retry: { delaysMs: [], maxDelayMs: 1000 },
})
const leaseMs = 1500

const grouped = defineJob({
  kind: 'grouped',
  payload: Type.Object({ name: Type.String() }),
  retry: { delaysMs: [], maxDelayMs: 1000 },
  perGroup: 1,
})

for (const backend of backends('matrix')) {
  describe(`SqlJobRunner (${backend})`, () => {
    let svc: TestService
    let runner: SqlJobRunner
    const seen: RunningJob<{ n: number; answer: string }>[] = []
    const calledAt: number[] = []
    const staleRuns: [number, boolean, boolean][] = []
    const spans: { name: string; start: number; end: number }[] = []
    const longRuns: number[] = []
    before(async () => {
      svc = await startService({ backend, env: { ROLE: 'api' } })
      runner = new SqlJobRunner({
        queue: svc.services.jobs,
        clock: svc.services.clock,
        log: pino({ level: 'silent' }),
        concurrency: 4,
        idleMs: 50,
        // Short leases, renewed often: a job running longer than one is not claimed again.
        leaseMs,
        renewEveryMs: 250,
      })
      runner.start([
        jobKind(echo, async (job): Promise<JobResult> => {
          seen.push(job)
          calledAt.push(Date.now())
          switch (job.payload.answer) {
            case 'done':
              return { kind: 'done' }
            case 'retry':
              return job.attempt < 3 ? { kind: 'retry', reason: 'not yet' } : { kind: 'done' }
            case 'wait':
              return job.attempt < 3
                ? { kind: 'wait', reason: 'asked to wait', notBeforeMs: 0 }
                : { kind: 'done' }
            case 'later':
              return job.attempt < 2 ? { kind: 'retry', reason: 'wait', notBeforeMs: 1000 } : { kind: 'done' }
            default:
              if (job.attempt < 2) throw new Error('handler broke')
              return { kind: 'done' }
          }
        }),
        jobKind(stale, async (job): Promise<JobResult> => {
          staleRuns.push([job.attempt, job.canRetry, job.canWait])
          return job.attempt < 2
            ? { kind: 'wait', reason: 'asked to wait', notBeforeMs: 0 }
            : { kind: 'done' }
        }),
        jobKind(long, async () => {
          longRuns.push(Date.now())
          await hold(3 * leaseMs, 'a job that runs past three lease lengths')
          return { kind: 'done' }
        }),
        jobKind(grouped, async (job) => {
          const start = Date.now()
          await hold(150, 'a job that takes a while, so that group members would overlap')
          spans.push({ name: job.payload.name, start, end: Date.now() })
          return { kind: 'done' }
        }),
      ])
    })
    after(async () => {
      await runner.stop(1000)
      await svc.close()
    })
    beforeEach(async () => {
      seen.length = 0
      calledAt.length = 0
      await svc.services.db.kysely.deleteFrom('jobs').execute()
    })

    const jobs = () => svc.services.db.kysely.selectFrom('jobs').selectAll().orderBy('id').execute()
    const gone = async () => (await jobs()).length === 0

    test("a group's jobs run one at a time (the kind's cap) while another group's run beside them", async () => {
      await svc.services.jobs.add([
        grouped.job({ id: 'p1-a', payload: { name: 'p1-a' }, group: 'p1' }),
        grouped.job({ id: 'p1-b', payload: { name: 'p1-b' }, group: 'p1' }),
        grouped.job({ id: 'p2-a', payload: { name: 'p2-a' }, group: 'p2' }),
      ])
      await waitFor(gone, { what: 'the jobs to be removed' })
      const span = (name: string) => spans.find((s) => s.name === name)!
      assert.ok(span('p1-b').start >= span('p1-a').end, 'the second of p1 waited for the first')
      assert.ok(span('p2-a').start < span('p1-a').end, 'p2 ran beside p1')
    })

    test('a job running three leases long keeps its lease (renewed) and runs once', async () => {
      await svc.services.jobs.add([long.job({ id: 'j-long', payload: {} })])
      await waitFor(async () => longRuns.length === 1, { what: 'the job to start' })
      const claimedUntil = Date.parse((await jobs())[0]!.run_at)
      await waitFor(async () => Date.parse((await jobs())[0]!.run_at) > claimedUntil, {
        what: 'the lease to be renewed',
      })
      await waitFor(gone, { what: 'the job to be removed' })
      assert.equal(longRuns.length, 1, 'never claimed again while it ran')
    })

    test('a done job runs once with its typed payload and is removed', async () => {
      await svc.services.jobs.add([echo.job({ id: 'j-done', payload: { n: 1, answer: 'done' } })])
      await waitFor(gone, { what: 'the job to be removed' })
      assert.deepEqual(
        seen.map((j) => [j.id, j.kind, j.payload, j.attempt, j.canRetry]),
        [['j-done', 'echo', { n: 1, answer: 'done' }, 1, true]],
      )
    })

    test('retry runs the job again after the policy delay, counting attempts; canRetry ends with the policy', async () => {
      await svc.services.jobs.add([echo.job({ id: 'j-retry', payload: { n: 2, answer: 'retry' } })])
      await waitFor(gone, { what: 'the job to be removed' })
      assert.deepEqual(
        seen.map((j) => [j.attempt, j.canRetry]),
        [
          [1, true],
          [2, true],
          [3, false],
        ],
      )
    })

    test("a handler's later notBefore wins over the policy's delay", async () => {
      await svc.services.jobs.add([echo.job({ id: 'j-later', payload: { n: 3, answer: 'later' } })])
      // The handler runs before its answer is recorded: wait for the record, not the call.
      await waitFor(async () => (await jobs())[0]?.last_error === 'wait', {
        what: 'the first attempt to be recorded',
      })
      const [row] = await jobs()
      assert.equal(seen.length, 1)
      assert.ok(
        Date.parse(row!.run_at) - calledAt[0]! >= 900,
        'held back by the notBefore, not the 20 ms delay',
      )
      await waitFor(gone, { what: 'the job to be removed' })
      assert.equal(seen.length, 2)
    })

    test('a wait runs the job again after at least a second without spending an attempt', async () => {
      await svc.services.jobs.add([echo.job({ id: 'j-wait', payload: { n: 5, answer: 'wait' } })])
      await waitFor(async () => (await jobs())[0]?.last_error === 'asked to wait', {
        what: 'the first wait to be recorded',
      })
      const [row] = await jobs()
      assert.deepEqual([row?.attempts, row?.waits], [1, 1])
      assert.ok(Date.parse(row!.run_at) - calledAt[0]! >= 900, 'held back a second, not the 20 ms delay')
      await waitFor(gone, { what: 'the job to be removed' })
      // Two waits and a run: every run is an attempt, but the schedule (two retries) is untouched.
      assert.deepEqual(
        seen.map((j) => [j.attempt, j.canRetry, j.canWait]),
        [
          [1, true, true],
          [2, true, true],
          [3, true, true],
        ],
      )
    })

    test("past the policy's wait limit a wait spends an attempt", async () => {
      staleRuns.length = 0
      await svc.services.jobs.add([stale.job({ id: 'j-stale', payload: {} })])
      await waitFor(gone, { what: 'the job to be removed' })
      assert.deepEqual(staleRuns, [
        [1, true, false],
        [2, false, false],
      ])
    })

    test('a handler that throws is retried like a retry', async () => {
      await svc.services.jobs.add([echo.job({ id: 'j-throw', payload: { n: 4, answer: 'throw' } })])
      await waitFor(gone, { what: 'the job to be removed' })
      assert.deepEqual(
        seen.map((j) => j.attempt),
        [1, 2],
      )
    })

    test('a payload that does not fit its kind makes the job dead unrun; an unknown kind waits', async () => {
      await svc.services.jobs.add([
        { id: 'j-bad', kind: 'echo', payload: { n: 'five', answer: 'done' } },
        { id: 'j-unknown', kind: 'no-such-kind', payload: {} },
      ])
      await waitFor(async () => (await jobs()).some((j) => j.failed_at !== null), {
        what: 'the bad job to die',
      })
      await hold(200, 'a period in which neither job may run')
      assert.equal(seen.length, 0)
      const [bad, unknown] = await jobs()
      assert.match(bad?.last_error ?? '', /the echo job's payload is not valid: \/n/)
      assert.deepEqual([unknown?.failed_at, unknown?.attempts, unknown?.lease_token], [null, 0, null])
      assert.equal(await svc.services.jobs.depth(), 1)
      assert.equal(await svc.services.jobs.deadCount(), 1)
      const metrics = await svc.request('GET', '/metrics')
      assert.match(metrics.text, /^alertbridge_jobs_dead 1$/m)
    })
  })
}
