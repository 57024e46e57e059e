// The platform every capability module stands on, built once per process by the composition root
// (src/main/services.ts): the database and its group commit, the queue, the limits and notices shared
// through Redis when REDIS_URL is set, outbound HTTP, metrics and the service's public address
// (docs/architecture.md#the-modules). Each backend is chosen here, once.
import type { FastifyBaseLogger } from 'fastify'
import { collectDefaultMetrics, Registry } from 'prom-client'
import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import type { Db } from '../db/connect.js'
import { Store } from '../db/store.js'
import { WriteBatcher, writeBatchMetrics } from '../db/write-batch.js'
import { PublicAddress } from '../http/public-address.js'
import { createOutboundHttp, type OutboundHttp } from '../outbound/http.js'
import { type QueueBackend, queueBackend } from '../queue/backend.js'
import type { JobProducer } from '../queue/port.js'
import type { SqlJobQueue } from '../queue/sql-queue.js'
import type { RedisHandle } from '../redis/connect.js'
import { type LimiterFactory, limitersFor } from '../redis/limiters.js'
import { type ConfigNotices, noticesFor } from '../redis/notices.js'
import type { KeyRing } from '../security/crypto-box.js'

export interface Platform {
  config: Config
  clock: Clock
  log: FastifyBaseLogger
  db: Db
  /** SECRET_KEY (and SECRET_KEY_PREVIOUS): what seals stored secrets. */
  box: KeyRing
  store: Store
  /** Group commit of the hot paths' writes: accepts, claims, reservations, outcomes, deliveries. */
  writes: WriteBatcher
  /** Prometheus metrics, served at GET /metrics. */
  metrics: Registry
  /** Where producers put jobs: the embedded queue, or PostgreSQL handed over to Redis (REDIS_URL). */
  queue: JobProducer
  /** The jobs table itself, in both modes: depth, dead jobs, pruning. */
  jobs: SqlJobQueue
  /** The runner of this process and, with Redis, the relay that hands due jobs over. */
  backend: Pick<QueueBackend, 'runner' | 'relay'>
  /** Rate limits: counted across every process through Redis, or within this one. */
  limiters: LimiterFactory
  /** "The configuration changed": every process (through Redis) clears its cached copies. */
  notices: ConfigNotices
  /** Set with REDIS_URL. */
  redis: RedisHandle | null
  /** An HTTP client for calls out of the service, refusing private addresses unless allowed. */
  outbound(userAgent: string): OutboundHttp
  /** PUBLIC_URL, or where this process listens. */
  address: PublicAddress
  /** Closes what the platform opened beside the database and Redis, newest first. */
  close(): Promise<void>
}

export function buildPlatform(d: {
  config: Config
  db: Db
  box: KeyRing
  clock: Clock
  log: FastifyBaseLogger
  redis: RedisHandle | null
}): Platform {
  const { config, db, box, clock, log, redis } = d
  const closers: (() => Promise<void>)[] = []
  const limiters = limitersFor(redis, log)
  const notices = noticesFor(redis, log)
  closers.push(() => notices.close())
  const store = new Store(db.kysely, box, false, db.sqlite)
  const metrics = new Registry()
  // The process's own: event-loop delay (background work must not stall the API), heap, GC.
  collectDefaultMetrics({ register: metrics })
  const writes = new WriteBatcher(store, {
    maxWorkWhileAccepting: config.workerWritesWhileAccepting,
    onBatch: writeBatchMetrics(metrics),
  })
  const backend = queueBackend({
    db,
    store,
    writes,
    clock,
    log,
    metrics,
    redis,
    concurrency: config.workerConcurrency,
    leaseMs: config.jobLeaseMs,
  })
  closers.push(() => backend.close())
  const { allowPrivateNetwork, loopbackOrigins } = config
  return {
    config,
    clock,
    log,
    db,
    box,
    store,
    writes,
    metrics,
    queue: backend.producer,
    jobs: backend.table,
    backend,
    limiters,
    notices,
    redis,
    outbound: (userAgent) => createOutboundHttp({ allowPrivateNetwork, loopbackOrigins, userAgent }),
    address: new PublicAddress(config.psaSync.publicUrl),
    async close() {
      for (const close of closers.reverse()) await close()
    },
  }
}
