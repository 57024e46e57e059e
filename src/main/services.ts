// Builds every service once, with plain constructors, and types the set as one context that the route
// list and the runtime receive. No container, no decorators; nothing here but wiring.
import './repositories.js'
import type { FastifyBaseLogger } from 'fastify'
import { collectDefaultMetrics, Registry } from 'prom-client'
import {
  AlertAcceptor,
  type AlertExecutor,
  AlertIntake,
  alertExecutor,
  alertJob,
  alertKind,
  CachedReads,
  maintenanceKind,
  PartnerRules,
  type PartnerTestAlerts,
  partnerTestAlerts,
  registerAlertMetrics,
  SynchronousAlerts,
  VendorRateLimiter,
} from '../alerts/index.js'
import { UsagePushes, usagePushJob, usagePushKind } from '../billing/index.js'
import { Resealer, Retention, registerSealedMetrics, SealedValues } from '../ops/index.js'
import { PartnerSetup } from '../partner-api/index.js'
import { type Clock, iso } from '../platform/clock.js'
import type { Config } from '../platform/config.js'
import type { Db } from '../platform/db/connect.js'
import { Store } from '../platform/db/store.js'
import { WriteBatcher, writeBatchMetrics } from '../platform/db/write-batch.js'
import { createOutboundHttp } from '../platform/outbound/http.js'
import { queueBackend } from '../platform/queue/backend.js'
import { serviceJobKinds } from '../platform/queue/kinds.js'
import type { JobProducer } from '../platform/queue/port.js'
import type { SqlJobQueue } from '../platform/queue/sql-queue.js'
import type { RedisHandle } from '../platform/redis/connect.js'
import { KeyedLimit, limitersFor } from '../platform/redis/limiters.js'
import { type ConfigNotices, noticesFor } from '../platform/redis/notices.js'
import type { KeyRing } from '../platform/security/crypto-box.js'
import { PsaConnections, PsaRegistry, psaKinds, SandboxStore } from '../psa/index.js'
import type { PsaSync } from '../psa-sync/index.js'
import { twoWaySync } from '../psa-sync/index.js'
import type { PortalSessions, PortalUsers } from '../tenants/index.js'
import {
  type AuthHooks,
  authHooks,
  CredentialRotation,
  createProductGroupFetcher,
  IntegrationLifecycle,
  ProductGroupMetrics,
  ProductGroupSource,
  Provisioning,
  partnerOfKey,
  portalAccounts,
  TenantStatus,
  TokenService,
} from '../tenants/index.js'
import { VendorSetup } from '../vendor-api/index.js'
import {
  DeliveryJobs,
  defaultRetryScheduleSeconds,
  deliveryJob,
  deliveryKind,
  SnapshotScheduler,
  snapshotKind,
  WebhookOutbox,
  WebhookSender,
} from '../webhooks/index.js'
import { Runtime } from './runtime.js'

export interface Services {
  config: Config
  clock: Clock
  db: Db
  store: Store
  psa: PsaRegistry
  /** The sandbox PSA's own tickets and fault switch (its partner routes). */
  sandbox: SandboxStore
  /** Testing a partner's PSA connection and its look-ups, kept a few minutes. */
  psaConnections: PsaConnections
  tokens: TokenService
  intake: AlertIntake
  executor: AlertExecutor
  /** The synchronous strategy: the executor inside one request's budget. */
  synchronousAlerts: SynchronousAlerts
  /** The partner's and the operator's test alerts, and their close job (docs/partner-api.md#test-alerts). */
  partnerTests: PartnerTestAlerts
  acceptor: AlertAcceptor
  /** The accept path's short-lived configuration cache; any configuration change clears it. */
  acceptReads: CachedReads
  /** The effective product-group catalogue of each integration (static or the vendor's, cached). */
  productGroups: ProductGroupSource
  /** Prometheus metrics, served at GET /metrics. */
  metrics: Registry
  /** Where producers put jobs: the embedded queue, or PostgreSQL handed over to Redis (REDIS_URL). */
  queue: JobProducer
  /** The jobs table itself, in both modes: depth, dead jobs, pruning. */
  jobs: SqlJobQueue
  /** Queues webhook deliveries' jobs (the outbox, replays, an endpoint enabled again). */
  deliveryJobs: DeliveryJobs
  /** Sends one attempt of a delivery (the delivery job's handler); counts this process's attempts. */
  webhookSender: WebhookSender
  runtime: Runtime
  /** Prunes rows past their retention age (docs/operations.md); the runtime schedules it. */
  retention: Retention
  provisioning: Provisioning
  partnerSetup: PartnerSetup
  partnerRules: PartnerRules
  /** Rule tester dry runs a minute per portal user or API key (docs/partner-api.md#rules). */
  dryRunLimit: KeyedLimit
  vendorSetup: VendorSetup
  auth: AuthHooks
  /** Rotating credentials with an overlap window; disabling and enabling tenants. */
  credentials: CredentialRotation
  tenantStatus: TenantStatus
  /** The partner portal's users and their sign-in sessions. */
  portalUsers: PortalUsers
  portalSessions: PortalSessions
  /** Two-way sync: the PSAs' pushes, the poll, and what the partner sees of them (docs/psa/sync.md). */
  psaSync: PsaSync
  /** Set with REDIS_URL: the queue's transport, shared limits, configuration-changed notices. */
  redis: RedisHandle | null
  /** "The configuration changed": every process (through Redis) clears its cached copies. */
  notices: ConfigNotices
  /** Closes what the services opened beside the database and Redis (after runtime.stop). */
  close(): Promise<void>
}

export function buildServices(deps: {
  config: Config
  db: Db
  box: KeyRing
  clock: Clock
  adminTokenDigest: string
  log: FastifyBaseLogger
  redis?: RedisHandle | null
}): Services {
  const { config, db, box, clock, log } = deps
  const { allowPrivateNetwork } = config
  const redis = deps.redis ?? null
  /** Closed by close(), newest first. */
  const closers: (() => Promise<void>)[] = []
  // Each port's backend is chosen once, by whether REDIS_URL is set: counted and heard across every
  // process through Redis, or within this one.
  const limiters = limitersFor(redis, log)
  const notices = noticesFor(redis, log)
  closers.push(() => notices.close())
  const outbound = (userAgent: string) => createOutboundHttp({ allowPrivateNetwork, userAgent })

  const store = new Store(db.kysely, box, false, db.sqlite)
  const metrics = new Registry()
  // The process's own: event-loop delay (background work must not stall the API), heap, GC.
  collectDefaultMetrics({ register: metrics })
  // Group commit of the hot paths' writes: accepts, claims, reservations, outcomes, deliveries.
  const writes = new WriteBatcher(store, {
    maxWorkWhileAccepting: config.workerWritesWhileAccepting,
    onBatch: writeBatchMetrics(metrics),
  })
  const sandbox = new SandboxStore(db.kysely, (work) => writes.run((tx) => work(tx.kysely)))
  const psa = new PsaRegistry(
    psaKinds(sandbox, clock, {
      http: outbound('alertbridge-psa/1'),
      log,
      requestTimeoutMs: config.psaTimeoutMs,
      limiters,
      egress: config.egressName,
      syncroRequestsPerMinute: config.syncroRequestsPerMinute,
    }),
  )
  const { accessTokenTtlSeconds: ttl, accessTokenLimits } = config
  const tokens = new TokenService(store, clock, ttl, accessTokenLimits, limiters)
  const concurrency = config.workerConcurrency
  const leaseMs = config.jobLeaseMs
  const backend = queueBackend({ db, store, writes, clock, log, metrics, redis, concurrency, leaseMs })
  closers.push(() => backend.close())
  const { producer: queue, table: jobs } = backend
  const snapshots = new SnapshotScheduler(queue, clock, config.snapshotCoalesceMs)
  const lifecycle = new IntegrationLifecycle(snapshots)
  const usageJob = usagePushJob({ retryScheduleMs: config.usageRetryScheduleSeconds.map((s) => s * 1000) })
  const usagePushes = new UsagePushes(queue, usageJob)
  registerAlertMetrics(metrics, store)
  const productGroups = new ProductGroupSource({
    store,
    clock,
    log,
    metrics: new ProductGroupMetrics(metrics),
    fetcher: createProductGroupFetcher({ http: outbound('alertbridge-catalogue/1'), timeoutMs: 10_000 }),
    onListChanged: (integrationId) =>
      snapshots
        .changed(store, [integrationId])
        .catch((err) => log.error({ err, integrationId }, 'catalogue: could not schedule a state_snapshot')),
    onForget: (integrationId) => notices.publish({ kind: 'catalogue', integrationId }),
  })
  // A webhook delivery's attempts are jobs of the queue, 4 in flight per endpoint (webhooks/delivery-job.ts).
  const scheduleSeconds = config.webhookRetryScheduleSeconds ?? defaultRetryScheduleSeconds
  const deliveries = deliveryJob(scheduleSeconds)
  const deliveryJobs = new DeliveryJobs(queue, deliveries)
  const outbox = new WebhookOutbox(clock, productGroups, deliveryJobs)
  const webhookHttp = outbound('alertbridge-webhooks/1')
  const webhookSender = new WebhookSender({ store, writes, http: webhookHttp, clock, log, scheduleSeconds })
  const { psaTimeoutMs } = config
  const parts = { store, writes, clock, log, productGroups, psa, psaTimeoutMs, lifecycle, outbox }
  const executorParts = { ...parts, config, queue } // config.psaSync.publicUrl: ticket templates' portalLink
  const executor = alertExecutor(executorParts)
  // With Redis the tenant state is kept until a notice, a second at most (the safety net for a notice
  // that could not be published); on the embedded database until this process changes it.
  const acceptReads = new CachedReads(store, 1000, redis ? 1000 : 0)
  notices.subscribe((heard) => {
    if (heard.kind === 'catalogue') return productGroups.forgetHere(heard.integrationId)
    acceptReads.clear()
    if (heard.kind === 'all') productGroups.forgetAll()
  })
  const intake = new AlertIntake(
    acceptReads,
    acceptReads.freshReads(db.dialect === 'sqlite' || redis !== null),
    new VendorRateLimiter(config.defaultAlertRateLimitPerMinute, limiters),
    clock,
  )
  const alerts = alertJob({
    psaRetryScheduleMs: config.psaRetryScheduleSeconds.map((s) => s * 1000),
    partnerConcurrency: config.partnerConcurrency,
  })
  // SECRET_KEY rotation: sealed values by key at /metrics; re-sealing in the worker's background.
  const sealed = new SealedValues(db.kysely)
  registerSealedMetrics(metrics, sealed, box)
  const resealer = new Resealer({ sealed, settings: store.settings, ring: box, log, registry: metrics })
  const retention = new Retention({ store, queue: jobs, clock, log, metrics, ...config.retention })
  // Two-way sync (docs/psa/sync.md): pushes and the poll read tickets back; changes are events and
  // status_updates through the outbox.
  const twoWay = twoWaySync({ ...executorParts, queue, config, limiters, deliveries: deliveryJobs })
  const synchronousAlerts = new SynchronousAlerts(intake, executor, config.psaTimeoutMs)
  const testAlertLimit = new KeyedLimit(limiters, {
    keyPrefix: 'partner-test-alert',
    points: config.partnerLimits.testAlertsPerMinute,
    duration: 60,
  })
  const tests = partnerTestAlerts({
    ...executorParts,
    queue,
    intake,
    synchronousAlerts,
    deliveryJobs,
    testAlertLimit,
  })
  const { psaSync } = twoWay
  const runtime = new Runtime({
    db,
    queue: jobs,
    relay: backend.relay,
    runner: backend.runner,
    jobs: serviceJobKinds([
      alertKind(alerts, { executor, deliveries: deliveryJobs, tenants: store.integrations }),
      snapshotKind({ store, outbox, productGroups, deliveries: deliveryJobs }),
      usagePushKind(usageJob, { store, psa, clock, log, psaTimeoutMs: config.psaTimeoutMs, metrics }),
      deliveryKind(deliveries, { store, sender: webhookSender, jobs, clock, log }),
      ...twoWay.kinds,
      ...executor.kinds,
      tests.kind,
      maintenanceKind({ ...executorParts, executor, queue, deliveries: deliveryJobs }),
    ]),
    sender: webhookSender,
    resealer,
    retention,
    log,
    backlogLimit: config.queueBacklogLimit,
    metrics,
  })
  const { portalSessions, portalUsers } = portalAccounts({ store, clock, portal: config.portal, limiters })
  return {
    config,
    clock,
    db,
    store,
    psa,
    sandbox,
    psaConnections: new PsaConnections({ psa, timeoutMs: config.psaTimeoutMs }),
    tokens,
    intake,
    executor,
    synchronousAlerts,
    partnerTests: tests.service,
    acceptor: new AlertAcceptor(acceptReads, productGroups, intake, queue, alerts, clock, async (id) => {
      const kind = await acceptReads.partnerPsaKind(id)
      return kind !== null && psa.isInProcess(kind)
    }),
    acceptReads,
    productGroups,
    metrics,
    queue,
    jobs,
    deliveryJobs,
    webhookSender,
    runtime,
    retention,
    provisioning: new Provisioning(store, psa, clock, snapshots, allowPrivateNetwork, deliveryJobs, psaSync),
    psaSync,
    partnerSetup: new PartnerSetup(store, clock, snapshots, lifecycle, productGroups, usagePushes),
    partnerRules: new PartnerRules(store, clock, productGroups),
    dryRunLimit: new KeyedLimit(limiters, {
      keyPrefix: 'dry-run',
      points: config.partnerLimits.dryRunsPerMinute,
      duration: 60,
    }),
    vendorSetup: new VendorSetup(store, clock, lifecycle, usagePushes),
    // Changes made through the services (not only the routes) clear the intake's copies at once, and
    // every other process's as their notice arrives.
    credentials: new CredentialRotation(store, clock, () => notices.publish({ kind: 'configuration' })),
    tenantStatus: new TenantStatus({
      store,
      clock,
      queue,
      snapshots,
      onChange: () => notices.publish({ kind: 'configuration' }),
    }),
    portalUsers,
    portalSessions,
    redis,
    notices,
    async close() {
      for (const close of closers.reverse()) await close()
    },
    auth: authHooks({
      adminTokenDigest: deps.adminTokenDigest,
      partnerOfKey: (key) => partnerOfKey(store.partners, key, iso(clock)),
      vendorToken: (token) => tokens.verify(token),
      portalSession: (cookie) => portalSessions.check(cookie),
      touchPortalSession: (id) => portalSessions.touch(id),
    }),
  }
}
