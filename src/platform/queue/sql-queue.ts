// The embedded queue: jobs live in the `jobs` table of the service's database (SQLite by default,
// PostgreSQL too). `run_at` is both the schedule and the visibility timeout: a claim moves it to the
// end of the lease (lease.ts: 30 s, renewed while the job runs), so a job whose runner died is simply
// due again. PostgreSQL claims with FOR UPDATE SKIP LOCKED so that several runners never take the same
// job; SQLite serialises writers. A job whose payload no longer fits its kind is dead: kept with its
// reason, never claimed again. The reads (depth, what became due) are SqlJobReads' (sql-queue-reads.ts).
import { EventEmitter } from 'node:events'
import type { Kysely, SelectQueryBuilder } from 'kysely'
import type { Clock } from '../clock.js'
import type { Db } from '../db/connect.js'
import type { Database } from '../db/schema.js'
import type { Store } from '../db/store.js'
import type { WriteBatcher } from '../db/write-batch.js'
import { coalescedAdd } from './coalesce.js'
import type { JobProducer, NewJob } from './port.js'
import { completeOne, groupHasDue, leaseGroup, leaseUpdate, leaseWith } from './sql-queue-claims.js'
import { type JobRef, never, SqlJobReads, toRef } from './sql-queue-reads.js'
import { type ClaimedJob, insertJobs, leasedBy, rowInserter, toRows } from './sql-queue-rows.js'

export type { JobRef } from './sql-queue-reads.js'
export type { ClaimedJob } from './sql-queue-rows.js'

type DueJobs = (db: Kysely<Database>) => SelectQueryBuilder<Database, 'jobs', { id: string }>

export class SqlJobQueue extends SqlJobReads implements JobProducer {
  private readonly events = new EventEmitter()

  constructor(
    store: Store,
    /** Its dialect picks the claim query; its embedded connection (SQLite) takes the hot insert. */
    private readonly db: Pick<Db, 'dialect' | 'sqlite'>,
    clock: Clock,
    /** When given, the runner's writes (claims, completions, retries) share the batches' commits. */
    private readonly writes?: Pick<WriteBatcher, 'run'>,
  ) {
    super(store, clock)
    this.insertRows = rowInserter(db.sqlite, store.kysely)
    this.events.setMaxListeners(0)
  }

  /** One write of the runner's: in the next batch, or on its own. */
  private write<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.writes ? this.writes.run((tx) => work(tx.kysely)) : work(this.store.kysely)
  }

  private readonly insertRows: ReturnType<typeof rowInserter>

  async enqueue(tx: Store, jobs: readonly NewJob[]): Promise<void> {
    await this.insertRows(tx, toRows(jobs, this.clock().toISOString()))
  }

  /** Adds jobs in the caller's transaction; answers those added (not dropped for their dedupe key). */
  async insert(tx: Store, jobs: readonly NewJob[]): Promise<JobRef[]> {
    const rows = toRows(jobs, this.clock().toISOString())
    if (rows.length === 0) return []
    const added = await insertJobs(tx.kysely, rows)
      .returning(['id', 'kind', 'group_key', 'run_at', 'created_at'])
      .execute()
    return added.map(toRef)
  }

  /** Claims the given jobs if they are due (not leased, not scheduled later, not dead); see claim(). */
  async claimIds(ids: readonly string[], leaseMs: number): Promise<ClaimedJob[]> {
    if (ids.length === 0) return []
    const now = this.clock()
    return this.takeLeases(now, leaseMs, (db) =>
      db
        .selectFrom('jobs')
        .select('id')
        .where('id', 'in', ids)
        .where('run_at', '<=', now.toISOString())
        .where('failed_at', 'is', null),
    )
  }

  /**
   * A group's next due jobs, earliest first (its index: not slowed by the rest of the queue). It runs
   * for every job a group runner takes, so its look and its lease are prepared (sql-queue-claims.ts).
   */
  async claimNextOf(group: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    if (limit <= 0) return []
    const now = this.clock()
    const at = now.toISOString()
    if ((await groupHasDue(this.store.kysely, group, at, 1)).length === 0) return []
    const lease = this.db.dialect === 'postgres' ? leaseGroup.postgres : leaseGroup.sqlite
    const claimed = await leaseWith(
      (w) => this.write(w),
      new Date(now.getTime() + leaseMs),
      (db, runAt, token) => lease(db, runAt, token, group, at, limit),
    )
    return claimed.sort((a, b) => (a.id < b.id ? -1 : 1))
  }

  /** Adds made before their write runs share it, in the batches' accept lane (ahead of background work). */
  private readonly addTogether = coalescedAdd((take) =>
    this.writes
      ? this.writes.run((tx) => this.enqueue(tx, take()), 'accept')
      : this.store.transaction((tx) => this.enqueue(tx, take())),
  )

  async add(jobs: readonly NewJob[]): Promise<void> {
    await this.addTogether(jobs)
    this.handOver()
  }

  handOver(): void {
    this.events.emit('enqueued')
  }

  /** Runners of this process listen, so that they wake without polling. */
  onHandOver(listener: () => void): () => void {
    this.events.on('enqueued', listener)
    return () => this.events.off('enqueued', listener)
  }

  /**
   * Takes up to `limit` due jobs, earliest first, none of the `busy` groups; each is hidden for
   * `leaseMs` (its runner renews the lease while it runs the job). Given `kinds`, only those are
   * taken: a job of a kind this runner does not know (one a newer version queued) waits for a runner
   * that does.
   */
  async claim(
    limit: number,
    leaseMs: number,
    busy: readonly string[] = [],
    kinds: readonly string[] | null = null,
  ): Promise<ClaimedJob[]> {
    if (limit <= 0 || kinds?.length === 0) return []
    const now = this.clock()
    const due = (db: Kysely<Database>) =>
      db
        .selectFrom('jobs')
        .select('id')
        .where('run_at', '<=', now.toISOString())
        .$if(kinds !== null, (q) => q.where('kind', 'in', kinds ?? []))
        .$if(busy.length > 0, (q) =>
          q.where((eb) => eb.or([eb('group_key', 'is', null), eb('group_key', 'not in', busy)])),
        )
        .orderBy('run_at')
        .orderBy('id')
        .limit(limit)
    return (await this.claimDue(now, leaseMs, due)).sort((a, b) => (a.id < b.id ? -1 : 1))
  }

  /**
   * takeLeases after a look: most claims find nothing (docs/performance.md#statements-per-alert), and
   * then cost one read, not a write. A job due after the look wakes the runner again (hand-over, due time).
   */
  private async claimDue(now: Date, leaseMs: number, due: DueJobs): Promise<ClaimedJob[]> {
    if ((await due(this.store.kysely).limit(1).execute()).length === 0) return []
    return this.takeLeases(now, leaseMs, due)
  }

  /**
   * Leases the jobs the query `due` picks for `leaseMs`, with a new token. On PostgreSQL rows locked by
   * another transaction are skipped: another claim's, or a change's that counted on the job (insertJobs).
   */
  private takeLeases(now: Date, leaseMs: number, due: DueJobs): Promise<ClaimedJob[]> {
    const picked = (db: Kysely<Database>) =>
      this.db.dialect === 'postgres' ? due(db).forUpdate().skipLocked() : due(db)
    return leaseWith(
      (w) => this.write(w),
      new Date(now.getTime() + leaseMs),
      (db, runAt, token) => leaseUpdate(db, runAt, token, picked(db)).execute(),
    )
  }

  /** Removes finished jobs whose lease is still their runner's; answers how many it removed. */
  async complete(jobs: readonly ClaimedJob[]): Promise<number> {
    if (jobs.length === 0) return 0
    const result = await this.write((db) => db.deleteFrom('jobs').where(leasedBy(jobs)).executeTakeFirst())
    return Number(result.numDeletedRows)
  }

  /** Inside the caller's transaction: removes a finished job if its lease is still its runner's. */
  async completeIn(tx: Store, job: ClaimedJob): Promise<void> {
    await completeOne(tx.kysely, job.id, job.leaseToken)
  }

  /** Moves the end of each claim's lease to `leaseMs` from now if still its own; answers how many. */
  async renew(jobs: readonly ClaimedJob[], leaseMs: number): Promise<number> {
    if (jobs.length === 0) return 0
    const until = new Date(this.clock().getTime() + leaseMs).toISOString()
    const result = await this.write((db) =>
      db.updateTable('jobs').set({ run_at: until }).where(leasedBy(jobs)).executeTakeFirst(),
    )
    return Number(result.numUpdatedRows)
  }

  /** Gives claimed jobs back unrun, as if never claimed (their runner has no room for them now). */
  async release(jobs: readonly ClaimedJob[]): Promise<void> {
    if (jobs.length === 0) return
    await this.write((db) =>
      db
        .updateTable('jobs')
        .set((eb) => ({
          run_at: this.clock().toISOString(),
          lease_token: null,
          attempts: eb('attempts', '-', 1),
        }))
        .where(leasedBy(jobs))
        .execute(),
    )
  }

  /** A job that can never run (its payload does not fit its kind): kept with the reason, never due. */
  async kill(job: ClaimedJob, reason: string): Promise<void> {
    await this.write((db) =>
      db
        .updateTable('jobs')
        .set({
          run_at: never,
          lease_token: null,
          last_error: reason.slice(0, 2000),
          failed_at: this.clock().toISOString(),
        })
        .where(leasedBy([job]))
        .execute(),
    )
  }

  /**
   * Gives a claimed job back to run again at `runAt`. `spent: false` when the run does not count as a
   * failed attempt (the work asked to wait, e.g. a PSA's Retry-After: waiting is not failing); it is
   * still a run (`attempts`), counted among `waits`.
   */
  async retryAt(job: ClaimedJob, runAt: Date, error: string, spent = true): Promise<void> {
    await this.write((db) =>
      db
        .updateTable('jobs')
        .set((eb) => ({
          run_at: runAt.toISOString(),
          lease_token: null,
          last_error: error.slice(0, 2000),
          ...(spent ? {} : { waits: eb('waits', '+', 1) }),
        }))
        .where(leasedBy([job]))
        .execute(),
    )
  }

  /** Gives a claimed job back unrun until `runAt` or `resume(key)`; the claim does not count as an attempt. */
  async hold(job: ClaimedJob, key: string, runAt: Date, reason: string): Promise<void> {
    await this.write((db) =>
      db
        .updateTable('jobs')
        .set((eb) => ({
          run_at: runAt.toISOString(),
          lease_token: null,
          attempts: eb('attempts', '-', 1),
          hold_key: key,
          last_error: reason.slice(0, 2000),
        }))
        .where(leasedBy([job]))
        .execute(),
    )
  }

  async resume(tx: Store, key: string): Promise<number> {
    const r = await tx.kysely
      .updateTable('jobs')
      .set({ run_at: this.clock().toISOString(), hold_key: null })
      .where('hold_key', '=', key)
      .where('lease_token', 'is', null)
      .executeTakeFirst()
    return Number(r.numUpdatedRows)
  }

  /** The jobs held for `key` are due now, on their own (a hold that raced the change resuming it). */
  resumeNow(key: string): Promise<number> {
    return this.resume(this.store, key)
  }

  /** Inside the caller's transaction: deletes a group's queued jobs (not running, not dead). */
  async dropQueued(tx: Store, group: string): Promise<number> {
    const r = await tx.kysely
      .deleteFrom('jobs')
      .where('group_key', '=', group)
      .where('lease_token', 'is', null)
      .where('failed_at', 'is', null)
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  /** Embedded mode has one process: at start, every lease belongs to a process that died. */
  async releaseOrphanedLeases(): Promise<number> {
    const r = await this.store.kysely
      .updateTable('jobs')
      .set({ run_at: this.clock().toISOString(), lease_token: null })
      .where('lease_token', 'is not', null)
      .executeTakeFirst()
    return Number(r.numUpdatedRows)
  }
}
