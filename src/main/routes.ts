// Every route of the service, in one explicit list: grep finds them all here.
import { registerAdminAudit } from '../admin/routes/audit.js'
import { registerAdminIntegrations } from '../admin/routes/integrations.js'
import { registerAdminPartnerUsers } from '../admin/routes/partner-users.js'
import { registerAdminPartners } from '../admin/routes/partners.js'
import { registerAdminRotations } from '../admin/routes/rotations.js'
import { registerAdminTenantStatus } from '../admin/routes/tenant-status.js'
import { registerAdminTestTenancy } from '../admin/routes/test-tenancy.js'
import { registerAdminTokens } from '../admin/routes/tokens.js'
import { registerAdminVendors } from '../admin/routes/vendors.js'
import { registerPartnerDryRun } from '../alerts/dry-run/routes/dry-run.js'
import { registerSynchronousAlerts } from '../alerts/routes/alert-sync.js'
import { registerAlertWebhook } from '../alerts/routes/alert-webhook.js'
import { registerVendorTickets } from '../alerts/routes/tickets.js'
import { registerPartnerRuleTemplates } from '../alerts/rules/routes/rule-templates.js'
import { registerPartnerRules } from '../alerts/rules/routes/rules.js'
import { registerCatchAll } from '../alerts/steps/catch-all/routes/unmapped.js'
import { registerMaintenanceWindows } from '../alerts/steps/maintenance/routes/windows.js'
import { registerAdminTestAlert } from '../alerts/test-alerts/routes/admin-test-alert.js'
import { registerPartnerTestAlert } from '../alerts/test-alerts/routes/partner-test-alert.js'
import { registerVendorTestAlert } from '../alerts/test-alerts/routes/vendor-test-alert.js'
import { registerPartnerUsage } from '../billing/routes/partner-usage.js'
import { registerVendorUsage } from '../billing/routes/vendor-usage.js'
import { registerMetrics } from '../ops/metrics.js'
import { registerHealth } from '../ops/routes/health.js'
import { registerPartnerAccounts } from '../partner-api/routes/accounts.js'
import { registerPartnerActivity } from '../partner-api/routes/activity.js'
import { registerPartnerApiKey } from '../partner-api/routes/api-key.js'
import { registerPartnerDashboard } from '../partner-api/routes/dashboard.js'
import { registerPartnerIntegrations } from '../partner-api/routes/integrations.js'
import { registerPartnerOrgToken } from '../partner-api/routes/org-token.js'
import { registerPartnerPsa } from '../partner-api/routes/psa.js'
import { registerPartnerSandboxPsa } from '../partner-api/routes/sandbox-psa.js'
import { registerPartnerServices } from '../partner-api/routes/services.js'
import { registerPartnerSession } from '../partner-api/routes/session.js'
import { registerPartnerUsers } from '../partner-api/routes/users.js'
import type { App } from '../platform/http/app-types.js'
import { registerPartnerPsaSync } from '../psa-sync/routes/partner-psa-sync.js'
import { registerPsaPush } from '../psa-sync/routes/push.js'
import { registerVendorCredentials } from '../vendor-api/routes/credentials.js'
import { registerIntegrationList } from '../vendor-api/routes/integration-list.js'
import { registerVendorIntegrations } from '../vendor-api/routes/integrations.js'
import { registerOAuthToken } from '../vendor-api/routes/oauth-token.js'
import { registerVendorProductGroups } from '../vendor-api/routes/product-groups.js'
import { registerVendorSetup } from '../vendor-api/routes/setup.js'
import { registerDeliveries } from '../webhooks/routes/deliveries.js'
import { registerVendorEvents } from '../webhooks/routes/events.js'
import { registerVendorWebhook } from '../webhooks/routes/webhook.js'
import type { Services } from './services.js'

export const routes: ((app: App, s: Services) => void)[] = [
  registerHealth,
  registerMetrics,
  // Vendor (the Integrator)
  registerSynchronousAlerts,
  registerAlertWebhook,
  registerVendorTickets,
  registerOAuthToken,
  registerVendorSetup,
  registerVendorProductGroups,
  registerVendorUsage,
  registerIntegrationList,
  registerVendorCredentials,
  // Vendor self-service: its webhook, integrations and events (its deliveries: registerDeliveries)
  registerVendorWebhook,
  registerVendorIntegrations,
  registerVendorEvents,
  registerVendorTestAlert,
  // The PSAs' pushes (two-way sync)
  registerPsaPush,
  // Partner (the MSP)
  registerPartnerIntegrations,
  registerPartnerOrgToken,
  registerPartnerAccounts,
  registerCatchAll,
  registerPartnerServices,
  registerPartnerUsage,
  registerPartnerRules,
  registerPartnerRuleTemplates,
  registerPartnerDryRun,
  registerMaintenanceWindows,
  registerPartnerTestAlert,
  registerPartnerActivity,
  registerPartnerDashboard,
  registerPartnerPsa,
  registerPartnerPsaSync,
  registerPartnerSandboxPsa,
  registerPartnerApiKey,
  registerPartnerSession,
  registerPartnerUsers,
  // Operator
  registerAdminVendors,
  registerAdminPartners,
  registerAdminPartnerUsers,
  registerAdminIntegrations,
  registerAdminTokens,
  registerAdminRotations,
  registerAdminTenantStatus,
  registerAdminAudit,
  registerAdminTestTenancy,
  registerAdminTestAlert,
  // Partner, vendor and operator: webhook deliveries
  registerDeliveries,
]
