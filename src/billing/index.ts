// The billing module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.
// Its repositories, registered on the Store (src/platform/db/store.ts) when the module loads.
import './usage-pushes-repository.js'
import './usage-repository.js'

export type { BillingModule } from './module.js'
export { billingModule } from './module.js'
export { UsagePushes, usagePushJob, usagePushKind } from './usage-push.js'
