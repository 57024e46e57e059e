// What the operator's routes are given (services.ts builds it; routes.ts hands it over).
import type { Clock } from '../../clock.js'
import type { Store } from '../../db/store.js'
import type { AuthHooks } from '../../http/auth.js'
import type { PortalUsers } from '../../partner/portal-users.js'
import type { PsaConnections } from '../../partner/psa-connection.js'
import type { PartnerSetup } from '../../partner/setup.js'
import type { PsaRegistry } from '../../psa/registry.js'
import type { CredentialRotation } from '../../tenants/credentials.js'
import type { Provisioning } from '../../tenants/provisioning.js'
import type { TenantStatus } from '../../tenants/status.js'

export interface AdminRoutesDeps {
  auth: AuthHooks
  store: Store
  clock: Clock
  provisioning: Provisioning
  partnerSetup: PartnerSetup
  psa: PsaRegistry
  psaConnections: PsaConnections
  credentials: CredentialRotation
  tenantStatus: TenantStatus
  portalUsers: PortalUsers
}
