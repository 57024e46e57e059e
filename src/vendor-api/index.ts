// The vendor-api module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.

export type { VendorApiModule } from './module.js'
export { vendorApiModule } from './module.js'
export { VendorSetup } from './setup.js'
export type { TestTenancyDeps } from './test-tenancy.js'
export { provisionTestTenancy, TestTenancyCredentials, testTenancyProductGroups } from './test-tenancy.js'
