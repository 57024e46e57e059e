// The vendor-api module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.
export { registerVendorCredentials } from './routes/credentials.js'
export { registerIntegrationList } from './routes/integration-list.js'
export { registerVendorIntegrations } from './routes/integrations.js'
export { oauthFailure, registerOAuthToken } from './routes/oauth-token.js'
export { registerVendorProductGroups } from './routes/product-groups.js'
export { registerVendorSetup } from './routes/setup.js'
export { VendorSetup } from './setup.js'
export type { TestTenancyDeps } from './test-tenancy.js'
export { provisionTestTenancy, TestTenancyCredentials, testTenancyProductGroups } from './test-tenancy.js'
