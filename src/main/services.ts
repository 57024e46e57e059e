// The composition root: the platform, then each capability module in the order of
// docs/architecture.md#the-modules, each handed what it uses of the platform and of the modules below it.
// A module answers its routes and its job handlers: the app registers the first (app.ts), the runtime
// runs the second, checked against the closed catalogue of job kinds. No container, no decorators; nothing
// here but wiring.
import './repositories.js'
import type { FastifyBaseLogger } from 'fastify'
import { adminModule } from '../admin/index.js'
import { type AlertsModule, alertsModule } from '../alerts/index.js'
import { type BillingModule, billingModule } from '../billing/index.js'
import { type OpsModule, opsModule } from '../ops/index.js'
import { type PartnerApiModule, partnerApiModule } from '../partner-api/index.js'
import type { Clock } from '../platform/clock.js'
import type { ModuleParts, Route } from '../platform/composition/module.js'
import { buildPlatform, type Platform } from '../platform/composition/platform.js'
import type { Config } from '../platform/config.js'
import type { Db } from '../platform/db/connect.js'
import { serviceJobKinds } from '../platform/queue/kinds.js'
import type { RedisHandle } from '../platform/redis/connect.js'
import type { KeyRing } from '../platform/security/crypto-box.js'
import { type PsaModule, psaModule } from '../psa/index.js'
import { type PsaSyncModule, psaSyncModule } from '../psa-sync/index.js'
import { type PsaConnectionChanges, type TenantsModule, tenantsModule } from '../tenants/index.js'
import { type VendorApiModule, vendorApiModule } from '../vendor-api/index.js'
import { type WebhooksModule, webhookQueues, webhooksModule } from '../webhooks/index.js'
import { Runtime } from './runtime.js'

export interface Services extends Platform {
  psa: PsaModule
  tenants: TenantsModule
  webhooks: WebhooksModule
  billing: BillingModule
  alerts: AlertsModule
  psaSync: PsaSyncModule
  partnerApi: PartnerApiModule
  vendorApi: VendorApiModule
  admin: ModuleParts
  ops: OpsModule
  /** Every module's routes, module by module in the order above. */
  routes: readonly Route[]
  /** Starts and stops the background work of a worker process: the job kinds of every module. */
  runtime: Runtime
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
  const p = buildPlatform({ ...deps, redis: deps.redis ?? null })
  const psa = psaModule(p)
  // tenants/ tells the modules above it of its changes through ports (tenants/ports.ts): the webhooks
  // module's queues exist before tenants/; two-way sync, which needs tenants/, is bound once it is built.
  const queues = webhookQueues(p)
  let twoWay: PsaSyncModule | undefined
  const psaChanges: PsaConnectionChanges = {
    connectionChanged: (tx, partnerId) => built(twoWay).psaSync.connectionChanged(tx, partnerId),
    handOver: () => built(twoWay).psaSync.handOver(),
  }
  const tenants = tenantsModule(p, {
    psa: psa.registry,
    adminTokenDigest: deps.adminTokenDigest,
    ports: { snapshots: queues.snapshots, deliveries: queues.deliveryJobs, psaChanges },
  })
  const webhooks = webhooksModule(p, { queues, tenants })
  const billing = billingModule(p, { psa: psa.registry, tenants })
  const alerts = alertsModule(p, { psa, tenants, webhooks })
  const psaSync = psaSyncModule(p, { psa: psa.registry, auth: tenants.auth, webhooks })
  twoWay = psaSync
  const partnerApi = partnerApiModule(p, { psa, tenants, webhooks, billing, psaSync })
  const vendorApi = vendorApiModule(p, { tenants, billing, alerts, partnerApi, psa, psaSync })
  const admin = adminModule(p, { psa, tenants, partnerApi, vendorApi })
  const ops = opsModule(p)
  // Vendor calls first, then the PSAs' pushes, the partner's and the operator's: the order of the
  // OpenAPI document's paths.
  const modules = [ops, alerts, vendorApi, billing, webhooks, psaSync, partnerApi, admin, psa, tenants]
  const runtime = new Runtime({
    db: p.db,
    queue: p.jobs,
    relay: p.backend.relay,
    runner: p.backend.runner,
    jobs: serviceJobKinds(modules.flatMap((m) => m.jobs)),
    sender: webhooks.sender,
    resealer: ops.resealer,
    retention: ops.retention,
    log: p.log,
    backlogLimit: p.config.queueBacklogLimit,
    metrics: p.metrics,
  })
  return {
    ...p,
    psa,
    tenants,
    webhooks,
    billing,
    alerts,
    psaSync,
    partnerApi,
    vendorApi,
    admin,
    ops,
    routes: modules.flatMap((m) => m.routes),
    runtime,
  }
}

function built<T>(module: T | undefined): T {
  if (!module) throw new Error('a port was called while the composition root was still building the modules')
  return module
}
