// Builds every service once, with plain constructors, and types the set as one context that route
// files and workers receive. No container, no decorators.
import type { FastifyBaseLogger } from 'fastify'
import { Registry } from 'prom-client'
import { Provisioning } from './admin/provisioning.js'
import { AlertAcceptor } from './alerts/accept.js'
import { CachedReads } from './alerts/cached-reads.js'
import { AlertExecutor } from './alerts/executor.js'
import { AlertIntake } from './alerts/intake.js'
import { QueuedAlertHandler } from './alerts/queued.js'
import { VendorRateLimiter } from './alerts/rate-limit.js'
import { Settlement } from './alerts/settlement.js'
import { CatalogueMetrics } from './catalogue/metrics.js'
import { CatalogueSource } from './catalogue/source.js'
import { createCatalogueFetcher } from './catalogue/vendor-fetch.js'
import type { Clock } from './clock.js'
import type { Config } from './config.js'
import type { Db } from './db/connect.js'
import { Store } from './db/store.js'
import type { AuthHooks } from './http/auth.js'
import { authHooks } from './http/auth.js'
import { PartnerSetup } from './partner/setup.js'
import { PsaRegistry } from './psa/registry.js'
import type { JobQueue } from './queue/port.js'
import { SqlJobQueue } from './queue/sql-queue.js'
import { QueueWorker } from './queue/worker.js'
import type { CryptoBox } from './security/crypto-box.js'
import { VendorSetup } from './vendor/setup.js'
import { TokenService } from './vendor/token-service.js'
import { WebhookDispatcher } from './webhooks/dispatcher.js'
import { createOutboundHttp } from './webhooks/outbound.js'
import { WebhookOutbox } from './webhooks/outbox.js'
import { defaultRetryScheduleSeconds } from './webhooks/retry-policy.js'
import { SnapshotScheduler, snapshotHandler } from './webhooks/snapshots.js'

/** The background parts: the alert/snapshot worker and the webhook dispatcher. */
export interface Runtime {
  start(): Promise<void>
  /** Stops taking work and waits up to `graceMs` for work in flight. */
  stop(graceMs: number): Promise<void>
}

export interface Services {
  config: Config
  clock: Clock
  db: Db
  store: Store
  psa: PsaRegistry
  tokens: TokenService
  intake: AlertIntake
  executor: AlertExecutor
  acceptor: AlertAcceptor
  acceptReads: CachedReads
  /** The effective product-group catalogue of each integration (static or the vendor's, cached). */
  catalogues: CatalogueSource
  /** Prometheus metrics, served at GET /metrics. */
  metrics: Registry
  queue: JobQueue
  snapshots: SnapshotScheduler
  dispatcher: WebhookDispatcher
  runtime: Runtime
  provisioning: Provisioning
  partnerSetup: PartnerSetup
  vendorSetup: VendorSetup
  auth: AuthHooks
}

export function buildServices(deps: {
  config: Config
  db: Db
  box: CryptoBox
  clock: Clock
  adminTokenDigest: string
  log: FastifyBaseLogger
}): Services {
  const { config, db, box, clock, log } = deps
  const store = new Store(db.kysely, box)
  const psa = new PsaRegistry(store, clock)
  const tokens = new TokenService(store, clock, config.accessTokenTtlSeconds)
  const limiter = new VendorRateLimiter(config.defaultAlertRateLimitPerMinute)
  const queue = new SqlJobQueue(store, db, clock)
  // Other processes may enqueue on PostgreSQL; the embedded database has one writer process.
  const idleMs = db.dialect === 'postgres' ? 1000 : 10_000
  const snapshots = new SnapshotScheduler(queue, clock, config.snapshotCoalesceMs)
  const intake = new AlertIntake(store, limiter)
  const cachedReads = new CachedReads(store)
  const metrics = new Registry()
  const catalogues = new CatalogueSource({
    store,
    clock,
    log,
    metrics: new CatalogueMetrics(metrics),
    fetcher: createCatalogueFetcher({
      http: createOutboundHttp({
        allowPrivateNetwork: config.allowPrivateNetwork,
        userAgent: 'alertbridge-catalogue/1',
      }),
      timeoutMs: 10_000,
    }),
    snapshots,
  })
  const executor = new AlertExecutor({
    store,
    psa,
    clock,
    log,
    settlement: new Settlement(),
    psaTimeoutMs: config.psaTimeoutMs,
    snapshots,
    catalogues,
  })
  const outbox = new WebhookOutbox(clock, catalogues)
  const dispatcher = new WebhookDispatcher({
    store,
    http: createOutboundHttp({
      allowPrivateNetwork: config.allowPrivateNetwork,
      userAgent: 'alertbridge-webhooks/1',
    }),
    clock,
    log,
    scheduleSeconds: config.webhookRetryScheduleSeconds ?? defaultRetryScheduleSeconds,
    idleMs,
  })
  const onDelivery = () => dispatcher.wake()
  const worker = new QueueWorker({
    queue,
    handlers: {
      alert: new QueuedAlertHandler({
        queue,
        executor,
        outbox,
        clock,
        log,
        psaRetryScheduleMs: config.psaRetryScheduleSeconds.map((s) => s * 1000),
        onDelivery,
      }).handle,
      snapshot: snapshotHandler({ store, queue, outbox, catalogues, onDelivery }),
    },
    clock,
    log,
    concurrency: config.workerConcurrency,
    // Long enough for a few PSA calls and the waits between them; a dead worker's job is due after it.
    leaseMs: 3 * config.psaTimeoutMs + 5000,
    idleMs,
  })
  let purge: NodeJS.Timeout | undefined
  const purgeOld = () => {
    const cutoff = new Date(clock().getTime() - 30 * 24 * 60 * 60 * 1000).toISOString()
    store.deliveries
      .purge(cutoff)
      .catch((err) => log.error({ err }, 'could not purge old webhook deliveries'))
    // Expired and revoked tokens can never work again; the operator's list keeps a month of them.
    store.tokens.purge(cutoff).catch((err) => log.error({ err }, 'could not purge old access tokens'))
  }
  const runtime: Runtime = {
    async start() {
      // Delivered and dead deliveries (DESIGN §4) and dead tokens are kept 30 days, then purged hourly.
      purge = setInterval(purgeOld, 60 * 60 * 1000)
      purge.unref()
      if (db.dialect === 'sqlite') {
        // One process owns the embedded database: leases left at start are a crashed run's.
        const jobs = await queue.releaseOrphanedLeases()
        const deliveries = await store.deliveries.releaseOrphanedLeases(clock().toISOString())
        if (jobs + deliveries > 0)
          log.warn({ jobs, deliveries }, 'took back work a previous run left in flight')
      }
      worker.start()
      dispatcher.start()
    },
    async stop(graceMs) {
      clearInterval(purge)
      await worker.stop(graceMs)
      await dispatcher.stop(graceMs)
    },
  }
  return {
    config,
    clock,
    db,
    store,
    psa,
    tokens,
    intake,
    executor,
    acceptor: new AlertAcceptor(cachedReads, catalogues, new AlertIntake(cachedReads, limiter), queue, clock),
    acceptReads: cachedReads,
    catalogues,
    metrics,
    queue,
    snapshots,
    dispatcher,
    runtime,
    provisioning: new Provisioning(store, psa, clock, snapshots, config.allowPrivateNetwork),
    partnerSetup: new PartnerSetup(store, clock, snapshots, catalogues),
    vendorSetup: new VendorSetup(store, clock, snapshots),
    auth: authHooks({ store, tokens, adminTokenDigest: deps.adminTokenDigest }),
  }
}
