// The job queue of a scale-out installation: PostgreSQL holds every job (the `jobs` table, as in the
// embedded queue: payload, attempts, lease, schedule, holds, dead jobs) and Redis, through BullMQ,
// carries the jobs that can run now to whichever worker process is free.
//
// - A producer writes its jobs in its own transaction (the table is the outbox) and, once that has
//   committed, hands the ones due now to BullMQ (`handOver`). A BullMQ job's id is derived from the
//   job's id (for an alert: its messageId) and, for a job that waited, from when it became due: adding
//   the same job twice is a no-op, adding it again after a retry is a new BullMQ job.
// - BullMQ holds only runnable jobs. Jobs scheduled for later, retried, held or leased by a runner that
//   died stay in PostgreSQL until due; the relay (`QueueRelay`) hands them over when they become due.
// - The relay also sweeps, every few seconds, the jobs that have been due for a while and re-sends any
//   BullMQ does not know: those of a producer that died between its commit and its hand-over, and all
//   of them after Redis was emptied or restarted without its data (noticed at once by a marker key
//   that disappears with the data).
// - The worker (redis-runner.ts) claims the job's row in PostgreSQL before running it, exactly as the
//   embedded runner does, so a job runs once per claim whatever BullMQ delivers twice.
//
// docs/decisions/scale-out/hand-over-and-relay.md says why it is built this way.
import type { Queue } from 'bullmq'
import type { FastifyBaseLogger } from 'fastify'
import { Counter, Gauge, type Registry } from 'prom-client'
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import { type WriteBatcher, yieldToLoop } from '../db/write-batch.js'
import type { RedisHandle } from '../redis/connect.js'
import { bullmq } from '../redis/packages.js'
import { coalescedAdd } from './coalesce.js'
import type { JobProducer, NewJob } from './port.js'
import type { JobRef, SqlJobQueue } from './sql-queue.js'
import { BackgroundLoop } from './wakeup.js'

/** The BullMQ queue's name; its keys live under `REDIS_PREFIX:bull`. */
export const bullQueueName = 'jobs'

/** What a BullMQ job carries: which row to claim. The row holds everything else. */
export interface BullJobData {
  id: string
  group: string | null
  /** A copy handed over again by a worker (redis-runner.ts): when the first was (ms since the epoch). */
  since?: number
}

/**
 * The BullMQ id of a job's row: its kind and id (BullMQ refuses ids with a colon or that look like
 * integers, so the id is URI-encoded after the kind), and for a job that waited, when it became due.
 */
export function bullJobId(ref: Pick<JobRef, 'id' | 'kind' | 'runAt' | 'createdAt'>): string {
  const base = `${ref.kind}-${encodeURIComponent(ref.id)}`
  return ref.runAt === ref.createdAt ? base : `${base}@${Date.parse(ref.runAt)}`
}

const bulk = (refs: readonly JobRef[]) =>
  refs.map((r) => ({
    name: r.kind,
    data: { id: r.id, group: r.group } satisfies BullJobData,
    opts: { jobId: bullJobId(r) },
  }))

export function bullQueue(redis: RedisHandle, log: FastifyBaseLogger): Queue<BullJobData> {
  const queue: Queue<BullJobData> = new (bullmq().Queue)<BullJobData>(bullQueueName, {
    connection: redis.client,
    prefix: redis.key('bull'),
    // Finished and failed BullMQ jobs are removed at once: PostgreSQL keeps the record, and a removed
    // id can be added again when its row is due again.
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
  })
  // The connection's own failures are logged where it is made (platform/redis/connect.ts); without a listener
  // BullMQ would print each one.
  queue.on('error', (err) => log.debug({ err }, 'the Redis queue connection failed'))
  return queue
}

export class RedisJobQueue implements JobProducer {
  /** Added in transactions not yet handed over; due now. */
  private pending: JobRef[] = []

  constructor(
    private readonly o: {
      sql: SqlJobQueue
      store: Store
      /** When given, `add` writes in the batches' accept lane. */
      writes?: Pick<WriteBatcher, 'run'>
      queue: Queue<BullJobData>
      clock: Clock
      log: FastifyBaseLogger
      /** Woken when jobs became due in PostgreSQL without a hand-over (resumed): it looks now. */
      relay?: Pick<QueueRelay, 'wake'>
    },
  ) {}

  async enqueue(tx: Store, jobs: readonly NewJob[]): Promise<void> {
    const added = await this.o.sql.insert(tx, jobs)
    // Due when added (a runAt of "now" computed a moment before the row's created_at is too): handed
    // over after the commit. Later ones are the relay's when they become due.
    for (const ref of added) if (ref.runAt <= ref.createdAt) this.pending.push(ref)
  }

  /**
   * Hands the jobs added so far to BullMQ. A transaction still open or rolled back may have added some
   * of them: its BullMQ job finds no row yet and waits a moment for it (redis-runner.ts). If Redis
   * cannot take them now, the relay's sweep re-sends them.
   */
  handOver(): void {
    if (this.pending.length === 0) return
    const refs = this.pending
    this.pending = []
    this.o.queue.addBulk(bulk(refs)).catch((err: unknown) => {
      this.o.log.warn(
        { err, jobs: refs.length },
        'could not hand jobs to Redis; the relay sends them once Redis answers',
      )
    })
  }

  /** Adds made before their write runs share it, in the batches' accept lane (ahead of background work). */
  private readonly addTogether = coalescedAdd((take) =>
    this.o.writes
      ? this.o.writes.run((tx) => this.enqueue(tx, take()), 'accept')
      : this.o.store.transaction((tx) => this.enqueue(tx, take())),
  )

  async add(jobs: readonly NewJob[]): Promise<void> {
    await this.addTogether(jobs)
    this.handOver()
  }

  async resume(tx: Store, key: string): Promise<number> {
    const n = await this.o.sql.resume(tx, key)
    if (n > 0) setImmediate(() => this.o.relay?.wake())
    return n
  }
}

/** Jobs the relay looks at per query. */
const page = 500
/** A job due this long without running is checked against BullMQ by the sweep. */
const sweepAfterMs = 5_000
/** How far back each look for newly due jobs reaches (covers a commit that landed after a look). */
const lookBackMs = 5_000

/**
 * Hands jobs to BullMQ when they become due, and re-sends what BullMQ lost. Runs in every worker
 * process; a Redis lock lets one process at a time do it (the others stand by), and everything it does
 * is safe to do twice.
 */
export class QueueRelay {
  private readonly background = new BackgroundLoop(() => this.loop())
  private since: Date | null = null
  private lastSweep = 0
  private readonly lag: Gauge
  private readonly resent: Counter
  private readonly owner = `${process.pid}-${Math.random().toString(36).slice(2)}`

  constructor(
    private readonly o: {
      sql: SqlJobQueue
      queue: Queue<BullJobData>
      redis: RedisHandle
      clock: Clock
      log: FastifyBaseLogger
      metrics: Registry
      /** How often it looks, at most (1 s). */
      tickMs?: number
      /** How often the sweep runs (5 s). */
      sweepMs?: number
    },
  ) {
    this.lag = new Gauge({
      name: 'alertbridge_queue_relay_lag_seconds',
      help: 'How long the jobs the relay last re-sent to Redis had been due (0: nothing was missing)',
      registers: [o.metrics],
    })
    this.resent = new Counter({
      name: 'alertbridge_queue_relay_resent_total',
      help: 'Jobs re-sent to Redis because Redis did not have them (a producer died before its hand-over, or Redis lost its data)',
      registers: [o.metrics],
    })
  }

  /** Jobs became due now (resumed): look at once instead of at the next tick. */
  wake(): void {
    this.background.wake()
  }

  start(): void {
    this.background.start()
  }

  async stop(): Promise<void> {
    if (!(await this.background.stop())) return
    await this.o.redis.client.eval(releaseLock, 1, this.lockKey, this.owner).catch(() => undefined)
  }

  private get lockKey(): string {
    return this.o.redis.key('relay-lock')
  }

  private async loop(): Promise<void> {
    const tickMs = this.o.tickMs ?? 1000
    while (this.background.running) {
      try {
        if (await this.lead(tickMs * 5)) await this.tick()
      } catch (err) {
        this.o.log.warn({ err }, 'the queue relay failed; trying again in a second')
      }
      await this.background.sleep(tickMs)
    }
  }

  /** Takes or keeps the relay's lock for `ttlMs`; false: another process relays. */
  private async lead(ttlMs: number): Promise<boolean> {
    const got = await this.o.redis.client.eval(takeLock, 1, this.lockKey, this.owner, String(ttlMs))
    return got === 1
  }

  /** One look: newly due jobs, then (every few seconds, or at once after Redis lost its data) the sweep. */
  async tick(): Promise<void> {
    const { sql, clock } = this.o
    const now = clock()
    const since = new Date((this.since ?? now).getTime() - lookBackMs)
    let maxLagMs = 0
    for (let after = since; ; ) {
      const due = await sql.becameDue(after, now, page)
      if (due.length > 0) {
        await this.o.queue.addBulk(bulk(due))
        for (const d of due) maxLagMs = Math.max(maxLagMs, now.getTime() - Date.parse(d.runAt))
      }
      if (due.length < page) break
      after = new Date(due.at(-1)!.runAt)
      await yieldToLoop()
    }
    this.since = now
    const emptied = await this.redisLostItsData()
    const sweepMs = this.o.sweepMs ?? 5000
    if (emptied || Date.now() - this.lastSweep >= sweepMs) {
      this.lastSweep = Date.now()
      const lost = await this.sweep(emptied ? now : new Date(now.getTime() - sweepAfterMs))
      if (emptied)
        this.o.log.warn(
          { resent: lost.count },
          'Redis had lost its data; the queue was sent again from PostgreSQL',
        )
      else if (lost.count > 0)
        this.o.log.warn({ resent: lost.count }, 'jobs Redis did not have were sent again from PostgreSQL')
      maxLagMs = Math.max(maxLagMs, lost.maxLagMs)
    }
    this.lag.set(maxLagMs / 1000)
  }

  /**
   * A marker key set when the relay starts and after each recovery: gone means Redis was emptied or
   * restarted without its data, and every queued job must be sent again.
   */
  private async redisLostItsData(): Promise<boolean> {
    const key = this.o.redis.key('queue-marker')
    const set = await this.o.redis.client.set(key, new Date().toISOString(), 'NX')
    // The first relay ever on this Redis also finds no marker; a sweep then costs one pass.
    return set === 'OK'
  }

  /** Re-sends every job due by `before` that BullMQ does not hold, page by page. */
  private async sweep(before: Date): Promise<{ count: number; maxLagMs: number }> {
    const now = this.o.clock().getTime()
    let count = 0
    let maxLagMs = 0
    let after: { runAt: string; id: string } | null = null
    for (;;) {
      const due = await this.o.sql.dueBefore(before, after, page)
      if (due.length === 0) break
      // A BullMQ job is a hash at its id's key until it finishes (an O(1) look; getJobState searches
      // the waiting list). A job being run holds its lease (its run_at is in the future): not in `due`.
      const client = this.o.redis.client
      const known = await Promise.all(due.map((d) => client.exists(this.o.queue.toKey(bullJobId(d)))))
      const missing = due.filter((_, i) => known[i] === 0)
      if (missing.length > 0) {
        await this.o.queue.addBulk(bulk(missing))
        count += missing.length
        this.resent.inc(missing.length)
        for (const d of missing) maxLagMs = Math.max(maxLagMs, now - Date.parse(d.runAt))
      }
      if (due.length < page) break
      const last = due.at(-1)!
      after = { runAt: last.runAt, id: last.id }
      await yieldToLoop()
    }
    return { count, maxLagMs }
  }
}

/** SET the lock if free or already ours, with a fresh expiry; 1 when held. */
const takeLock = `
local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`

const releaseLock = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`
