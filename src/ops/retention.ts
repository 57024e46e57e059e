// Bounded growth (docs/operations.md#retention): rows past their age are pruned on a schedule, in small
// batches — one short statement each, with a pause between them — so that intake (SQLite has one writer)
// never waits long behind it. Each batch deletes a set its own statement chose, so several processes on
// PostgreSQL may prune at once: a row deleted by one is simply not found by another. GET /metrics shows how
// many rows of each kind were pruned and when the last run ended.
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import { Counter, Gauge, type Registry } from 'prom-client'
import type { Clock } from '../platform/clock.js'
import type { Store } from '../platform/db/store.js'
import type { SqlJobQueue } from '../platform/queue/sql-queue.js'
import {
  cutoffs,
  type RetentionDays,
  type RetentionKind,
  retentionKinds,
} from '../platform/retention-ages.js'

export interface RetentionOptions {
  store: Store
  queue: Pick<SqlJobQueue, 'pruneDead'>
  clock: Clock
  log: FastifyBaseLogger
  metrics: Registry
  days: RetentionDays
  /** Between the end of one run and the start of the next. */
  intervalMs: number
  /** Rows per statement. */
  batchSize: number
  /** Between two batches, so that other writers get their turn. */
  pauseMs?: number
}

/** How many rows of each kind one run pruned. */
export type Pruned = Record<RetentionKind, number>

/** The first run comes this soon after start (or after the interval, if shorter): a service that is
 * restarted more often than the interval still prunes. */
const firstRunMaxDelayMs = 60_000

export class Retention {
  private readonly pruned: Counter<'kind'>
  private readonly failures: Counter<'kind'>
  private readonly lastRun: Gauge
  private timer: NodeJS.Timeout | undefined
  private running: Promise<Pruned> | null = null
  private stopping = false

  constructor(private readonly o: RetentionOptions) {
    this.pruned = new Counter({
      name: 'alertbridge_retention_pruned_total',
      help: 'Rows pruned because they were older than their retention age, by kind',
      labelNames: ['kind'],
      registers: [o.metrics],
    })
    this.failures = new Counter({
      name: 'alertbridge_retention_failures_total',
      help: 'Prune batches that failed (logged; the next run tries again), by kind',
      labelNames: ['kind'],
      registers: [o.metrics],
    })
    this.lastRun = new Gauge({
      name: 'alertbridge_retention_last_run_timestamp_seconds',
      help: 'When the last prune run of this process ended (Unix time; 0: none yet)',
      registers: [o.metrics],
    })
    const age = new Gauge({
      name: 'alertbridge_retention_days',
      help: 'Days each kind of row is kept (0: for ever)',
      labelNames: ['kind'],
      registers: [o.metrics],
    })
    for (const kind of retentionKinds) {
      this.pruned.labels(kind).inc(0)
      this.failures.labels(kind).inc(0)
      age.labels(kind).set(o.days[kind] ?? 0)
    }
    this.lastRun.set(0)
  }

  /** Runs now and then every interval until stopped. */
  start(): void {
    this.stopping = false
    this.schedule(Math.min(this.o.intervalMs, firstRunMaxDelayMs))
  }

  /** Stops scheduling and waits for a run in progress to end its batch. */
  async stop(): Promise<void> {
    this.stopping = true
    clearTimeout(this.timer)
    await this.running?.catch(() => undefined)
  }

  /** One run over every kind; a run already in progress is joined rather than doubled. */
  run(): Promise<Pruned> {
    if (!this.running) {
      this.running = this.pruneAll().finally(() => {
        this.running = null
      })
    }
    return this.running
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return
    this.timer = setTimeout(() => {
      this.run()
        .catch((err) => this.o.log.error({ err }, 'retention: the run failed'))
        .finally(() => this.schedule(this.o.intervalMs))
    }, delayMs)
    this.timer.unref()
  }

  private async pruneAll(): Promise<Pruned> {
    const { clock, log, batchSize } = this.o
    const started = clock()
    const done = Object.fromEntries(retentionKinds.map((k) => [k, 0])) as Pruned
    for (const { kind, before } of cutoffs(this.o.days, started)) {
      try {
        for (;;) {
          const n = await this.batch(kind, before, batchSize)
          done[kind] += n
          this.pruned.labels(kind).inc(n)
          if (n < batchSize || this.stopping) break
          await sleep(this.o.pauseMs ?? 10)
        }
      } catch (err) {
        this.failures.labels(kind).inc()
        log.error({ err, kind }, 'retention: a prune batch failed; the next run tries again')
      }
      if (this.stopping) break
    }
    this.lastRun.set(clock().getTime() / 1000)
    const total = Object.values(done).reduce((a, b) => a + b, 0)
    if (total > 0) log.info({ pruned: done }, 'retention: pruned rows past their age')
    return done
  }

  private batch(kind: RetentionKind, before: string, limit: number): Promise<number> {
    const { store, queue } = this.o
    switch (kind) {
      case 'delivered_deliveries':
        return store.deliveries.prune('delivered', before, limit)
      case 'dead_deliveries':
        return store.deliveries.prune('dead', before, limit)
      case 'events':
        return store.events.prune(before, limit)
      case 'dead_jobs':
        return queue.pruneDead(before, limit)
      case 'usage_counts':
        return store.usage.prune(before, limit)
      case 'access_tokens':
        return store.tokens.purge(before, limit)
      case 'psa_effects':
        return store.psaEffects.prune(before, limit)
      case 'idempotency_keys':
        return store.idempotency.prune(before, limit)
      case 'maintenance_windows':
        return store.maintenance.pruneExpired(before, limit)
    }
  }
}
