// What the embedded queue's `jobs` table tells without changing it: how deep the queue is, what is
// dead, what became due (the Redis relay's looks and sweeps), and when the next job is due (the
// runner's sleep). SqlJobQueue (sql-queue.ts) adds the writes.
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'

/** A queued job's row as the Redis transport hands it over: which job, of which kind and group, due when. */
export interface JobRef {
  id: string
  kind: string
  group: string | null
  /** ISO time it is due (for a leased job: when its lease ends). */
  runAt: string
  createdAt: string
}

export const toRef = (r: {
  id: string
  kind: string
  group_key: string | null
  run_at: string
  created_at: string
}): JobRef => ({
  id: r.id,
  kind: r.kind,
  group: r.group_key,
  runAt: r.run_at,
  createdAt: r.created_at,
})

/** The run_at of a dead job: never due. */
export const never = '9999-12-31T23:59:59.999Z'

export class SqlJobReads {
  constructor(
    protected readonly store: Store,
    protected readonly clock: Clock,
  ) {}

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
