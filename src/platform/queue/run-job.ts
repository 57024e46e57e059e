// Running one claimed job and applying its handler's answer to the job's row: shared by the embedded
// runner (sql-runner.ts) and the Redis transport's worker (redis-runner.ts), which differ only in how a
// job reaches them. done removes the job, retry gives it back after the kind's retry delay, hold parks it
// until resumed (or the hold period passes), and a payload that does not fit its kind makes it dead.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import { canRetry, retryDelayMs, waitOf } from './jobs.js'
import type { JobKindEntry } from './port.js'
import type { ClaimedJob, SqlJobQueue } from './sql-queue.js'

export const defaultHoldMs = 10 * 60 * 1000

export interface RunJobDeps {
  queue: Pick<SqlJobQueue, 'complete' | 'completeIn' | 'retryAt' | 'hold' | 'kill' | 'resumeNow'>
  clock: Clock
  log: FastifyBaseLogger
  /** How long a held job waits before it is looked at again if nothing resumes it (10 minutes). */
  holdMs?: number
}

/** What became of the job: `done` once removed, else how its row was left. */
export type JobEnd = 'done' | 'retry' | 'hold' | 'dead' | 'unsettled'

/** The runs that counted as failed attempts: every run but those that only waited. */
const failures = (job: ClaimedJob) => job.attempts - job.waits

/** How long ago the job was queued. */
const ageOf = (job: ClaimedJob, now: Date) => now.getTime() - Date.parse(job.createdAt)

/**
 * Runs a claimed job of `kind` and records the answer; never throws. `groupDone`: the runner's end of
 * the job's turn in its group's cap, for the handler to call early (RunningJob.groupDone).
 * `handlerDone`: called once the handler has answered, before the answer is written; the lease's
 * renewal stops there (recording is one write, well within the lease), so a renewal racing the
 * write that removes the job is not taken for a lease that ran out.
 */
export async function runJob(
  deps: RunJobDeps,
  kind: JobKindEntry,
  job: ClaimedJob,
  groupDone: () => void = () => {},
  handlerDone: () => void = () => {},
): Promise<JobEnd> {
  const { queue, clock, log } = deps
  try {
    let result: Awaited<ReturnType<JobKindEntry['run']>>
    try {
      result = await kind.run({
        id: job.id,
        kind: job.kind,
        payload: job.payload,
        attempt: job.attempts,
        canRetry: canRetry(kind.retry, failures(job)),
        canWait: waitOf(kind.retry, 0, ageOf(job, clock())).free,
        groupDone,
        finishIn: (tx) => queue.completeIn(tx, job),
      })
    } catch (err) {
      log.error({ err, jobId: job.id, kind: job.kind }, 'job handler failed; the job runs again later')
      result = { kind: 'retry', reason: err instanceof Error ? err.message : String(err) }
    }
    handlerDone()
    switch (result.kind) {
      case 'done':
        if (!result.finished) await queue.complete([job])
        return 'done'
      case 'retry': {
        const delayMs = retryDelayMs(kind.retry, failures(job), result.notBeforeMs)
        await queue.retryAt(job, new Date(clock().getTime() + delayMs), result.reason)
        log.info(
          { jobId: job.id, kind: job.kind, attempt: job.attempts, delayMs, reason: result.reason },
          'the job will be tried again',
        )
        return 'retry'
      }
      case 'wait': {
        const { delayMs, free } = waitOf(kind.retry, result.notBeforeMs, ageOf(job, clock()))
        await queue.retryAt(job, new Date(clock().getTime() + delayMs), result.reason, !free)
        log.info(
          { jobId: job.id, kind: job.kind, attempt: job.attempts, delayMs, free, reason: result.reason },
          'the job waits as it was asked to',
        )
        return 'retry'
      }
      case 'hold': {
        const holdMs = deps.holdMs ?? defaultHoldMs
        await queue.hold(job, result.key, new Date(clock().getTime() + holdMs), result.reason)
        if (result.stillHeld && !(await result.stillHeld())) {
          await queue.resumeNow(result.key)
          return 'retry'
        }
        log.info({ jobId: job.id, kind: job.kind, key: result.key, reason: result.reason }, 'a job is held')
        return 'hold'
      }
      case 'invalid':
        await queue.kill(job, result.reason)
        log.error({ jobId: job.id, kind: job.kind, reason: result.reason }, 'a job is dead')
        return 'dead'
    }
  } catch (err) {
    // The queue itself failed (the database): the job keeps its lease and runs again after it.
    log.error(
      { err, jobId: job.id, kind: job.kind },
      'could not record what became of a job; it runs again after its lease',
    )
    return 'unsettled'
  }
}
