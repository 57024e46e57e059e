// What the deliveries routes are given (services.ts builds it; routes.ts hands it over).
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { AuthHooks } from '../../tenants/auth.js'
import type { DeliveryJobs } from '../delivery-job.js'

export interface DeliveryRoutesDeps {
  auth: AuthHooks
  store: Store
  clock: Clock
  /** Replays queue their deliveries' jobs. */
  deliveryJobs: Pick<DeliveryJobs, 'enqueue' | 'handOver'>
}
