// What the alert routes are given (services.ts builds it; routes.ts hands it over).
import type { Store } from '../../db/store.js'
import type { AuthHooks } from '../../http/auth.js'
import type { AlertAcceptor } from '../accept.js'
import type { AlertExecutor } from '../executor.js'
import type { AlertIntake } from '../intake.js'
import type { SynchronousAlerts } from '../synchronous.js'

export interface AlertRoutesDeps {
  auth: AuthHooks
  store: Store
  intake: AlertIntake
  executor: AlertExecutor
  syncAlerts: SynchronousAlerts
  acceptor: AlertAcceptor
}
