// What the deliveries routes are given (services.ts builds it; routes.ts hands it over).
import type { Clock } from '../../clock.js'
import type { Store } from '../../db/store.js'
import type { AuthHooks } from '../../http/auth.js'
import type { WebhookDispatcher } from '../dispatcher.js'

export interface DeliveryRoutesDeps {
  auth: AuthHooks
  store: Store
  clock: Clock
  dispatcher: Pick<WebhookDispatcher, 'wake'>
}
