// The job queue as the rest of the service sees it. The embedded implementation (sql-queue.ts) keeps
// jobs in the service's own database, so a job commits in the same transaction as the rows it belongs
// to. A Redis/BullMQ implementation replaces it by writing the job to an outbox table inside `enqueue`
// and relaying it after commit; workers and handlers do not change.
import type { Store } from '../db/store.js'

export const jobKinds = ['alert', 'snapshot'] as const
export type JobKind = (typeof jobKinds)[number]

export interface NewJob {
  id: string
  kind: JobKind
  payload: unknown
  /** Jobs with the same key coalesce while queued: the later enqueue is dropped. */
  dedupeKey?: string
  /** Not before this time; now by default. */
  runAt?: Date
}

export interface ClaimedJob {
  id: string
  kind: JobKind
  payload: unknown
  /** Claims so far, this one included. */
  attempts: number
  /** Proves the claim is still ours when the job completes. */
  leaseToken: string
}

export interface JobQueue {
  /** Adds jobs inside the caller's transaction, so they commit (or not) with the caller's rows. */
  enqueue(tx: Store, jobs: readonly NewJob[]): Promise<void>
  /** Commits jobs that belong to no other write, and wakes the workers. */
  add(jobs: readonly NewJob[]): Promise<void>
  /** Tells this process's workers that jobs were committed, so they wake without polling. */
  notify(): void
  onNotify(listener: () => void): () => void
  /** Takes up to `limit` due jobs for `leaseMs`; a job not completed by then is due again. */
  claim(limit: number, leaseMs: number): Promise<ClaimedJob[]>
  /** Removes a finished job inside the transaction that records its result; false if the lease was lost. */
  complete(tx: Store, job: ClaimedJob): Promise<boolean>
  /** Gives the job back to run again at `runAt`. */
  retryAt(job: ClaimedJob, runAt: Date, error: string): Promise<void>
  /** When the next queued job becomes due (a leased job: when its lease ends), or null if none. */
  nextDueAt(): Promise<Date | null>
  /** Jobs waiting or running. */
  depth(): Promise<number>
}
