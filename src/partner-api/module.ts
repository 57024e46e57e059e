// The partner API module, built once by the composition root (src/main/services.ts): what a partner sets
// up on an integration (setup.ts) and the partner routes that are not another module's: integrations,
// accounts, services, the PSA connection, the sandbox PSA's controls, activity, the dashboard, the API
// key, portal sessions and users (docs/partner-api.md). The portal's pages are served by the app
// (portal-site.ts).
import type { BillingModule } from '../billing/index.js'
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { PsaModule } from '../psa/index.js'
import type { PsaSyncModule } from '../psa-sync/index.js'
import type { TenantsModule } from '../tenants/index.js'
import type { WebhooksModule } from '../webhooks/index.js'
import { registerPartnerAccounts } from './routes/accounts.js'
import { registerPartnerActivity } from './routes/activity.js'
import { registerPartnerApiKey } from './routes/api-key.js'
import { registerPartnerDashboard } from './routes/dashboard.js'
import { registerPartnerIntegrations } from './routes/integrations.js'
import { registerPartnerOrgToken } from './routes/org-token.js'
import { registerPartnerPsa } from './routes/psa.js'
import { registerPsaConsent } from './routes/psa-consent.js'
import { registerPartnerSandboxPsa } from './routes/sandbox-psa.js'
import { registerPartnerServices } from './routes/services.js'
import { registerPartnerSession } from './routes/session.js'
import { registerPartnerUsers } from './routes/users.js'
import { PartnerSetup } from './setup.js'

export interface PartnerApiModule extends ModuleParts {
  partnerSetup: PartnerSetup
}

export function partnerApiModule(
  p: Platform,
  d: {
    psa: PsaModule
    tenants: TenantsModule
    webhooks: Pick<WebhooksModule, 'snapshots'>
    billing: Pick<BillingModule, 'usagePushes'>
    psaSync: Pick<PsaSyncModule, 'psaSync'>
  },
): PartnerApiModule {
  const { store, clock } = p
  const { auth, credentials, portalSessions, portalUsers, provisioning, lifecycle, productGroups } = d.tenants
  const { registry: psa, connections: psaConnections, sandbox } = d.psa
  const { psaSync } = d.psaSync
  const partnerSetup = new PartnerSetup(
    store,
    clock,
    d.webhooks.snapshots,
    lifecycle,
    productGroups,
    d.billing.usagePushes,
  )
  return {
    partnerSetup,
    routes: [
      (app) => registerPartnerIntegrations(app, { auth, store, partnerSetup }),
      (app) => registerPartnerOrgToken(app, { auth, credentials, partnerSetup }),
      (app) => registerPartnerAccounts(app, { auth, store, clock, psa, partnerSetup }),
      (app) => registerPartnerServices(app, { auth, store, partnerSetup }),
      (app) => registerPartnerActivity(app, { auth, store, clock, psa, psaConnections }),
      (app) => registerPartnerDashboard(app, { auth, store, clock }),
      (app) => registerPartnerPsa(app, { auth, store, provisioning, psa, psaConnections, psaSync }),
      (app) =>
        registerPsaConsent(app, {
          auth,
          store,
          provisioning,
          consent: d.psa.consent,
          publicUrl: () => p.address.get(),
          timeoutMs: p.config.psaTimeoutMs,
        }),
      (app) => registerPartnerSandboxPsa(app, { auth, store, clock, sandbox }),
      (app) => registerPartnerApiKey(app, { auth, credentials }),
      (app) => registerPartnerSession(app, { auth, portalSessions, portalUsers }),
      (app) => registerPartnerUsers(app, { auth, portalUsers }),
    ],
    jobs: [],
  }
}
