// The one lease of every job kind. A claim hides a job for `jobLeaseMs` (30 s) and its runner renews
// that lease every `renewEveryMs` (10 s) while the handler runs, as BullMQ renews its lock and checks
// for stalled jobs: a lease covers work in progress only, however long the work takes. Waiting is
// never leased (a job not yet claimed, or of a group at its cap, holds nothing), so a runner that dies
// leaves its jobs due again within one lease; the embedded database takes them back at start at once
// (SqlJobQueue.releaseOrphanedLeases).
import type { FastifyBaseLogger } from 'fastify'
import type { ClaimedJob, SqlJobQueue } from './sql-queue.js'

/**
 * How long a claim hides a job unless renewed, by default: how long a dead runner's jobs wait at most
 * (JOB_LEASE_SECONDS sets another, docs/operations.md#configuration).
 */
export const jobLeaseMs = 30_000
/** How often a running job's lease is renewed: two renewals may fail before the lease runs out. */
export const renewEveryMs = 10_000
/** The renewal interval of a lease of `leaseMs`: a third of it, as the default's 10 s of 30 s. */
export const renewalOf = (leaseMs: number) => Math.floor(leaseMs / 3)

/**
 * The leases of the jobs this runner is running, renewed together (one statement) on a timer. A job
 * is renewed from when it is held until it is let go, which the runner does once its handler answered.
 */
export class LeaseRenewal {
  private readonly running = new Set<ClaimedJob>()
  private timer: NodeJS.Timeout | null = null
  private renewing: Promise<void> | null = null

  constructor(
    private readonly o: {
      queue: Pick<SqlJobQueue, 'renew'>
      log: FastifyBaseLogger
      leaseMs?: number
      everyMs?: number
    },
  ) {}

  /** Renews the job's lease until the answer is called. */
  hold(job: ClaimedJob): () => void {
    this.running.add(job)
    this.start()
    return () => {
      this.running.delete(job)
    }
  }

  /** Stops renewing: a job still running keeps its lease until it runs out. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.renewing
  }

  private start(): void {
    if (this.timer) return
    this.timer = setInterval(() => {
      // A renewal still waiting for the database is not doubled.
      if (!this.renewing) this.renewing = this.renew().finally(() => (this.renewing = null))
    }, this.o.everyMs ?? renewEveryMs)
    this.timer.unref()
  }

  private async renew(): Promise<void> {
    const jobs = [...this.running]
    if (jobs.length === 0) return
    try {
      const renewed = await this.o.queue.renew(jobs, this.o.leaseMs ?? jobLeaseMs)
      // A job settled meanwhile is not renewed, and is no loss; one whose lease ran out may now be
      // running elsewhere too (at least once: its handler is safe to run twice).
      const settled = jobs.filter((j) => this.running.has(j)).length
      if (renewed < settled)
        this.o.log.warn({ jobs: settled - renewed }, 'job leases ran out before they were renewed')
    } catch (err) {
      this.o.log.warn({ err, jobs: jobs.length }, 'could not renew job leases; trying again shortly')
    }
  }
}
