// Runs the embedded queue's jobs: claims as many as it has free slots (each with its kind's lease),
// hands each to its kind of the catalogue and applies the answer: done removes the job (removals of one
// turn share a commit), retry gives it back after the kind's retry delay, and a payload that does not
// fit its kind makes the job dead. It sleeps until a job is handed over in this process, a slot frees,
// the next job is due, or `idleMs` passes (the only polling, for jobs of other processes). Stopping ends
// claiming and waits for the jobs in flight; one still running when the grace period ends keeps its
// lease and runs again later.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import { yieldToLoop } from '../db/write-batch.js'
import type { JobCatalogue, JobKindEntry, JobRunner } from './port.js'
import { runAndSettle } from './settle.js'
import type { ClaimedJob, SqlJobQueue } from './sql-queue.js'
import { BackgroundLoop, settleWithin } from './wakeup.js'

export interface SqlRunnerOptions {
  queue: SqlJobQueue
  clock: Clock
  log: FastifyBaseLogger
  concurrency: number
  idleMs: number
  /** How long a held job waits before it is looked at again if nothing resumes it (10 minutes). */
  holdMs?: number
}

/** Jobs started per macrotask. */
const startSlice = 16

export class SqlJobRunner implements JobRunner {
  /** Jobs finished (done) since start: the worker's summary line reads it. */
  finished = 0
  private readonly inflight = new Set<Promise<void>>()
  /** Jobs in flight per group, for the kinds that cap their groups. */
  private readonly groups = new Map<string, number>()
  private readonly background = new BackgroundLoop(() => this.loop())
  private kinds = new Map<string, JobKindEntry>()
  private leases: Record<string, number> = {}
  private unsubscribe: (() => void) | null = null

  /** Free slots worth a claim while jobs run: a finished job does not cost a claim of one. */
  private readonly claimBatch: number

  constructor(private readonly o: SqlRunnerOptions) {
    this.claimBatch = Math.max(1, Math.floor(o.concurrency / 4))
  }

  start(catalogue: JobCatalogue): void {
    if (this.background.running) return
    this.kinds = new Map(catalogue.map((k) => [k.kind, k]))
    this.leases = Object.fromEntries(catalogue.map((k) => [k.kind, k.leaseMs]))
    this.unsubscribe = this.o.queue.onHandOver(() => this.background.wake())
    this.background.start()
  }

  async stop(graceMs: number): Promise<void> {
    this.unsubscribe?.()
    this.unsubscribe = null
    if (!(await this.background.stop())) return
    await settleWithin(this.inflight, graceMs)
    if (this.inflight.size > 0)
      this.o.log.warn({ jobs: this.inflight.size }, 'jobs still running at shutdown keep their lease')
  }

  private async loop(): Promise<void> {
    const { queue, concurrency, idleMs, clock, log } = this.o
    while (this.background.running) {
      let delay = idleMs
      try {
        const free = concurrency - this.inflight.size
        // Claims are batched: with jobs running, the runner waits for a quarter of its slots to free
        // (each finished job wakes it) instead of claiming one job per finished one.
        if (free > 0 && (this.inflight.size === 0 || free >= this.claimBatch)) {
          const jobs = await queue.claim(free, this.leases, this.busyGroups())
          // One claim may take several jobs of a group: those beyond the kind's cap go back. Jobs
          // start in slices with a yield between, so their first reads do not hold the event loop.
          const excess: ClaimedJob[] = []
          let started = 0
          for (const job of jobs) {
            if (!this.admit(job)) excess.push(job)
            else if (++started % startSlice === 0) await yieldToLoop()
          }
          await queue.release(excess)
          if (jobs.length === free && excess.length === 0) continue
          // Jobs of a group at its cap wait for one of the group to finish (which wakes this loop).
          const next = await queue.nextDueAt(this.busyGroups())
          if (next) delay = Math.min(idleMs, next.getTime() - clock().getTime())
        }
      } catch (err) {
        log.error({ err }, 'the job queue could not be read; retrying in 1 s')
        delay = 1000
      }
      await this.background.sleep(delay)
    }
  }

  /** Starts the job unless its group is at its kind's cap; false: it was not started. */
  private admit(job: ClaimedJob): boolean {
    const group = job.group
    if (group !== null) {
      const cap = this.kinds.get(job.kind)?.perGroup
      const running = this.groups.get(group) ?? 0
      if (cap !== undefined && running >= cap) return false
      this.groups.set(group, running + 1)
    }
    this.track(group, this.run(job))
    return true
  }

  private track(group: string | null, p: Promise<void>): void {
    const done = p.finally(() => {
      if (group !== null) {
        const n = (this.groups.get(group) ?? 1) - 1
        if (n <= 0) this.groups.delete(group)
        else this.groups.set(group, n)
      }
      this.inflight.delete(done)
      this.background.wake()
    })
    this.inflight.add(done)
  }

  /** The groups at their kind's cap: the next claim leaves their jobs for later. */
  private busyGroups(): string[] {
    const busy: string[] = []
    for (const [group, n] of this.groups) {
      const cap = this.kinds.get(group.slice(0, group.indexOf(':')))?.perGroup
      if (cap !== undefined && n >= cap) busy.push(group)
    }
    return busy
  }

  private async run(job: ClaimedJob): Promise<void> {
    const kind = this.kinds.get(job.kind)
    if (!kind) return // not claimed: claims take the catalogue's kinds only
    if ((await runAndSettle(this.o, kind, job)) === 'done') this.finished++
  }
}
