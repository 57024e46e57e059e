// Every route of the service, in one explicit list: grep finds them all here.
import {
  registerAdminAudit,
  registerAdminIntegrations,
  registerAdminPartners,
  registerAdminPartnerUsers,
  registerAdminRotations,
  registerAdminTenantStatus,
  registerAdminTestTenancy,
  registerAdminTokens,
  registerAdminVendors,
} from '../admin/index.js'
import {
  registerAdminTestAlert,
  registerAlertWebhook,
  registerCatchAll,
  registerMaintenanceWindows,
  registerPartnerDryRun,
  registerPartnerRules,
  registerPartnerRuleTemplates,
  registerPartnerTestAlert,
  registerSynchronousAlerts,
  registerVendorTestAlert,
  registerVendorTickets,
} from '../alerts/index.js'
import { registerPartnerUsage, registerVendorUsage } from '../billing/index.js'
import { registerHealth, registerMetrics } from '../ops/index.js'
import {
  registerPartnerAccounts,
  registerPartnerActivity,
  registerPartnerApiKey,
  registerPartnerDashboard,
  registerPartnerIntegrations,
  registerPartnerOrgToken,
  registerPartnerPsa,
  registerPartnerSandboxPsa,
  registerPartnerServices,
  registerPartnerSession,
  registerPartnerUsers,
} from '../partner-api/index.js'
import type { App } from '../platform/http/app-types.js'
import { registerPartnerPsaSync, registerPsaPush } from '../psa-sync/index.js'
import {
  registerIntegrationList,
  registerOAuthToken,
  registerVendorCredentials,
  registerVendorIntegrations,
  registerVendorProductGroups,
  registerVendorSetup,
} from '../vendor-api/index.js'
import { registerDeliveries, registerVendorEvents, registerVendorWebhook } from '../webhooks/index.js'
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
