// What the vendor API's routes are given (services.ts builds it; routes.ts hands it over).
import type { CatalogueSource } from '../../catalogue/source.js'
import type { Clock } from '../../clock.js'
import type { Store } from '../../db/store.js'
import type { AuthHooks } from '../../http/auth.js'
import type { CredentialRotation } from '../../tenants/credentials.js'
import type { Provisioning } from '../../tenants/provisioning.js'
import type { DeliveryJobs } from '../../webhooks/delivery-job.js'
import type { VendorSetup } from '../setup.js'
import type { TokenService } from '../token-service.js'

export interface VendorRoutesDeps {
  auth: AuthHooks
  store: Store
  clock: Clock
  tokens: TokenService
  vendorSetup: VendorSetup
  catalogues: CatalogueSource
  provisioning: Provisioning
  credentials: CredentialRotation
  /** Test events queue their delivery jobs (docs/vendor-api.md#self-service). */
  deliveryJobs: Pick<DeliveryJobs, 'enqueue' | 'handOver'>
}
