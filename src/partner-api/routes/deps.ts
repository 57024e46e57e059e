// What the partner's routes are given (services.ts builds it; routes.ts hands it over).

import type { PartnerRules } from '../../alerts/rules/service.js'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { KeyedLimit } from '../../platform/redis/limiters.js'
import type { PsaRegistry } from '../../psa/registry.js'
import type { SandboxStore } from '../../psa/sandbox/store.js'
import type { PsaSync } from '../../psa-sync/service.js'
import type { AuthHooks } from '../../tenants/auth.js'
import type { CredentialRotation } from '../../tenants/credentials/rotation.js'
import type { PortalSessions } from '../../tenants/people/sessions.js'
import type { PortalUsers } from '../../tenants/people/users.js'
import type { CatalogueSource } from '../../tenants/product-groups/source.js'
import type { Provisioning } from '../../tenants/provisioning.js'
import type { PsaConnections } from '../psa-connection.js'
import type { PartnerSetup } from '../setup.js'

export interface PartnerRoutesDeps {
  auth: AuthHooks
  store: Store
  clock: Clock
  partnerSetup: PartnerSetup
  partnerRules: PartnerRules
  provisioning: Provisioning
  credentials: CredentialRotation
  psa: PsaRegistry
  sandbox: SandboxStore
  psaConnections: PsaConnections
  /** Two-way sync: how the PSA is heard (docs/psa/sync.md). */
  psaSync: PsaSync
  portalUsers: PortalUsers
  portalSessions: PortalSessions
  /** The catalogue each integration may use (the dry run decides as an alert would). */
  catalogues: CatalogueSource
  /** Dry runs a minute per portal user or API key (DRY_RUNS_PER_MINUTE). */
  dryRunLimit: KeyedLimit
}
