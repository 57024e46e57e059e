// How jobs become rows of the `jobs` table and claimed rows become jobs again, the INSERT that
// coalesces jobs with one dedupe key, and the condition naming claimed jobs by their lease.
import type SQLite from 'better-sqlite3'
import { type ExpressionBuilder, type Insertable, type Kysely, type Selectable, sql } from 'kysely'
import type { Database } from '../db/schema.js'
import type { Store } from '../db/store.js'
import type { NewJob } from './port.js'
import type { JobsTable } from './tables.js'

export type JobRow = Insertable<JobsTable>

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

/** What a claim's lease answers of each job it took. */
export type ClaimedRow = Pick<
  Selectable<JobsTable>,
  'id' | 'kind' | 'group_key' | 'payload' | 'attempts' | 'waits' | 'created_at'
>

/** A claimed row as its runner sees it, with the claim's lease token. */
export function toClaimed(r: ClaimedRow, leaseToken: string): ClaimedJob {
  return {
    id: r.id,
    kind: r.kind,
    group: r.group_key,
    payload: JSON.parse(r.payload) as unknown,
    attempts: r.attempts,
    waits: r.waits,
    leaseToken,
    createdAt: r.created_at,
  }
}

/** The rows to insert; of jobs in one call sharing a dedupe key, the first (one INSERT may not touch a
 * conflicting row twice). */
export function toRows(jobs: readonly NewJob[], now: string): JobRow[] {
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
export const insertJobs = (db: Kysely<Database>, values: JobRow | JobRow[]) =>
  db
    .insertInto('jobs')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('dedupe_key')
        .doUpdateSet({ dedupe_key: (eb) => eb.ref('excluded.dedupe_key') })
        .where(sql<boolean>`false`),
    )

/**
 * Inserts rows inside the caller's transaction. On SQLite the transaction holds the one connection, so
 * synchronous calls run inside it and nothing can interleave: the SQL text is Kysely's, and only the
 * per-row compile is saved, which profiling showed to cost more than the insert itself.
 */
export function rowInserter(
  sqlite: SQLite.Database | null | undefined,
  kysely: Kysely<Database>,
): (tx: Store, rows: JobRow[]) => Promise<void> {
  let prepared: { statement: SQLite.Statement; columns: (keyof JobRow)[] } | null = null
  return async (tx, rows) => {
    const first = rows[0]
    if (!first) return
    if (sqlite && tx.kysely.isTransaction) {
      prepared ??= {
        statement: sqlite.prepare(insertJobs(kysely, first).compile().sql),
        columns: Object.keys(first) as (keyof JobRow)[],
      }
      const { statement, columns } = prepared
      for (const row of rows) statement.run(columns.map((c) => row[c] ?? null))
      return
    }
    await insertJobs(tx.kysely, rows).execute()
  }
}

/** The claimed jobs, each by its id and the token of its claim: a settled or lost claim matches nothing. */
export const leasedBy =
  (jobs: readonly { id: string; leaseToken: string }[]) => (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.or(jobs.map((j) => eb.and([eb('id', '=', j.id), eb('lease_token', '=', j.leaseToken)])))
