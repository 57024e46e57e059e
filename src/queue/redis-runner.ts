// The worker of the Redis transport (redis-transport.ts): BullMQ delivers a job that can run now, and
// the worker claims its row in PostgreSQL (a lease, as the embedded runner takes) before running it, so
// a BullMQ job delivered twice, or a stale one, runs nothing twice. The answer is applied to the row as
// in embedded mode (settle.ts); the BullMQ job then finishes and is removed. A job that must wait (its
// group is at its cap, or its row is not committed yet) is handed to BullMQ again, delayed a moment,
// and this delivery finishes: a BullMQ job moved to its delayed set from inside its processor (BullMQ's
// DelayedError) could reject unhandled while the worker closed, which a delayed copy never does.
//
// A worker killed mid-job leaves its rows leased: when the leases end the relay hands them over again
// and another worker runs them (BullMQ's own stalled-job check may deliver them earlier; the claim then
// finds the lease still held and lets the relay do it).
import { type Job, type Queue, Worker } from 'bullmq'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import type { RedisHandle } from '../redis/connect.js'
import type { GroupSlots } from '../redis/slots.js'
import type { JobCatalogue, JobKindEntry, JobRunner } from './port.js'
import { type BullJobData, bullQueue, bullQueueName } from './redis-transport.js'
import { runAndSettle } from './settle.js'
import type { SqlJobQueue } from './sql-queue.js'
import { settleWithin } from './wakeup.js'

/** A BullMQ job whose row is not there may belong to a transaction that has not committed yet. */
const uncommittedGraceMs = 5_000

export class RedisJobRunner implements JobRunner {
  /** Jobs finished (done) since start: the worker's summary line reads it. */
  finished = 0
  private worker: Worker<BullJobData> | null = null
  /** Where deferred deliveries are handed again (made on first use). */
  private queue: Queue<BullJobData> | null = null
  private kinds = new Map<string, JobKindEntry>()

  constructor(
    private readonly o: {
      queue: SqlJobQueue
      redis: RedisHandle
      /** Slots per group held across processes, for the kinds that cap their groups. */
      groups: GroupSlots
      clock: Clock
      log: FastifyBaseLogger
      concurrency: number
      holdMs?: number
    },
  ) {}

  start(catalogue: JobCatalogue): void {
    if (this.worker) return
    this.kinds = new Map(catalogue.map((k) => [k.kind, k]))
    const worker = new Worker<BullJobData>(bullQueueName, (job) => this.process(job), {
      connection: this.o.redis.duplicate(),
      prefix: this.o.redis.key('bull'),
      concurrency: this.o.concurrency,
      // A BullMQ job whose worker died goes back to waiting however often that happens: the row's
      // lease, not BullMQ's count, decides whether it runs (a failed BullMQ job would be removed and
      // wait for the relay's sweep instead).
      maxStalledCount: Number.MAX_SAFE_INTEGER,
    })
    worker.on('error', (err) => this.o.log.warn({ err }, 'the Redis queue worker failed; it reconnects'))
    worker.on('failed', (job, err) =>
      this.o.log.warn(
        { err, jobId: job?.data.id, kind: job?.name },
        'a job could not be run from Redis; it is handed over again when its lease ends',
      ),
    )
    this.worker = worker
  }

  private async stopWorker(graceMs: number): Promise<void> {
    const worker = this.worker
    if (!worker) return
    this.worker = null
    let closed = false
    await settleWithin(
      [
        worker.close().then(() => {
          closed = true
        }),
      ],
      graceMs,
    )
    if (!closed) {
      this.o.log.warn('jobs still running at shutdown keep their lease')
      await worker.close(true)
    }
  }

  private async process(job: Job<BullJobData>): Promise<void> {
    const kind = this.kinds.get(job.name)
    // A kind this version does not know (a newer one queued it): leave it for a worker that does.
    if (!kind) return this.defer(job, 60_000)
    const { id, group } = job.data
    const cap = group !== null ? kind.perGroup : undefined
    const slot =
      group !== null && cap !== undefined ? await this.o.groups.take(group, cap, kind.leaseMs) : null
    if (slot === false) {
      // The group is at its cap in some process: try again soon, a little later each time.
      return this.defer(job, Math.min(2000, 100 * 2 ** Math.min(deferrals(job), 5)))
    }
    try {
      const [claimed] = await this.o.queue.claimIds([id], kind.leaseMs)
      if (!claimed) {
        // Finished, dead, leased by another runner, scheduled later, not committed yet, or due but
        // locked by a change still committing that counted on it (sql-queue.ts, insertJobs). Only the
        // last two are worth waiting for; the relay hands over the others when they are due.
        const young = Date.now() - job.timestamp < uncommittedGraceMs
        if (young) {
          const at = await this.o.queue.pendingAt(id)
          if (at === null || at <= this.o.clock()) return this.defer(job, 250 * (deferrals(job) + 1))
        }
        return
      }
      if ((await runAndSettle(this.o, kind, claimed)) === 'done') this.finished++
    } finally {
      if (slot) await slot.release()
    }
  }

  /** Hands the job to BullMQ again, due in `ms`; this delivery then finishes (see the header). */
  private async defer(job: Job<BullJobData>, ms: number): Promise<void> {
    this.queue ??= bullQueue(this.o.redis, this.o.log)
    const n = deferrals(job) + 1
    const base = job.id?.replace(/~d\d+$/, '') ?? job.data.id
    await this.queue.add(job.name, job.data, {
      jobId: `${base}~d${n}`,
      delay: ms + Math.floor(Math.random() * 50),
    })
  }

  async stop(graceMs: number): Promise<void> {
    await this.stopWorker(graceMs)
    await this.queue?.close()
    this.queue = null
  }
}

/** How many times this job's delivery was deferred (its BullMQ id ends in `~dN`). */
function deferrals(job: Job<BullJobData>): number {
  return Number(/~d(\d+)$/.exec(job.id ?? '')?.[1] ?? 0)
}
