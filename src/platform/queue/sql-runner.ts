// Runs the embedded queue's jobs: claims as many as it has free slots (each under the one short lease,
// renewed while its handler runs: lease.ts), hands each to its kind among those it runs and applies the
// answer: done removes the job (removals of one turn share a commit), retry gives it back after the
// kind's retry delay, and a payload that does not fit its kind makes the job dead.
//
// A kind that caps its groups (`perGroup`: 4 deliveries per webhook endpoint, a partner's alerts)
// runs each group with jobs in flight here as a lane: the general claims leave the group out, and
// each time one of its turns ends the lane claims the group's next due jobs itself (by the group's
// index, however long the rest of the queue), up to its cap. A job waiting for its group's turn is
// not claimed, so it holds no lease. A turn ends when the job finishes, or earlier when its handler
// says the part the cap protects is over (`groupDone`: the endpoint answered).
//
// The runner sleeps until a job is handed over in this process, a slot or a turn frees, the next job
// is due, or `idleMs` passes (the only polling, for jobs of other processes). Stopping ends claiming
// and waits for the jobs in flight; one still running when the grace period ends keeps its lease
// until it runs out, and runs again later.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import { yieldToLoop } from '../db/write-batch.js'
import { jobLeaseMs, LeaseRenewal } from './lease.js'
import type { JobKindEntry, JobKindList, JobRunner } from './port.js'
import { runJob } from './run-job.js'
import type { ClaimedJob, SqlJobQueue } from './sql-queue.js'
import { BackgroundLoop, waitAtMost } from './wakeup.js'

export interface SqlRunnerOptions {
  queue: SqlJobQueue
  clock: Clock
  log: FastifyBaseLogger
  concurrency: number
  idleMs: number
  /** How long a held job waits before it is looked at again if nothing resumes it (10 minutes). */
  holdMs?: number
  /** The lease of a claim (lease.ts: 30 s) and how often it is renewed while the job runs (10 s). */
  leaseMs?: number
  renewEveryMs?: number
}

/** Jobs started per macrotask. */
const startSlice = 16

/** A capped group with jobs running here. */
interface Lane {
  /** Its jobs running here. */
  running: number
  /** Of those, the ones whose turn is not over (they count against the cap). */
  turns: number
  cap: number
}

export class SqlJobRunner implements JobRunner {
  /** Jobs finished (done) since start: the worker's summary line reads it. */
  finished = 0
  private readonly inflight = new Set<Promise<void>>()
  private readonly lanes = new Map<string, Lane>()
  /** Lanes with a turn free since their last claim. */
  private readonly freed = new Set<string>()
  /** Whether a general claim may find something: a job was handed over, a slot freed, time passed. */
  private general = true
  private readonly background = new BackgroundLoop(() => this.loop())
  /** When the earliest job the last look found scheduled is due (the clock's ms), if any. */
  private nextDue = Number.POSITIVE_INFINITY
  private kinds = new Map<string, JobKindEntry>()
  private readonly leases: LeaseRenewal
  private unsubscribe: (() => void) | null = null

  /** Free slots worth a claim while jobs run: a finished job does not cost a claim of one. */
  private readonly claimBatch: number

  constructor(private readonly o: SqlRunnerOptions) {
    this.claimBatch = Math.max(1, Math.floor(o.concurrency / 4))
    this.leases = new LeaseRenewal({
      queue: o.queue,
      log: o.log,
      leaseMs: o.leaseMs,
      everyMs: o.renewEveryMs,
    })
  }

  start(kinds: JobKindList): void {
    if (this.background.running) return
    this.kinds = new Map(kinds.map((k) => [k.kind, k]))
    this.unsubscribe = this.o.queue.onHandOver(() => this.wakeFor('general'))
    this.background.start()
  }

  async stop(graceMs: number): Promise<void> {
    this.unsubscribe?.()
    this.unsubscribe = null
    if (!(await this.background.stop())) return
    await waitAtMost(this.inflight, graceMs)
    await this.leases.stop()
    if (this.inflight.size > 0)
      this.o.log.warn({ jobs: this.inflight.size }, 'jobs still running at shutdown keep their lease')
  }

  /** A group's turn freed, or anything may have become due ('general'): a claim may find work. */
  private wakeFor(what: 'general' | string): void {
    if (what === 'general') this.lookAgain()
    else this.freed.add(what)
    this.background.wake()
  }

  /** Jobs may have been handed over or become due: every claim, lanes with room included, looks again. */
  private lookAgain(): void {
    this.general = true
    // The claim this asks for looks for the next due job again.
    this.nextDue = Number.POSITIVE_INFINITY
    for (const [group, lane] of this.lanes) if (lane.turns < lane.cap) this.freed.add(group)
  }

  private get lease(): number {
    return this.o.leaseMs ?? jobLeaseMs
  }

  private async loop(): Promise<void> {
    const { idleMs, clock, log } = this.o
    while (this.background.running) {
      let delay = idleMs
      try {
        await this.refillLanes()
        const free = this.o.concurrency - this.inflight.size
        // Claims are batched: with jobs running, the runner waits for a quarter of its slots to free
        // (each finished job wakes it) instead of claiming one job per finished one.
        if (this.general && free > 0 && (this.inflight.size === 0 || free >= this.claimBatch)) {
          this.general = false
          if (await this.claimGeneral(free)) {
            this.general = true
            continue
          }
          const next = await this.o.queue.nextDueAt([...this.lanes.keys()])
          this.nextDue = next ? next.getTime() : Number.POSITIVE_INFINITY
        }
        // Remembered across wake-ups: a sleep cut short by a finished job still ends when it is due.
        delay = Math.max(0, Math.min(idleMs, this.nextDue - clock().getTime()))
      } catch (err) {
        log.error({ err }, 'the job queue could not be read; retrying in 1 s')
        delay = 1000
      }
      const until = Date.now() + delay
      await this.background.sleep(delay)
      // Slept the whole time: a job may have become due (or another process queued one).
      if (Date.now() >= until) this.lookAgain()
    }
  }

  /** Claims due jobs of no lane; answers whether it filled every free slot (there may be more). */
  private async claimGeneral(free: number): Promise<boolean> {
    const { queue } = this.o
    const jobs = await queue.claim(free, this.lease, [...this.lanes.keys()], [...this.kinds.keys()])
    // One claim may take more jobs of a capped group than its cap: those go back, unrun. Jobs start
    // in slices with a yield between, so their first reads do not hold the event loop.
    const excess: ClaimedJob[] = []
    let started = 0
    for (const job of jobs) {
      if (!this.admit(job)) excess.push(job)
      else if (++started % startSlice === 0) await yieldToLoop()
    }
    await queue.release(excess)
    return jobs.length === free && excess.length === 0
  }

  /** Each lane with a free turn claims its group's next due jobs, up to its cap, all in one batch. */
  private async refillLanes(): Promise<void> {
    if (this.freed.size === 0) return
    const claims: Promise<void>[] = []
    // The free slots, shared out among the lanes (a lane left without one stays in `freed`).
    let free = this.o.concurrency - this.inflight.size
    for (const group of this.freed) {
      const lane = this.lanes.get(group)
      const room = lane ? Math.min(lane.cap - lane.turns, free) : 0
      if (room <= 0) {
        // No lane left (its jobs went meanwhile), or a full one: nothing to take now.
        if (!lane || lane.turns >= lane.cap) this.freed.delete(group)
        continue
      }
      free -= room
      this.freed.delete(group)
      claims.push(
        this.o.queue.claimNextOf(group, room, this.lease).then((jobs) => {
          for (const job of jobs) this.admit(job)
          // Drained: the group's later jobs are the general claims' again.
          if (jobs.length === 0 && lane && lane.running === 0) this.closeLane(group)
        }),
      )
    }
    await Promise.all(claims)
  }

  private closeLane(group: string): void {
    this.lanes.delete(group)
    this.general = true
  }

  /** Starts the job unless its group is at its kind's cap; false: it was not started. */
  private admit(job: ClaimedJob): boolean {
    const cap = job.group === null ? undefined : this.kinds.get(job.kind)?.perGroup
    const group = cap === undefined ? null : job.group
    if (group !== null && cap !== undefined) {
      const lane = this.lanes.get(group) ?? { running: 0, turns: 0, cap }
      if (lane.turns >= lane.cap) return false
      lane.running++
      lane.turns++
      this.lanes.set(group, lane)
    }
    let turnOver = group === null
    /** The job's turn in its group is over: the lane may start its next job. */
    const endTurn = () => {
      if (turnOver || group === null) return
      turnOver = true
      const lane = this.lanes.get(group)
      if (lane) lane.turns--
      this.wakeFor(group)
    }
    const done: Promise<void> = this.run(job, endTurn).finally(() => {
      endTurn()
      if (group === null) this.general = true
      else {
        const lane = this.lanes.get(group)
        if (lane) lane.running--
        this.freed.add(group)
      }
      this.inflight.delete(done)
      this.background.wake()
    })
    this.inflight.add(done)
    return true
  }

  private async run(job: ClaimedJob, groupDone: () => void): Promise<void> {
    const kind = this.kinds.get(job.kind)
    if (!kind) return // not claimed: claims take the kinds it runs only
    const letGo = this.leases.hold(job)
    try {
      if ((await runJob(this.o, kind, job, groupDone, letGo)) === 'done') this.finished++
    } finally {
      letGo()
    }
  }
}
