// The billing module, built once by the composition root (src/main/services.ts): the usage counts vendors
// send, each pushed to the partner's PSA billing line by a job, and the vendor's and partner's usage
// routes (docs/partner-api.md#usage-counts-reach-the-psas-billing).
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { PsaRegistry } from '../psa/index.js'
import type { AuthHooks, PartnerIntegrations } from '../tenants/index.js'
import { registerPartnerUsage } from './routes/partner-usage.js'
import { registerVendorUsage } from './routes/vendor-usage.js'
import { UsagePushes, usagePushJob, usagePushKind } from './usage-push.js'

export interface BillingModule extends ModuleParts {
  /** Queues a count's push to the PSA (a count stored, a mapping changed). */
  usagePushes: UsagePushes
}

export function billingModule(
  p: Platform,
  d: { psa: PsaRegistry; tenants: { auth: AuthHooks; partnerIntegrations: PartnerIntegrations } },
): BillingModule {
  const { store, clock, log, config, metrics } = p
  const { auth, partnerIntegrations } = d.tenants
  const job = usagePushJob({ retryScheduleMs: config.usageRetryScheduleSeconds.map((s) => s * 1000) })
  const usagePushes = new UsagePushes(p.queue, job)
  return {
    usagePushes,
    routes: [
      (app) => registerVendorUsage(app, { auth, store }),
      (app) => registerPartnerUsage(app, { auth, store, partnerIntegrations, usagePushes }),
    ],
    jobs: [usagePushKind(job, { store, psa: d.psa, clock, log, psaTimeoutMs: config.psaTimeoutMs, metrics })],
  }
}
