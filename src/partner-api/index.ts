// The partner-api module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.

export type { PartnerApiModule } from './module.js'
export { partnerApiModule } from './module.js'
export { portalPages } from './portal-site.js'
export { PartnerSetup } from './setup.js'
