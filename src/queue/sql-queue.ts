// The embedded queue: jobs live in the `jobs` table of the service's database (SQLite by default,
// PostgreSQL too). `run_at` is both the schedule and the visibility timeout: a claim moves it to the
// end of the lease, so a job whose runner died is simply due again. PostgreSQL claims with
// FOR UPDATE SKIP LOCKED so that several runners never take the same job; SQLite serialises writers.
// A job whose payload no longer fits its kind is dead: kept with its reason, never claimed again.
import { EventEmitter } from 'node:events'
import type SQLite from 'better-sqlite3'
import { type Insertable, type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../clock.js'
import type { Db } from '../db/connect.js'
import type { Database, JobsTable } from '../db/schema.js'
import type { Store } from '../db/store.js'
import type { WriteBatcher } from '../db/write-batch.js'
import { coalescedAdd } from './coalesce.js'
import type { JobProducer, NewJob } from './port.js'

type JobRow = Insertable<JobsTable>

/** A job taken by a runner: its lease token proves the claim is still its own. */
export interface ClaimedJob {
  id: string
  kind: string
  group: string | null
  payload: unknown
  /** Claims so far, this one included. */
  attempts: number
  /** Of those, the runs that only waited as they were asked to (see retryAt): not failures. */
  waits: number
  leaseToken: string
  /** When the job was queued (ISO). */
  createdAt: string
}

/** How long a claim hides a job: one lease for all, or one per kind (the longest for any other kind). */
export type LeaseMs = number | Readonly<Record<string, number>>

/** A queued job's row as the Redis transport hands it over: which job, of which kind and group, due when. */
export interface JobRef {
  id: string
  kind: string
  group: string | null
  /** ISO time it is due (for a leased job: when its lease ends). */
  runAt: string
  createdAt: string
}

const toRef = (r: {
  id: string
  kind: string
  group_key: string | null
  run_at: string
  created_at: string
}) => ({
  id: r.id,
  kind: r.kind,
  group: r.group_key,
  runAt: r.run_at,
  createdAt: r.created_at,
})

/** The end of a claim's lease, per kind when the leases differ (SQL: one value, or a CASE on kind). */
function leaseEnd(now: Date, leaseMs: LeaseMs) {
  const until = (ms: number) => new Date(now.getTime() + ms).toISOString()
  return typeof leaseMs === 'number'
    ? until(leaseMs)
    : sql<string>`case kind ${sql.join(
        Object.entries(leaseMs).map(([kind, ms]) => sql`when ${kind} then ${until(ms)}`),
        sql` `,
      )} else ${until(Math.max(...Object.values(leaseMs)))} end`
}

/** A query picking the ids of jobs to claim. */
type DueJobs = (db: Kysely<Database>) => SelectQueryBuilder<Database, 'jobs', { id: string }>

/** The run_at of a dead job: never due. */
const never = '9999-12-31T23:59:59.999Z'

/** The rows to insert; of jobs in one call sharing a dedupe key, the first (one INSERT may not touch a
 * conflicting row twice). */
function toRows(jobs: readonly NewJob[], now: string): JobRow[] {
  const keys = new Set<string>()
  const once = jobs.filter((j) => {
    if (j.dedupeKey === undefined) return true
    if (keys.has(j.dedupeKey)) return false
    keys.add(j.dedupeKey)
    return true
  })
  return once.map((j) => ({
    id: j.id,
    kind: j.kind,
    dedupe_key: j.dedupeKey ?? null,
    payload: JSON.stringify(j.payload),
    attempts: 0,
    run_at: j.runAt ? j.runAt.toISOString() : now,
    lease_token: null,
    last_error: null,
    failed_at: null,
    group_key: j.group ?? null,
    created_at: now,
  }))
}

/**
 * A job whose dedupe key is queued already is dropped, and the queued one is locked until the caller's
 * transaction ends (an upsert that updates nothing still locks the row it met, on PostgreSQL): the
 * queued job reads the state when it runs, so it must not be claimed while the change that counted on
 * it is uncommitted (claims skip locked rows). SQLite runs one write at a time; there it is a no-op.
 */
const insertJobs = (db: Kysely<Database>, values: JobRow | JobRow[]) =>
  db
    .insertInto('jobs')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('dedupe_key')
        .doUpdateSet({ dedupe_key: (eb) => eb.ref('excluded.dedupe_key') })
        .where(sql<boolean>`false`),
    )

export class SqlJobQueue implements JobProducer {
  private readonly events = new EventEmitter()

  constructor(
    private readonly store: Store,
    /** Its dialect picks the claim query; its embedded connection (SQLite) takes the hot insert. */
    private readonly db: Pick<Db, 'dialect' | 'sqlite'>,
    private readonly clock: Clock,
    /** When given, the runner's writes (claims, completions, retries) share the batches' commits. */
    private readonly writes?: Pick<WriteBatcher, 'run'>,
  ) {
    this.events.setMaxListeners(0)
  }

  /** One write of the runner's: in the next batch, or on its own. */
  private write<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.writes ? this.writes.run((tx) => work(tx.kysely)) : work(this.store.kysely)
  }

  private rawInsert: { statement: SQLite.Statement; columns: (keyof JobRow)[] } | null = null

  async enqueue(tx: Store, jobs: readonly NewJob[]): Promise<void> {
    const rows = toRows(jobs, this.clock().toISOString())
    const first = rows[0]
    if (!first) return
    if (this.db.sqlite && tx.kysely.isTransaction) {
      // The caller's transaction holds the one connection, so these synchronous calls run inside
      // it and nothing can interleave. The SQL text is Kysely's; only the per-row compile is saved,
      // which profiling showed to cost more than the insert itself.
      if (!this.rawInsert) {
        this.rawInsert = {
          statement: this.db.sqlite.prepare(insertJobs(this.store.kysely, first).compile().sql),
          columns: Object.keys(first) as (keyof JobRow)[],
        }
      }
      const { statement, columns } = this.rawInsert
      for (const row of rows) statement.run(columns.map((c) => row[c] ?? null))
      return
    }
    await insertJobs(tx.kysely, rows).execute()
  }

  /**
   * Adds jobs inside the caller's transaction and answers the rows it added, each with the time it is
   * due: a job whose dedupe key is already queued is not added (the Redis transport hands over only
   * what was added).
   */
  async insert(tx: Store, jobs: readonly NewJob[]): Promise<JobRef[]> {
    const rows = toRows(jobs, this.clock().toISOString())
    if (rows.length === 0) return []
    const added = await insertJobs(tx.kysely, rows)
      .returning(['id', 'kind', 'group_key', 'run_at', 'created_at'])
      .execute()
    return added.map(toRef)
  }

  /** Claims the given jobs if they are due (not leased, not scheduled later, not dead); see claim(). */
  async claimIds(ids: readonly string[], leaseMs: LeaseMs): Promise<ClaimedJob[]> {
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

  /** Whether a job's row is still there to run (not finished, not dead), and when it is due. */
  async pendingAt(id: string): Promise<Date | null> {
    const row = await this.store.kysely
      .selectFrom('jobs')
      .select('run_at')
      .where('id', '=', id)
      .where('failed_at', 'is', null)
      .executeTakeFirst()
    return row ? new Date(row.run_at) : null
  }

  /**
   * Jobs that became due in (`since`, `now`] after a wait: scheduled for later, retried, held, or
   * leased by a runner that did not finish them. A job enqueued due at once (run_at = created_at) is
   * not among them: its producer handed it over.
   */
  async becameDue(since: Date, now: Date, limit: number): Promise<JobRef[]> {
    const rows = await this.store.kysely
      .selectFrom('jobs')
      .select(['id', 'kind', 'group_key', 'run_at', 'created_at'])
      .where('failed_at', 'is', null)
      .where('run_at', '>', since.toISOString())
      .where('run_at', '<=', now.toISOString())
      .whereRef('run_at', '>', 'created_at')
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map(toRef)
  }

  /** Jobs due at `before` or earlier, after the (run_at, id) cursor, oldest first: the sweep's pages. */
  async dueBefore(
    before: Date,
    after: { runAt: string; id: string } | null,
    limit: number,
  ): Promise<JobRef[]> {
    const rows = await this.store.kysely
      .selectFrom('jobs')
      .select(['id', 'kind', 'group_key', 'run_at', 'created_at'])
      .where('failed_at', 'is', null)
      .where('run_at', '<=', before.toISOString())
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('run_at', '>', after!.runAt),
            eb.and([eb('run_at', '=', after!.runAt), eb('id', '>', after!.id)]),
          ]),
        ),
      )
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map(toRef)
  }

  /** How long the job due earliest and not running has waited, in ms (0 when none waits). */
  async oldestWaitMs(): Promise<number> {
    const now = this.clock()
    const row = await this.store.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('oldest'))
      .where('failed_at', 'is', null)
      .where('lease_token', 'is', null)
      .where('run_at', '<=', now.toISOString())
      .executeTakeFirst()
    return row?.oldest ? Math.max(0, now.getTime() - new Date(row.oldest).getTime()) : 0
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
   * Takes up to `limit` due jobs, earliest first, none of the `busy` groups; each is hidden for its
   * lease. With a lease per kind, only those kinds are taken: a job of a kind this runner does not know
   * (one a newer version queued) waits for a runner that does.
   */
  async claim(limit: number, leaseMs: LeaseMs, busy: readonly string[] = []): Promise<ClaimedJob[]> {
    const kinds = typeof leaseMs === 'number' ? null : Object.keys(leaseMs)
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
    return (await this.takeLeases(now, leaseMs, due)).sort((a, b) => (a.id < b.id ? -1 : 1))
  }

  /**
   * Leases the jobs the query `due` picks for `leaseMs`, with a new token. On PostgreSQL rows locked by
   * another transaction are skipped: another claim's, or a change's that counted on the job (insertJobs).
   */
  private async takeLeases(now: Date, leaseMs: LeaseMs, due: DueJobs): Promise<ClaimedJob[]> {
    const leaseToken = uuidv7()
    const picked = (db: Kysely<Database>) =>
      this.db.dialect === 'postgres' ? due(db).forUpdate().skipLocked() : due(db)
    const rows = await this.write((db) =>
      db
        .updateTable('jobs')
        .set((eb) => ({
          run_at: leaseEnd(now, leaseMs),
          lease_token: leaseToken,
          attempts: eb('attempts', '+', 1),
          dedupe_key: null,
          hold_key: null,
        }))
        .where('id', 'in', picked(db))
        .returning(['id', 'kind', 'group_key', 'payload', 'attempts', 'waits', 'created_at'])
        .execute(),
    )
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      group: r.group_key,
      payload: JSON.parse(r.payload) as unknown,
      attempts: r.attempts,
      waits: r.waits,
      leaseToken,
      createdAt: r.created_at,
    }))
  }

  /** Removes finished jobs whose lease is still their runner's; answers how many it removed. */
  async complete(jobs: readonly ClaimedJob[]): Promise<number> {
    if (jobs.length === 0) return 0
    const result = await this.write((db) =>
      db
        .deleteFrom('jobs')
        .where((eb) =>
          eb.or(jobs.map((j) => eb.and([eb('id', '=', j.id), eb('lease_token', '=', j.leaseToken)]))),
        )
        .executeTakeFirst(),
    )
    return Number(result.numDeletedRows)
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
        .where((eb) =>
          eb.or(jobs.map((j) => eb.and([eb('id', '=', j.id), eb('lease_token', '=', j.leaseToken)]))),
        )
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
        .where('id', '=', job.id)
        .where('lease_token', '=', job.leaseToken)
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
        .where('id', '=', job.id)
        .where('lease_token', '=', job.leaseToken)
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
        .where('id', '=', job.id)
        .where('lease_token', '=', job.leaseToken)
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

  /** Embedded mode has one process: at start, every lease belongs to a process that died. */
  async releaseOrphanedLeases(): Promise<number> {
    const r = await this.store.kysely
      .updateTable('jobs')
      .set({ run_at: this.clock().toISOString(), lease_token: null })
      .where('lease_token', 'is not', null)
      .executeTakeFirst()
    return Number(r.numUpdatedRows)
  }

  /** When the next job becomes due (a leased one: when its lease ends), leaving out the `busy` groups. */
  async nextDueAt(busy: readonly string[] = []): Promise<Date | null> {
    const row = await this.store.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('next'))
      .where('failed_at', 'is', null)
      .$if(busy.length > 0, (q) =>
        q.where((eb) => eb.or([eb('group_key', 'is', null), eb('group_key', 'not in', busy)])),
      )
      .executeTakeFirst()
    return row?.next ? new Date(row.next) : null
  }

  /** Deletes up to `limit` jobs that died before `before`, oldest first (finished jobs are deleted when done). */
  async pruneDead(before: string, limit: number): Promise<number> {
    const db = this.store.kysely
    const r = await db
      .deleteFrom('jobs')
      .where(
        'id',
        'in',
        db
          .selectFrom('jobs')
          .select('id')
          .where('failed_at', 'is not', null)
          .where('failed_at', '<', before)
          .orderBy('failed_at')
          .limit(limit),
      )
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  /** Dead jobs: kept with their reason for someone to look at (GET /metrics counts them). */
  async deadCount(): Promise<number> {
    const row = await this.store.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('failed_at', 'is not', null)
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }

  /** Jobs waiting or running (dead ones are not counted). */
  async depth(): Promise<number> {
    const row = await this.store.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('failed_at', 'is', null)
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }
}
