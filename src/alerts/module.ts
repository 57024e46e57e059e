// The alerts module, built once by the composition root (src/main/services.ts): intake (both strategies),
// the executor with its steps (storm control, maintenance windows, catch-all), the partner's rules and
// rule tester, test alerts, and every route and job kind of theirs (docs/architecture.md#the-modules).
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import { KeyedLimit } from '../platform/redis/limiters.js'
import type { PsaModule } from '../psa/index.js'
import type { TenantsModule } from '../tenants/index.js'
import type { WebhooksModule } from '../webhooks/index.js'
import { registerPartnerDryRun } from './dry-run/routes/dry-run.js'
import { CachedReads } from './executor/cached-reads.js'
import { type AlertExecutor, alertExecutor } from './executor/executor.js'
import { registerAlertMetrics } from './executor/metrics.js'
import { AlertAcceptor } from './intake/accept.js'
import { AlertIntake } from './intake/intake.js'
import { alertJob, alertKind } from './intake/queued.js'
import { VendorRateLimiter } from './intake/rate-limit.js'
import { SynchronousAlerts } from './intake/synchronous.js'
import { registerSynchronousAlerts } from './routes/alert-sync.js'
import { registerAlertWebhook } from './routes/alert-webhook.js'
import { registerVendorTickets } from './routes/tickets.js'
import { registerPartnerRuleTemplates } from './rules/routes/rule-templates.js'
import { registerPartnerRules } from './rules/routes/rules.js'
import { PartnerRules } from './rules/service.js'
import { registerCatchAll } from './steps/catch-all/routes/unmapped.js'
import { maintenanceKind } from './steps/maintenance/jobs.js'
import { registerMaintenanceWindows } from './steps/maintenance/routes/windows.js'
import { type PartnerTestAlerts, partnerTestAlerts } from './test-alerts/partner-test.js'
import { registerAdminTestAlert } from './test-alerts/routes/admin-test-alert.js'
import { registerPartnerTestAlert } from './test-alerts/routes/partner-test-alert.js'
import { registerVendorTestAlert } from './test-alerts/routes/vendor-test-alert.js'

export interface AlertsModule extends ModuleParts {
  intake: AlertIntake
  executor: AlertExecutor
  /** The synchronous strategy: the executor inside one request's budget. */
  synchronousAlerts: SynchronousAlerts
  /** The webhook strategy's accept: validated, previewed and queued. */
  acceptor: AlertAcceptor
  /** The accept path's short-lived configuration cache; any configuration change clears it. */
  acceptReads: CachedReads
  partnerRules: PartnerRules
  /** The partner's and the operator's test alerts, and their close job (docs/partner-api.md#test-alerts). */
  partnerTests: PartnerTestAlerts
}

export function alertsModule(
  p: Platform,
  d: {
    psa: Pick<PsaModule, 'registry' | 'connections'>
    tenants: Pick<TenantsModule, 'auth' | 'lifecycle' | 'productGroups' | 'partnerIntegrations'>
    webhooks: Pick<WebhooksModule, 'outbox' | 'deliveryJobs'>
  },
): AlertsModule {
  const { store, clock, log, config, queue, notices, redis } = p
  const { auth, productGroups, partnerIntegrations } = d.tenants
  const { deliveryJobs } = d.webhooks
  const psa = d.psa.registry
  registerAlertMetrics(p.metrics, store)
  const executor = alertExecutor({
    store,
    writes: p.writes,
    clock,
    log,
    productGroups,
    psa,
    psaTimeoutMs: config.psaTimeoutMs,
    lifecycle: d.tenants.lifecycle,
    outbox: d.webhooks.outbox,
    config, // config.psaSync.publicUrl: ticket templates' portalLink
    queue,
  })
  // With Redis the tenant state is kept until a notice, CONFIGURATION_CACHE_MS at most (the safety net
  // for a notice that could not be published); on the embedded database until this process changes it.
  const cacheMs = config.configurationCacheMs
  const acceptReads = new CachedReads(store, cacheMs, redis ? cacheMs : 0)
  notices.subscribe((heard) => {
    if (heard.kind !== 'catalogue') acceptReads.clear()
  })
  const intake = new AlertIntake(
    acceptReads,
    acceptReads.freshReads(p.db.dialect === 'sqlite' || redis !== null),
    new VendorRateLimiter(config.defaultAlertRateLimitPerMinute, p.limiters),
    clock,
  )
  const alerts = alertJob({
    psaRetryScheduleMs: config.psaRetryScheduleSeconds.map((s) => s * 1000),
    partnerConcurrency: config.partnerConcurrency,
  })
  const synchronousAlerts = new SynchronousAlerts(intake, executor, config.psaTimeoutMs)
  const testAlertLimit = new KeyedLimit(p.limiters, {
    keyPrefix: 'partner-test-alert',
    points: config.partnerLimits.testAlertsPerMinute,
    duration: 60,
  })
  const tests = partnerTestAlerts({
    store,
    clock,
    psa,
    queue,
    productGroups,
    intake,
    synchronousAlerts,
    deliveryJobs,
    testAlertLimit,
  })
  const partnerTests = tests.service
  const acceptor = new AlertAcceptor(acceptReads, productGroups, intake, queue, alerts, clock, async (id) => {
    const kind = await acceptReads.partnerPsaKind(id)
    return kind !== null && psa.isInProcess(kind)
  })
  const partnerRules = new PartnerRules(store, clock, productGroups)
  /** Rule tester dry runs a minute per portal user or API key (docs/partner-api.md#rules). */
  const dryRunLimit = new KeyedLimit(p.limiters, {
    keyPrefix: 'dry-run',
    points: config.partnerLimits.dryRunsPerMinute,
    duration: 60,
  })
  const publicAddress = p.address
  const testAlerts = { store, productGroups, intake, synchronousAlerts, deliveryJobs }
  return {
    intake,
    executor,
    synchronousAlerts,
    acceptor,
    acceptReads,
    partnerRules,
    partnerTests,
    routes: [
      // The vendor's alert calls, its tickets and its test alert.
      (app) => registerSynchronousAlerts(app, { synchronousAlerts }),
      (app) => registerAlertWebhook(app, { acceptor }),
      (app) => registerVendorTickets(app, { auth, store }),
      (app) => registerVendorTestAlert(app, { auth, ...testAlerts }),
      // The partner's: unmapped accounts, rules and their templates, the rule tester, maintenance
      // windows, its test alert; and the operator's test alert.
      (app) => registerCatchAll(app, { auth, store, partnerIntegrations }),
      (app) => registerPartnerRules(app, { auth, store, partnerRules, partnerIntegrations }),
      (app) => registerPartnerRuleTemplates(app, { auth, store, publicAddress, partnerIntegrations }),
      (app) =>
        registerPartnerDryRun(app, {
          auth,
          store,
          clock,
          psa,
          psaConnections: d.psa.connections,
          productGroups,
          dryRunLimit,
          publicAddress,
          partnerIntegrations,
        }),
      (app) => registerMaintenanceWindows(app, { auth, store, clock, queue, partnerIntegrations }),
      (app) => registerPartnerTestAlert(app, { auth, partnerTests, partnerIntegrations }),
      (app) => registerAdminTestAlert(app, { auth, store, partnerTests }),
    ],
    jobs: [
      alertKind(alerts, { executor, deliveries: deliveryJobs, tenants: store.integrations }),
      ...executor.kinds,
      tests.kind,
      maintenanceKind({ store, executor, clock, log, queue, deliveries: deliveryJobs }),
    ],
  }
}
