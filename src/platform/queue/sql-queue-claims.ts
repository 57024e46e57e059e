// The queue's statements that run for every job, prepared once (docs/decisions/speed/hot-reads-prepared.md):
// a group's claim (its look, then its lease) and one job's removal. Kysely built them afresh for each
// job, which a profile of the worker's drain put at a tenth of its CPU with the rest of the query
// building (docs/performance.md). The SQL is what sql-queue.ts built before; PostgreSQL's lease skips
// rows another transaction holds (FOR UPDATE SKIP LOCKED), SQLite's needs no lock (one writer).
import type { Kysely } from 'kysely'
import { prepared } from '../db/prepared.js'
import type { Database } from '../db/schema.js'

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

const lease = (skipLocked: boolean) =>
  prepared(
    5,
    (db: Kysely<Database>, runAt: string, leaseToken: string, group: string, now: string, limit: number) => {
      const due = groupDue(db, group, now, limit)
      return db
        .updateTable('jobs')
        .set((eb) => ({
          run_at: runAt,
          lease_token: leaseToken,
          attempts: eb('attempts', '+', 1),
          dedupe_key: null,
          hold_key: null,
        }))
        .where('id', 'in', skipLocked ? due.forUpdate().skipLocked() : due)
        .returning(['id', 'kind', 'group_key', 'payload', 'attempts', 'waits', 'created_at'])
    },
  )

/** Leases up to `limit` of a group's due jobs until `runAt` with `leaseToken`; answers their rows. */
export const leaseGroup = { sqlite: lease(false), postgres: lease(true) }

/** Removes one finished job if its lease is still its runner's. */
export const completeOne = prepared(2, (db: Kysely<Database>, id: string, leaseToken: string) =>
  db.deleteFrom('jobs').where('id', '=', id).where('lease_token', '=', leaseToken),
)
