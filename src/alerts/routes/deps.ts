// What the alert routes are given (services.ts builds it; routes.ts hands it over).
import type { Store } from '../../platform/db/store.js'
import type { AuthHooks } from '../../tenants/auth.js'
import type { AlertExecutor } from '../executor/executor.js'
import type { AlertAcceptor } from '../intake/accept.js'
import type { AlertIntake } from '../intake/intake.js'
import type { SynchronousAlerts } from '../intake/synchronous.js'

export interface AlertRoutesDeps {
  auth: AuthHooks
  store: Store
  intake: AlertIntake
  executor: AlertExecutor
  syncAlerts: SynchronousAlerts
  acceptor: AlertAcceptor
}
