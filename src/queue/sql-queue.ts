// The embedded queue: jobs live in the `jobs` table of the service's database (SQLite by default,
// PostgreSQL too). `run_at` is both the schedule and the visibility timeout: a claim moves it to the
// end of the lease, so a job whose worker died is simply due again. PostgreSQL claims with
// FOR UPDATE SKIP LOCKED so that several workers never take the same job; SQLite serialises writers.
import { EventEmitter } from 'node:events'
import type SQLite from 'better-sqlite3'
import type { Insertable, Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../clock.js'
import type { Db } from '../db/connect.js'
import type { Database, JobsTable } from '../db/schema.js'
import type { Store } from '../db/store.js'
import type { ClaimedJob, JobKind, JobQueue, NewJob } from './port.js'

type JobRow = Insertable<JobsTable>

function toRows(jobs: readonly NewJob[], now: string): JobRow[] {
  return jobs.map((j) => ({
    id: j.id,
    kind: j.kind,
    dedupe_key: j.dedupeKey ?? null,
    payload: JSON.stringify(j.payload),
    attempts: 0,
    run_at: j.runAt ? j.runAt.toISOString() : now,
    lease_token: null,
    last_error: null,
    created_at: now,
  }))
}

const insertJobs = (db: Kysely<Database>, values: JobRow | JobRow[]) =>
  db
    .insertInto('jobs')
    .values(values)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())

export class SqlJobQueue implements JobQueue {
  private readonly events = new EventEmitter()

  constructor(
    private readonly store: Store,
    /** Its dialect picks the claim query; its embedded connection (SQLite) takes the hot insert. */
    private readonly db: Pick<Db, 'dialect' | 'sqlite'>,
    private readonly clock: Clock,
  ) {
    this.events.setMaxListeners(0)
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

  async add(jobs: readonly NewJob[]): Promise<void> {
    await this.store.transaction((tx) => this.enqueue(tx, jobs))
    this.notify()
  }

  notify(): void {
    this.events.emit('enqueued')
  }

  onNotify(listener: () => void): () => void {
    this.events.on('enqueued', listener)
    return () => this.events.off('enqueued', listener)
  }

  async claim(limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    if (limit <= 0) return []
    const now = this.clock()
    const leaseToken = uuidv7()
    const db = this.store.kysely
    let due = db
      .selectFrom('jobs')
      .select('id')
      .where('run_at', '<=', now.toISOString())
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit)
    if (this.db.dialect === 'postgres') due = due.forUpdate().skipLocked()
    const rows = await db
      .updateTable('jobs')
      .set((eb) => ({
        run_at: new Date(now.getTime() + leaseMs).toISOString(),
        lease_token: leaseToken,
        attempts: eb('attempts', '+', 1),
        dedupe_key: null,
      }))
      .where('id', 'in', due)
      .returning(['id', 'kind', 'payload', 'attempts'])
      .execute()
    return rows
      .map((r) => ({
        id: r.id,
        kind: r.kind as JobKind,
        payload: JSON.parse(r.payload) as unknown,
        attempts: r.attempts,
        leaseToken,
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
  }

  async complete(tx: Store, job: ClaimedJob): Promise<boolean> {
    const result = await tx.kysely
      .deleteFrom('jobs')
      .where('id', '=', job.id)
      .where('lease_token', '=', job.leaseToken)
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }

  async retryAt(job: ClaimedJob, runAt: Date, error: string): Promise<void> {
    await this.store.kysely
      .updateTable('jobs')
      .set({ run_at: runAt.toISOString(), lease_token: null, last_error: error.slice(0, 2000) })
      .where('id', '=', job.id)
      .where('lease_token', '=', job.leaseToken)
      .execute()
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

  async nextDueAt(): Promise<Date | null> {
    const row = await this.store.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('next'))
      .executeTakeFirst()
    return row?.next ? new Date(row.next) : null
  }

  async depth(): Promise<number> {
    const row = await this.store.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }
}
