// The admin module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.
export { registerAdminAudit } from './routes/audit.js'
export { registerAdminIntegrations } from './routes/integrations.js'
export { registerAdminPartnerUsers } from './routes/partner-users.js'
export { registerAdminPartners } from './routes/partners.js'
export { registerAdminRotations } from './routes/rotations.js'
export { registerAdminTenantStatus } from './routes/tenant-status.js'
export { registerAdminTestTenancy } from './routes/test-tenancy.js'
export { registerAdminTokens } from './routes/tokens.js'
export { registerAdminVendors } from './routes/vendors.js'
