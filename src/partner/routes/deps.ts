// What the partner's routes are given (services.ts builds it; routes.ts hands it over).
import type { CatalogueSource } from '../../catalogue/source.js'
import type { Clock } from '../../clock.js'
import type { Store } from '../../db/store.js'
import type { AuthHooks } from '../../http/auth.js'
import type { PsaRegistry } from '../../psa/registry.js'
import type { SandboxStore } from '../../psa/sandbox/store.js'
import type { KeyedLimit } from '../../redis/limiters.js'
import type { PsaSync } from '../../sync/service.js'
import type { CredentialRotation } from '../../tenants/credentials.js'
import type { Provisioning } from '../../tenants/provisioning.js'
import type { PortalSessions } from '../portal-sessions.js'
import type { PortalUsers } from '../portal-users.js'
import type { PsaConnections } from '../psa-connection.js'
import type { PartnerRules } from '../rules.js'
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
