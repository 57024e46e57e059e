// The one place the queue's backend is chosen. Jobs always live in the service's database (the jobs
// table: sql-queue.ts); what differs is how a due job reaches a runner. Embedded (no REDIS_URL): the
// producer is the table itself and the runner claims from it (sql-runner.ts), woken in this process by
// hand-overs. With Redis: the producer writes the table and hands due jobs to BullMQ after the commit,
// the relay hands over what becomes due later or what Redis lost, and the runner takes jobs from BullMQ
// with the per-group caps held in Redis across processes (redis-transport.ts, redis-runner.ts,
// platform/redis/slots.ts). Producers and handlers see only the ports (port.ts) either way.
import type { Queue } from 'bullmq'
import type { FastifyBaseLogger } from 'fastify'
import type { Registry } from 'prom-client'
import type { Clock } from '../clock.js'
import type { Db } from '../db/connect.js'
import type { Store } from '../db/store.js'
import type { WriteBatcher } from '../db/write-batch.js'
import type { RedisHandle } from '../redis/connect.js'
import { redisGroupSlots } from '../redis/slots.js'
import { jobLeaseMs, renewalOf } from './lease.js'
import { registerQueueMetrics } from './metrics.js'
import type { JobProducer, JobRunner } from './port.js'
import { RedisJobRunner } from './redis-runner.js'
import { type BullJobData, bullQueue, QueueRelay, RedisJobQueue } from './redis-transport.js'
import { SqlJobQueue } from './sql-queue.js'
import { SqlJobRunner } from './sql-runner.js'

export interface QueueBackend {
  /** Where producers put jobs (inside their own transaction) and hand them over after it commits. */
  producer: JobProducer
  /** The jobs table, in both modes: depth, dead jobs, pruning, orphaned leases, held jobs. */
  table: SqlJobQueue
  /** Runs due jobs of the kinds it is started with (worker roles only). */
  runner: JobRunner & { readonly finished: number }
  /** With Redis: hands jobs over as they become due and re-sends what Redis lost. */
  relay: QueueRelay | null
  /** Closes what the backend opened beside the database and Redis connections. */
  close(): Promise<void>
}

export function queueBackend(o: {
  db: Db
  store: Store
  writes: WriteBatcher
  clock: Clock
  log: FastifyBaseLogger
  metrics: Registry
  redis: RedisHandle | null
  /** Jobs a runner of this process runs at once (WORKER_CONCURRENCY). */
  concurrency: number
  /** How long a claim hides a job unless renewed (JOB_LEASE_SECONDS); the default without it. */
  leaseMs?: number
}): QueueBackend {
  const { db, store, writes, clock, log, metrics, redis, concurrency } = o
  const leaseMs = o.leaseMs ?? jobLeaseMs
  const renewEveryMs = renewalOf(leaseMs)
  const table = new SqlJobQueue(store, db, clock, writes)
  if (!redis) {
    registerQueueMetrics(metrics, table)
    // Other processes may enqueue on PostgreSQL, which the runner notices by polling; the embedded
    // database has one process, whose hand-overs wake the runner.
    const idleMs = db.dialect === 'postgres' ? 1000 : 10_000
    return {
      producer: table,
      table,
      runner: new SqlJobRunner({ queue: table, clock, log, concurrency, idleMs, leaseMs, renewEveryMs }),
      relay: null,
      close: async () => {},
    }
  }
  const bull: Queue<BullJobData> = bullQueue(redis, log)
  registerQueueMetrics(metrics, table, bull)
  const relay = new QueueRelay({ sql: table, queue: bull, redis, clock, log, metrics })
  return {
    producer: new RedisJobQueue({ sql: table, store, writes, queue: bull, clock, log, relay }),
    table,
    runner: new RedisJobRunner({
      queue: table,
      redis,
      // A kind's cap per group (4 deliveries per endpoint) holds across every process.
      groups: redisGroupSlots(redis, { log, leaseMs, renewEveryMs }),
      clock,
      log,
      concurrency,
      leaseMs,
    }),
    relay,
    close: () => bull.close(),
  }
}
