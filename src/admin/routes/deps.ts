// What the operator's routes are given (services.ts builds it; routes.ts hands it over).

import type { PsaConnections } from '../../partner-api/psa-connection.js'
import type { PartnerSetup } from '../../partner-api/setup.js'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { PsaRegistry } from '../../psa/registry.js'
import type { AuthHooks } from '../../tenants/auth.js'
import type { CredentialRotation } from '../../tenants/credentials/rotation.js'
import type { PortalUsers } from '../../tenants/people/users.js'
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
