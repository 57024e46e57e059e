// Every route of the service, in one explicit list: grep finds them all here.
import { registerAdminAudit } from './admin/routes/audit.js'
import { registerAdminIntegrations } from './admin/routes/integrations.js'
import { registerAdminPartnerUsers } from './admin/routes/partner-users.js'
import { registerAdminPartners } from './admin/routes/partners.js'
import { registerAdminRotations } from './admin/routes/rotations.js'
import { registerAdminSandbox } from './admin/routes/sandbox.js'
import { registerAdminTenantStatus } from './admin/routes/tenant-status.js'
import { registerAdminTestAlert } from './admin/routes/test-alert.js'
import { registerAdminTokens } from './admin/routes/tokens.js'
import { registerAdminVendors } from './admin/routes/vendors.js'
import { registerAlertSync } from './alerts/routes/alert-sync.js'
import { registerAlertWebhook } from './alerts/routes/alert-webhook.js'
import { registerVendorTickets } from './alerts/routes/tickets.js'
import { registerCatchAll } from './catch-all/routes/unmapped.js'
import type { App } from './http/app-types.js'
import { registerMaintenanceWindows } from './maintenance/routes/windows.js'
import { registerMetrics } from './ops/metrics.js'
import { registerHealth } from './ops/routes/health.js'
import { registerPartnerAccounts } from './partner/routes/accounts.js'
import { registerPartnerActivity } from './partner/routes/activity.js'
import { registerPartnerApiKey } from './partner/routes/api-key.js'
import { registerPartnerDashboard } from './partner/routes/dashboard.js'
import { registerPartnerDryRun } from './partner/routes/dry-run.js'
import { registerPartnerIntegrations } from './partner/routes/integrations.js'
import { registerPartnerOrgToken } from './partner/routes/org-token.js'
import { registerPartnerPsa } from './partner/routes/psa.js'
import { registerPartnerPsaSync } from './partner/routes/psa-sync.js'
import { registerPartnerRuleTemplates } from './partner/routes/rule-templates.js'
import { registerPartnerRules } from './partner/routes/rules.js'
import { registerPartnerSandbox } from './partner/routes/sandbox.js'
import { registerPartnerServices } from './partner/routes/services.js'
import { registerPartnerSession } from './partner/routes/session.js'
import { registerPartnerTestAlert } from './partner/routes/test-alert.js'
import { registerPartnerUsage } from './partner/routes/usage.js'
import { registerPartnerUsers } from './partner/routes/users.js'
import type { Services } from './services.js'
import { registerPsaPush } from './sync/routes/push.js'
import { registerVendorCatalogue } from './vendor-api/routes/catalogue.js'
import { registerVendorCredentials } from './vendor-api/routes/credentials.js'
import { registerVendorEvents } from './vendor-api/routes/events.js'
import { registerIntegrationList } from './vendor-api/routes/integration-list.js'
import { registerVendorIntegrations } from './vendor-api/routes/integrations.js'
import { registerOAuthToken } from './vendor-api/routes/oauth-token.js'
import { registerVendorSetup } from './vendor-api/routes/setup.js'
import { registerVendorTestAlert } from './vendor-api/routes/test-alert.js'
import { registerVendorUsage } from './vendor-api/routes/usage.js'
import { registerVendorWebhook } from './vendor-api/routes/webhook.js'
import { registerDeliveries } from './webhooks/routes/deliveries.js'

export const routes: ((app: App, s: Services) => void)[] = [
  registerHealth,
  registerMetrics,
  // Vendor (the Integrator)
  registerAlertSync,
  registerAlertWebhook,
  registerVendorTickets,
  registerOAuthToken,
  registerVendorSetup,
  registerVendorCatalogue,
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
  registerPartnerSandbox,
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
  registerAdminSandbox,
  registerAdminTestAlert,
  // Partner, vendor and operator: webhook deliveries
  registerDeliveries,
]
