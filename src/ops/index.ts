// The ops module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.
export { registerMetrics } from './metrics.js'
export type { OpsModule } from './module.js'
export { opsModule } from './module.js'
export { Resealer, registerSealedMetrics } from './reseal.js'
export { Retention } from './retention.js'
export { SealedValues } from './sealed-values.js'
export { openKeyRing } from './secret-key.js'
