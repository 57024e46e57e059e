// Runs queued jobs: claims as many as it has free slots, hands each to the handler of its kind, and
// sleeps until a job is enqueued here, a slot frees, the next job is due, or `idleMs` passes (the
// only polling, for jobs enqueued by other processes). Stopping ends claiming and waits for the jobs
// in flight; a job still running when the grace period ends keeps its lease and runs again elsewhere.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import type { ClaimedJob, JobKind, JobQueue } from './port.js'
import { settleWithin, Wakeup } from './wakeup.js'

export type JobHandler = (job: ClaimedJob) => Promise<void>

export interface WorkerOptions {
  queue: JobQueue
  handlers: Record<JobKind, JobHandler>
  clock: Clock
  log: FastifyBaseLogger
  concurrency: number
  leaseMs: number
  idleMs: number
}

export class QueueWorker {
  private readonly inflight = new Set<Promise<void>>()
  private readonly wakeup = new Wakeup()
  private running = false
  private loopDone: Promise<void> = Promise.resolve()
  private unsubscribe: (() => void) | null = null

  constructor(private readonly o: WorkerOptions) {}

  start(): void {
    if (this.running) return
    this.running = true
    this.unsubscribe = this.o.queue.onNotify(() => this.wakeup.wake())
    this.loopDone = this.loop()
  }

  async stop(graceMs: number): Promise<void> {
    if (!this.running) return
    this.running = false
    this.unsubscribe?.()
    this.wakeup.wake()
    await this.loopDone
    await settleWithin(this.inflight, graceMs)
    if (this.inflight.size > 0)
      this.o.log.warn({ jobs: this.inflight.size }, 'jobs still running at shutdown keep their lease')
  }

  private async loop(): Promise<void> {
    const { queue, concurrency, leaseMs, idleMs, clock, log } = this.o
    while (this.running) {
      let delay = idleMs
      try {
        const free = concurrency - this.inflight.size
        if (free > 0) {
          const jobs = await queue.claim(free, leaseMs)
          for (const job of jobs) this.run(job)
          if (jobs.length === free) continue
          const next = await queue.nextDueAt()
          if (next) delay = Math.min(idleMs, next.getTime() - clock().getTime())
        }
      } catch (err) {
        log.error({ err }, 'the job queue could not be read; retrying in 1 s')
        delay = 1000
      }
      if (this.running) await this.wakeup.wait(delay)
    }
  }

  private run(job: ClaimedJob): void {
    const handler = this.o.handlers[job.kind]
    const p = handler(job)
      .catch((err) => this.o.log.error({ err, jobId: job.id, kind: job.kind }, 'job handler failed'))
      .finally(() => {
        this.inflight.delete(p)
        this.wakeup.wake()
      })
    this.inflight.add(p)
  }
}
