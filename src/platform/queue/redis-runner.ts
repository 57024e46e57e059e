// The worker of the Redis transport (redis-transport.ts): BullMQ delivers a job that can run now, and
// the worker claims its row in PostgreSQL (a lease, as the embedded runner takes) before running it, so
// a BullMQ job delivered twice, or a stale one, runs nothing twice. The answer is applied to the row as
// in embedded mode (run-job.ts); the BullMQ job then finishes and is removed. A job that must wait (its
// group is at its cap, or its row is not committed yet) is handed to BullMQ again, delayed a moment,
// and this delivery finishes: a BullMQ job moved to its delayed set from inside its processor (BullMQ's
// DelayedError) could reject unhandled while the worker closed, which a delayed copy never does.
//
// A job of a capped kind (4 deliveries per webhook endpoint, a partner's alerts) first takes one of its
// group's slots, shared by every process (platform/redis/slots.ts): that is what holds the cap across
// processes. A worker holding a slot goes on with the group's next due rows, claimed from PostgreSQL,
// until none is left; the BullMQ jobs of those rows, deferred meanwhile, then find them taken or done.
//
// The row's lease is the one every job has (lease.ts: 30 s), renewed while the handler runs, as is the
// group slot while its holder works. A worker killed mid-job leaves its rows leased and its slots
// taken: when the leases end (30 s at most) the relay hands the rows over again and another worker
// runs them (BullMQ's own stalled-job check may deliver them earlier; the claim then finds the lease
// still held and lets the relay do it).
import type { Job, Queue, Worker } from 'bullmq'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import type { RedisHandle } from '../redis/connect.js'
import { bullmq } from '../redis/packages.js'
import type { GroupSlots, Slot } from '../redis/slots.js'
import { jobLeaseMs, LeaseRenewal, renewalOf } from './lease.js'
import type { JobKindEntry, JobKindList, JobRunner } from './port.js'
import { type BullJobData, bullQueue, bullQueueName } from './redis-transport.js'
import { runJob } from './run-job.js'
import type { ClaimedJob, SqlJobQueue } from './sql-queue.js'
import { waitAtMost } from './wakeup.js'

/** A BullMQ job whose row is not there may belong to a transaction that has not committed yet. */
const uncommittedGraceMs = 5_000

export class RedisJobRunner implements JobRunner {
  /** Jobs finished (done) since start: the worker's summary line reads it. */
  finished = 0
  private worker: Worker<BullJobData> | null = null
  /** Where deferred deliveries are handed again (made on first use). */
  private queue: Queue<BullJobData> | null = null
  private kinds = new Map<string, JobKindEntry>()
  private readonly leases: LeaseRenewal
  private readonly lease: number

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
      /** How long a claim hides a job unless renewed; the default without it (lease.ts). */
      leaseMs?: number
    },
  ) {
    this.lease = o.leaseMs ?? jobLeaseMs
    this.leases = new LeaseRenewal({
      queue: o.queue,
      log: o.log,
      leaseMs: this.lease,
      everyMs: renewalOf(this.lease),
    })
  }

  start(kinds: JobKindList): void {
    if (this.worker) return
    this.kinds = new Map(kinds.map((k) => [k.kind, k]))
    const worker: Worker<BullJobData> = new (bullmq().Worker)<BullJobData>(
      bullQueueName,
      (job) => this.process(job),
      {
        connection: this.o.redis.duplicate(),
        prefix: this.o.redis.key('bull'),
        concurrency: this.o.concurrency,
        // A BullMQ job whose worker died goes back to waiting however often that happens: the row's
        // lease, not BullMQ's count, decides whether it runs (a failed BullMQ job would be removed and
        // wait for the relay's sweep instead).
        maxStalledCount: Number.MAX_SAFE_INTEGER,
        // A BullMQ job is only a wake-up: one taken by a worker that died before it claimed the row (its
        // claim waiting for a write batch) comes back within its lock and one stalled check (15 s and 5 s,
        // about 25 s; the lock is renewed at half its length while the worker lives), no later than the
        // rows that worker had claimed come back by their lease. A shorter lease (JOB_LEASE_SECONDS)
        // shortens both, so the wake-ups come back as soon as the rows do.
        lockDuration: Math.min(15_000, this.lease),
        stalledInterval: Math.min(5_000, Math.max(1_000, Math.floor(this.lease / 2))),
      },
    )
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
    await waitAtMost(
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
    // Young: a row not there may belong to a transaction not committed yet (from the first hand-over).
    const young = Date.now() - (job.data.since ?? job.timestamp) < uncommittedGraceMs
    const cap = group !== null ? kind.perGroup : undefined
    const first = group !== null && cap !== undefined ? await this.o.groups.take(group, cap) : null
    if (first === false) {
      // The group is at its cap in some process. A row that is gone, or that a slot holder took, is
      // not waited for; otherwise try again soon, a little later each time.
      if (!young) {
        const at = await this.o.queue.pendingAt(id)
        if (at === null || at > this.o.clock()) return
      }
      return this.defer(job, Math.min(2000, 100 * 2 ** Math.min(deferrals(job), 5)))
    }
    /** The group slot this worker holds now (given back early by a handler's groupDone). */
    let slot: Slot | null = first
    const giveBack = () => {
      const held = slot
      slot = null
      return held
        ?.release()
        .catch((err) => this.o.log.warn({ err, group }, 'a group slot was not given back'))
    }
    try {
      const [claimed] = await this.o.queue.claimIds([id], this.lease)
      if (!claimed && young) {
        // Finished, dead, leased by another runner, scheduled later, not committed yet, or due but
        // locked by a change still committing that counted on it (sql-queue.ts, insertJobs). Only the
        // last two are worth waiting for; the relay hands over the others when they are due.
        const at = await this.o.queue.pendingAt(id)
        if (at === null || at <= this.o.clock()) return this.defer(job, 250 * (deferrals(job) + 1))
      }
      // Holding one of its group's slots, the worker goes on with the group's due jobs until none is
      // left (or, its slot given back early, until it cannot take one again), not once stopping: a
      // group at its cap is worked through at the pace of its slots, not of deferred retries.
      const nextOf = async (): Promise<ClaimedJob | null> => {
        if (group === null || cap === undefined || !this.worker) return null
        slot ??= (await this.o.groups.take(group, cap)) || null
        if (!slot) return null
        return (await this.o.queue.claimNextOf(group, 1, this.lease))[0] ?? null
      }
      for (let next = claimed ?? (await nextOf()); next; next = await nextOf()) {
        const letGo = this.leases.hold(next)
        try {
          if ((await runJob(this.o, kind, next, () => void giveBack(), letGo)) === 'done') this.finished++
        } finally {
          letGo()
        }
      }
    } finally {
      await giveBack()
    }
  }

  /** Hands the job to BullMQ again, due in `ms`; this delivery then finishes (see the header). */
  private async defer(job: Job<BullJobData>, ms: number): Promise<void> {
    this.queue ??= bullQueue(this.o.redis, this.o.log)
    const n = deferrals(job) + 1
    const base = job.id?.replace(/~d\d+$/, '') ?? job.data.id
    await this.queue.add(
      job.name,
      { ...job.data, since: job.data.since ?? job.timestamp },
      {
        jobId: `${base}~d${n}`,
        delay: ms + Math.floor(Math.random() * 50),
      },
    )
  }

  async stop(graceMs: number): Promise<void> {
    await this.stopWorker(graceMs)
    await this.leases.stop()
    await this.queue?.close()
    this.queue = null
  }
}

/** How many times this job's delivery was deferred (its BullMQ id ends in `~dN`). */
function deferrals(job: Job<BullJobData>): number {
  return Number(/~d(\d+)$/.exec(job.id ?? '')?.[1] ?? 0)
}
