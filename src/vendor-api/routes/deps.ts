// What the vendor API's routes are given (services.ts builds it; routes.ts hands it over).

import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { AuthHooks } from '../../tenants/auth.js'
import type { CredentialRotation } from '../../tenants/credentials/rotation.js'
import type { TokenService } from '../../tenants/credentials/token-service.js'
import type { CatalogueSource } from '../../tenants/product-groups/source.js'
import type { Provisioning } from '../../tenants/provisioning.js'
import type { DeliveryJobs } from '../../webhooks/delivery-job.js'
import type { VendorSetup } from '../setup.js'

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
