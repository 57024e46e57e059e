// How the queue leases and removes jobs (sql-queue.ts claims with these): the one lease update every
// claim makes, run with a new token, and the statements that run for every job, prepared once
// (docs/decisions/speed/hot-reads-prepared.md): a group's claim (its look, then its lease) and one
// job's removal. Kysely built them afresh for each job, which a profile of the worker's drain put at a
// tenth of its CPU with the rest of the query building (docs/performance.md). PostgreSQL's lease skips
// rows another transaction holds (FOR UPDATE SKIP LOCKED), SQLite's needs no lock (one writer).
import type { Kysely, SelectQueryBuilder } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { prepared } from '../db/prepared.js'
import type { Database } from '../db/schema.js'
import { type ClaimedJob, type ClaimedRow, toClaimed } from './sql-queue-rows.js'

/** A group's due jobs, earliest first (the jobs_group index). */
const groupDue = (db: Kysely<Database>, group: string, now: string, limit: number) =>
  db
    .selectFrom('jobs')
    .select('id')
    .where('group_key', '=', group)
    .where('run_at', '<=', now)
    .orderBy('group_key')
    .orderBy('run_at')
    .orderBy('id')
    .limit(limit)

/** Whether the group has a job due: one read, so that a claim finding nothing writes nothing. */
export const groupHasDue = prepared(3, groupDue)

/**
 * Leases the jobs `picked` names until `runAt` with `leaseToken` (one more attempt; a leased job no
 * longer holds its dedupe or hold key); answers the rows a claim reads. Every claim's lease is this one.
 */
export const leaseUpdate = (
  db: Kysely<Database>,
  runAt: string,
  leaseToken: string,
  picked: SelectQueryBuilder<Database, 'jobs', { id: string }>,
) =>
  db
    .updateTable('jobs')
    .set((eb) => ({
      run_at: runAt,
      lease_token: leaseToken,
      attempts: eb('attempts', '+', 1),
      dedupe_key: null,
      hold_key: null,
    }))
    .where('id', 'in', picked)
    .returning(['id', 'kind', 'group_key', 'payload', 'attempts', 'waits', 'created_at'])

const lease = (skipLocked: boolean) =>
  prepared(
    5,
    (db: Kysely<Database>, runAt: string, leaseToken: string, group: string, now: string, limit: number) => {
      const due = groupDue(db, group, now, limit)
      return leaseUpdate(db, runAt, leaseToken, skipLocked ? due.forUpdate().skipLocked() : due)
    },
  )

/** Leases up to `limit` of a group's due jobs until `runAt` with `leaseToken`; answers their rows. */
export const leaseGroup = { sqlite: lease(false), postgres: lease(true) }

/** Removes one finished job if its lease is still its runner's. */
export const completeOne = prepared(2, (db: Kysely<Database>, id: string, leaseToken: string) =>
  db.deleteFrom('jobs').where('id', '=', id).where('lease_token', '=', leaseToken),
)

/** Runs a claim's lease until `until` with a new token, in the runner's writes; answers the claims. */
export async function leaseWith(
  write: <T>(work: (db: Kysely<Database>) => Promise<T>) => Promise<T>,
  until: Date,
  lease: (db: Kysely<Database>, runAt: string, token: string) => Promise<ClaimedRow[]>,
): Promise<ClaimedJob[]> {
  const token = uuidv7()
  const runAt = until.toISOString()
  const rows = await write((db) => lease(db, runAt, token))
  return rows.map((r) => toClaimed(r, token))
}
