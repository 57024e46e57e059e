// The background of a worker process (ROLE worker or all): the job runner with its job kinds (alerts,
// state snapshots, usage pushes, webhook deliveries; with Redis, also the relay that hands jobs over
// as they become due), the re-sealing and the pruning of rows past their age, and, in embedded mode,
// taking back the jobs a crashed run left leased. services.ts builds it; boot.ts starts it and stops
// it on close.
import type { FastifyBaseLogger } from 'fastify'
import { Gauge, type Registry } from 'prom-client'
import type { Resealer, Retention } from '../ops/index.js'
import type { Db } from '../platform/db/connect.js'
import type { JobKindList, JobRunner } from '../platform/queue/port.js'
import type { QueueRelay } from '../platform/queue/redis-transport.js'
import type { SqlJobQueue } from '../platform/queue/sql-queue.js'
import type { WebhookSender } from '../webhooks/index.js'

export class Runtime {
  constructor(
    private readonly o: {
      db: Pick<Db, 'dialect'>
      queue: SqlJobQueue
      /** With Redis: hands jobs over as they become due and re-sends what Redis lost. */
      relay?: Pick<QueueRelay, 'start' | 'stop'> | null
      runner: JobRunner & { readonly finished: number }
      jobs: JobKindList
      /** Counts the webhook attempts this process made (the summary line's). */
      sender: Pick<WebhookSender, 'attempts'>
      /** Re-seals what SECRET_KEY_PREVIOUS sealed (ops/reseal.ts). */
      resealer: Pick<Resealer, 'start' | 'stop'>
      /** Prunes what is older than its retention age (ops/retention.ts). */
      retention: Pick<Retention, 'start' | 'stop'>
      log: FastifyBaseLogger
      /** Queued jobs above which the worker warns (QUEUE_BACKLOG_LIMIT). */
      backlogLimit: number
      metrics: Registry
      /** How often the summary line is written (10 s). */
      summaryMs?: number
    },
  ) {
    this.overLimit = new Gauge({
      name: 'alertbridge_jobs_backlog_over_limit',
      help: '1 while the queued jobs exceed QUEUE_BACKLOG_LIMIT (the worker falls behind intake), else 0',
      registers: [o.metrics],
    })
  }

  private readonly overLimit: Gauge
  private summary: NodeJS.Timeout | null = null
  private last = { jobs: 0, attempts: 0 }
  private over = false

  async start(): Promise<void> {
    const { db, queue, log } = this.o
    if (db.dialect === 'sqlite') {
      // One process owns the embedded database: leases left at start are a crashed run's.
      const jobs = await queue.releaseOrphanedLeases()
      if (jobs > 0) log.warn({ jobs }, 'took back work a previous run left in flight')
    }
    this.o.runner.start(this.o.jobs)
    this.o.relay?.start()
    this.o.resealer.start()
    this.o.retention.start()
    this.summary = setInterval(() => void this.summarize(), this.o.summaryMs ?? 10_000)
    this.summary.unref()
  }

  /**
   * One line at info per period with work done (per-alert lines are at debug), and a warning each
   * time the backlog crosses its bound. Intake goes on accepting: see
   * docs/decisions/speed/backlog-keeps-accepting.md.
   */
  async summarize(): Promise<void> {
    const { runner, queue, log, backlogLimit } = this.o
    const now = { jobs: runner.finished, attempts: this.o.sender.attempts }
    const jobs = now.jobs - this.last.jobs
    const attempts = now.attempts - this.last.attempts
    this.last = now
    try {
      const queued = await queue.depth()
      const over = queued > backlogLimit
      this.overLimit.set(over ? 1 : 0)
      if (over && !this.over)
        log.warn({ queued, limit: backlogLimit }, 'the job backlog is over QUEUE_BACKLOG_LIMIT')
      if (!over && this.over)
        log.info({ queued, limit: backlogLimit }, 'the job backlog is back under its limit')
      this.over = over
      if (jobs > 0 || attempts > 0) log.info({ jobs, webhookAttempts: attempts, queued }, 'worker progress')
    } catch (err) {
      log.warn({ err }, 'could not read the job backlog')
    }
  }

  /** Stops taking work and waits up to `graceMs` for work in flight. */
  async stop(graceMs: number): Promise<void> {
    if (this.summary) clearInterval(this.summary)
    await this.o.resealer.stop()
    await this.o.retention.stop()
    await this.o.relay?.stop()
    await this.o.runner.stop(graceMs)
  }
}
