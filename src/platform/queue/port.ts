// The job queue as the rest of the service sees it, in two halves. Producers enqueue jobs inside
// their own transaction, so a job commits (or not) with the rows it belongs to, and hand them over once
// that transaction has committed. A runner, started with the job kinds (jobs.ts: each kind's
// payload schema, retry policy and cap per group), claims due jobs under the one lease every kind has
// (lease.ts: short, renewed while the handler runs), checks each payload against its kind's schema and
// runs the kind's handler, which answers done, retry, wait or hold. The embedded implementation keeps
// jobs in the service's database (sql-queue.ts, sql-runner.ts); a Redis/BullMQ one writes them to an
// outbox table in `enqueue` and relays them in `handOver`, and neither handlers nor producers change.
//
// Delivery is at least once: a job whose runner died runs again. Handlers make that safe themselves
// (an alert's outcome is recorded once per messageId, whoever runs it).
import type { Store } from '../db/store.js'

/** A job ready to enqueue, made by its kind's spec (jobs.ts), which types the payload. */
export interface NewJob {
  id: string
  kind: string
  payload: unknown
  /** Jobs with the same key coalesce while queued: the later enqueue is dropped. */
  dedupeKey?: string
  /** Not before this time; now by default. */
  runAt?: Date
  /** The job's group (its kind's, e.g. an alert's partner): a kind holds its groups to `perGroup` in flight. */
  group?: string
}

export interface JobProducer {
  /** Adds jobs inside the caller's transaction, so they commit (or not) with the caller's rows. */
  enqueue(tx: Store, jobs: readonly NewJob[]): Promise<void>
  /** The caller's transaction has committed: make its jobs runnable now (wake runners, relay). */
  handOver(): void
  /** Enqueues jobs that belong to no other write in a transaction of their own, then hands them over. */
  add(jobs: readonly NewJob[]): Promise<void>
  /**
   * Inside the caller's transaction: the jobs held for `key` (see JobResult `hold`) are due again
   * now; call handOver once it has committed. Answers how many.
   */
  resume(tx: Store, key: string): Promise<number>
}

/** A job as its handler sees it: the payload checked against its kind's schema. */
export interface RunningJob<P> {
  id: string
  kind: string
  payload: P
  /** This attempt's number, from 1. */
  attempt: number
  /** Whether the kind's retry policy allows another attempt after this one. */
  canRetry: boolean
  /** Whether the job may still `wait` without spending an attempt (it is young enough). */
  canWait: boolean
  /**
   * Ends this job's turn in its group's cap before the job ends: the part of the work the cap
   * protects is over (a vendor's endpoint answered), and the group may start its next job while
   * this one records what came of it. Once is enough; a job without a capped group ignores it.
   */
  groupDone?: () => void
  /**
   * Removes this job inside the caller's transaction, so that its last write and the job's removal are
   * one commit (docs/performance.md#statements-per-alert). A handler that called it, and whose
   * transaction committed, answers `{kind: 'done', finished: true}`; the runner then leaves the row
   * alone. Rolled back, the row stays leased and the answer decides as usual.
   */
  finishIn?: (tx: Store) => Promise<void>
}

/**
 * done: the job is finished (`finished`: removed already, in the handler's own transaction); retry: run it again after the policy's delay (or notBeforeMs if later);
 * wait: the work was asked to wait (a PSA's Retry-After): it runs again after notBeforeMs (at least a
 * second, at most the policy's maxWaitMs) without spending an attempt, for as long as the job was
 * queued less than the policy's waitLimitMs ago (after that a wait is a retry, so a PSA that never
 * stops asking cannot hold a job for ever); hold: the job cannot run yet for a reason outside it (its
 * tenant is disabled): it waits, without spending an attempt, until `resume(key)` or, as a safety net,
 * the runner's hold period passes; `stillHeld` closes the race with a resume made while it decided.
 */
export type JobResult =
  | { kind: 'done'; finished?: boolean }
  | { kind: 'retry'; reason: string; notBeforeMs?: number }
  | { kind: 'wait'; reason: string; notBeforeMs: number }
  | {
      kind: 'hold'
      key: string
      reason: string
      /**
       * Asked once the hold is written: false when what held the job changed meanwhile (its tenant
       * enabled while the job was deciding), and the job is due again at once, its key's resume
       * having missed it. It must read past a change still committing (a locking read).
       */
      stillHeld?: () => Promise<boolean>
    }

export interface RetryPolicy {
  /** The delay before each retry, in ms: the first retry waits delaysMs[0]. Once they are spent the job
   * has no retry left (`canRetry` is false); a handler that still answers retry waits the last delay. */
  delaysMs: readonly number[]
  /** The longest a handler's notBeforeMs may hold a job back. */
  maxDelayMs: number
  /** The longest one `wait` holds a job back (5 minutes unless said). */
  maxWaitMs?: number
  /** How long after it was queued a job may still wait without spending attempts (a day unless said). */
  waitLimitMs?: number
}

/** One job kind, its payload type erased behind `run` (built by jobKind in jobs.ts). */
export interface JobKindEntry {
  kind: string
  retry: RetryPolicy
  /** At most this many jobs of one group run at once (one partner's alerts, say); unlimited when unset. */
  perGroup?: number
  /** Checks the payload against the kind's schema and runs the handler; a payload that does not fit
   * answers `invalid` and the job is dead (kept, with the reason, never run again). */
  run(job: RunningJob<unknown>): Promise<JobResult | { kind: 'invalid'; reason: string }>
}

export type JobKindList = readonly JobKindEntry[]

export interface JobRunner {
  /** Starts claiming and running jobs of the kinds it is given. */
  start(kinds: JobKindList): void
  /** Stops claiming and waits up to `graceMs` for the jobs in flight. */
  stop(graceMs: number): Promise<void>
}
