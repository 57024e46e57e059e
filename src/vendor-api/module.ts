// The vendor API module, built once by the composition root (src/main/services.ts): OAuth tokens, the
// vendor's setup calls (accounts, starting the mapping, usage counts), product groups, the integration
// list, credentials and integrations (docs/vendor-api.md), test tenancies and the vendor's own test integrations.

import type { AlertsModule } from '../alerts/index.js'
import type { BillingModule } from '../billing/index.js'
import type { PartnerApiModule } from '../partner-api/index.js'
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { PsaModule } from '../psa/index.js'
import type { PsaSyncModule } from '../psa-sync/index.js'
import type { TenantsModule } from '../tenants/index.js'
import { registerVendorCredentials } from './routes/credentials.js'
import { registerIntegrationList } from './routes/integration-list.js'
import { registerVendorIntegrations } from './routes/integrations.js'
import { oauthFailure, registerOAuthToken } from './routes/oauth-token.js'
import { registerVendorProductGroups } from './routes/product-groups.js'
import { registerVendorSandbox } from './routes/sandbox.js'
import { registerVendorSandboxSteps } from './routes/sandbox-steps.js'
import { registerVendorSetup } from './routes/setup.js'
import { VendorSetup } from './setup.js'
import type { TestTenancyDeps } from './test-tenancy.js'

export interface VendorApiModule extends ModuleParts {
  vendorSetup: VendorSetup
  /** What making a test tenancy uses (the operator's route and `--demo`). */
  testTenancies: TestTenancyDeps
  /** The token endpoint's failures in OAuth's shape (the app's error handler). */
  oauthFailure: typeof oauthFailure
}

export function vendorApiModule(
  p: Platform,
  d: {
    tenants: TenantsModule
    billing: Pick<BillingModule, 'usagePushes'>
    alerts: Pick<AlertsModule, 'partnerRules'>
    partnerApi: Pick<PartnerApiModule, 'partnerSetup'>
    psa: Pick<PsaModule, 'sandbox'>
    psaSync: Pick<PsaSyncModule, 'psaSync'>
  },
): VendorApiModule {
  const { store, clock } = p
  const { auth, tokens, productGroups, provisioning, credentials, lifecycle, portalUsers } = d.tenants
  const vendorSetup = new VendorSetup(store, clock, lifecycle, d.billing.usagePushes)
  const { partnerSetup } = d.partnerApi
  const { partnerRules } = d.alerts
  const sandboxes = {
    store,
    clock,
    provisioning,
    vendorSetup,
    partnerSetup,
    partnerRules,
    sandbox: d.psa.sandbox,
  }
  return {
    vendorSetup,
    oauthFailure,
    testTenancies: {
      store,
      clock,
      provisioning,
      vendorSetup,
      partnerSetup: d.partnerApi.partnerSetup,
      partnerRules: d.alerts.partnerRules,
      portalUsers,
    },
    routes: [
      // Self-serve test mode (docs/vendor-api.md#self-serve-test-mode).
      (app) => registerVendorSandbox(app, { ...sandboxes, auth }),
      (app) =>
        registerVendorSandboxSteps(app, {
          ...sandboxes,
          auth,
          sandboxPsa: d.psa.sandbox,
          psaSync: d.psaSync.psaSync,
        }),
      (app) => registerOAuthToken(app, { store, clock, tokens }),
      (app) => registerVendorSetup(app, { auth, store, clock, vendorSetup }),
      (app) => registerVendorProductGroups(app, { auth, store, productGroups, provisioning }),
      (app) => registerIntegrationList(app, { auth, store, productGroups }),
      (app) => registerVendorCredentials(app, { auth, store, clock, credentials }),
      (app) => registerVendorIntegrations(app, { auth, store, clock }),
    ],
    jobs: [],
  }
}
