// The operator API module, built once by the composition root (src/main/services.ts): vendors, partners
// and their portal users, integrations, tokens, rotations, disabling tenants, the audit trail and test
// tenancies, each behind the admin token (docs/operations.md). It owns no service: its routes call the
// modules below.
import type { PartnerApiModule } from '../partner-api/index.js'
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import type { PsaModule } from '../psa/index.js'
import type { TenantsModule } from '../tenants/index.js'
import type { VendorApiModule } from '../vendor-api/index.js'
import { registerAdminAudit } from './routes/audit.js'
import { registerAdminIntegrations } from './routes/integrations.js'
import { registerAdminPartnerUsers } from './routes/partner-users.js'
import { registerAdminPartners } from './routes/partners.js'
import { registerAdminRotations } from './routes/rotations.js'
import { registerAdminTenantStatus } from './routes/tenant-status.js'
import { registerAdminTestTenancy } from './routes/test-tenancy.js'
import { registerAdminTokens } from './routes/tokens.js'
import { registerAdminVendors } from './routes/vendors.js'

export function adminModule(
  p: Platform,
  d: {
    psa: PsaModule
    tenants: TenantsModule
    partnerApi: Pick<PartnerApiModule, 'partnerSetup'>
    vendorApi: Pick<VendorApiModule, 'testTenancies'>
  },
): ModuleParts {
  const { store, clock } = p
  const { auth, provisioning, portalUsers, credentials, tenantStatus } = d.tenants
  const { registry: psa, connections: psaConnections } = d.psa
  const { partnerSetup } = d.partnerApi
  return {
    routes: [
      (app) => registerAdminVendors(app, { auth, store, clock, provisioning }),
      (app) => registerAdminPartners(app, { auth, store, clock, provisioning, psa, psaConnections }),
      (app) => registerAdminPartnerUsers(app, { auth, portalUsers }),
      (app) => registerAdminIntegrations(app, { auth, store, clock, provisioning, partnerSetup }),
      (app) => registerAdminTokens(app, { auth, store, clock }),
      (app) => registerAdminRotations(app, { auth, credentials }),
      (app) => registerAdminTenantStatus(app, { auth, tenantStatus }),
      (app) => registerAdminAudit(app, { auth, store }),
      (app) => registerAdminTestTenancy(app, { auth, ...d.vendorApi.testTenancies }),
    ],
    jobs: [],
  }
}
