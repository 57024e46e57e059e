// The background of a worker process (ROLE worker or all): the job runner with its catalogue, the
// webhook dispatcher, the pruning of rows past their age, and, in embedded mode, taking back the work a
// crashed run left leased. services.ts builds it; boot.ts starts it and stops it on close.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from './clock.js'
import type { Db } from './db/connect.js'
import type { Store } from './db/store.js'
import type { Resealer } from './ops/reseal.js'
import type { Retention } from './ops/retention.js'
import type { JobCatalogue, JobRunner } from './queue/port.js'
import type { SqlJobQueue } from './queue/sql-queue.js'
import type { WebhookDispatcher } from './webhooks/dispatcher.js'

export class Runtime {
  constructor(
    private readonly o: {
      db: Pick<Db, 'dialect'>
      store: Store
      queue: SqlJobQueue
      runner: JobRunner
      jobs: JobCatalogue
      dispatcher: WebhookDispatcher
      /** Re-seals what SECRET_KEY_PREVIOUS sealed (ops/reseal.ts). */
      resealer: Pick<Resealer, 'start' | 'stop'>
      /** Prunes what is older than its retention age (ops/retention.ts). */
      retention: Pick<Retention, 'start' | 'stop'>
      clock: Clock
      log: FastifyBaseLogger
    },
  ) {}

  async start(): Promise<void> {
    const { db, store, queue, clock, log } = this.o
    if (db.dialect === 'sqlite') {
      // One process owns the embedded database: leases left at start are a crashed run's.
      const jobs = await queue.releaseOrphanedLeases()
      const deliveries = await store.deliveries.releaseOrphanedLeases(clock().toISOString())
      if (jobs + deliveries > 0)
        log.warn({ jobs, deliveries }, 'took back work a previous run left in flight')
    }
    this.o.runner.start(this.o.jobs)
    this.o.dispatcher.start()
    this.o.resealer.start()
    this.o.retention.start()
  }

  /** Stops taking work and waits up to `graceMs` for work in flight. */
  async stop(graceMs: number): Promise<void> {
    await this.o.resealer.stop()
    await this.o.retention.stop()
    // Both wait for their work in flight at once: the grace is the whole stop's, not each one's.
    await Promise.all([this.o.runner.stop(graceMs), this.o.dispatcher.stop(graceMs)])
  }
}
