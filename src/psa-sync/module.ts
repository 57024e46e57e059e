// The two-way sync module, built once by the composition root (src/main/services.ts; docs/psa/sync.md):
// the service the routes and provisioning call, the PSAs' push routes and the partner's sync status, and
// the job kinds that register pushes, poll and apply what changed.
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { PsaRegistry } from '../psa/index.js'
import type { AuthHooks } from '../tenants/index.js'
import type { WebhooksModule } from '../webhooks/index.js'
import { PsaSyncApplier } from './apply.js'
import { PsaSyncWork } from './handlers.js'
import { PsaSyncJobs, psaSyncKinds } from './jobs.js'
import { registerPartnerPsaSync } from './routes/partner-psa-sync.js'
import { registerPsaPush } from './routes/push.js'
import { PsaSync } from './service.js'

export interface PsaSyncModule extends ModuleParts {
  /** Two-way sync: the PSAs' pushes, the poll, and what the partner sees of them. */
  psaSync: PsaSync
}

export function psaSyncModule(
  p: Platform,
  d: { psa: PsaRegistry; auth: AuthHooks; webhooks: Pick<WebhooksModule, 'outbox' | 'deliveryJobs'> },
): PsaSyncModule {
  const { store, clock, log, config } = p
  const { psa, auth } = d
  const jobs = new PsaSyncJobs(p.queue, clock)
  const common = {
    store,
    psa,
    clock,
    log,
    jobs,
    config: { ...config.psaSync, psaTimeoutMs: config.psaTimeoutMs },
  }
  const psaSync = new PsaSync({
    ...common,
    pushLimiter: p.limiters({
      keyPrefix: 'psa-push',
      points: config.psaSync.pushRatePerMinute,
      duration: 60,
    }),
    // Each believed only after a read of the PSA: three an hour keep a forged caller off its API budget.
    deactivationLimiter: p.limiters({ keyPrefix: 'psa-deactivated', points: 3, duration: 3600 }),
    address: p.address,
  })
  const { outbox, deliveryJobs: deliveries } = d.webhooks
  const work = new PsaSyncWork({
    ...common,
    applier: new PsaSyncApplier({ store, clock, log, outbox, deliveries }),
    publicUrl: () => p.address.get(),
  })
  return {
    psaSync,
    routes: [
      (app) => registerPsaPush(app, { psaSync }),
      (app) => registerPartnerPsaSync(app, { auth, psaSync }),
    ],
    jobs: psaSyncKinds(work),
  }
}
