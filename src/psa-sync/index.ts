// The psa-sync module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.
// Its repositories, registered on the Store (src/platform/db/store.ts) when the module loads.
import './repository.js'
import './poll-repository.js'

export type { PsaSyncModule } from './module.js'
export { psaSyncModule } from './module.js'
export { redactPushTokens } from './secrets.js'
export type { PsaSync } from './service.js'
