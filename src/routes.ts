// Every route of the service, in one explicit list: grep finds them all here.
import { registerAdminIntegrations } from './admin/routes/integrations.js'
import { registerAdminPartners } from './admin/routes/partners.js'
import { registerAdminTokens } from './admin/routes/tokens.js'
import { registerAdminVendors } from './admin/routes/vendors.js'
import { registerAlertSync } from './alerts/routes/alert-sync.js'
import { registerAlertWebhook } from './alerts/routes/alert-webhook.js'
import { registerVendorTickets } from './alerts/routes/tickets.js'
import type { App } from './http/app-types.js'
import { registerHealth } from './ops/health.js'
import { registerMetrics } from './ops/metrics.js'
import { registerPartnerAccounts } from './partner/routes/accounts.js'
import { registerPartnerActivity } from './partner/routes/activity.js'
import { registerPartnerIntegrations } from './partner/routes/integrations.js'
import { registerPartnerPsa } from './partner/routes/psa.js'
import { registerPartnerRules } from './partner/routes/rules.js'
import { registerPartnerServices } from './partner/routes/services.js'
import { registerPartnerUsage } from './partner/routes/usage.js'
import type { Services } from './services.js'
import { registerVendorCatalogue } from './vendor/routes/catalogue.js'
import { registerIntegrationList } from './vendor/routes/integration-list.js'
import { registerOAuthToken } from './vendor/routes/oauth-token.js'
import { registerVendorSetup } from './vendor/routes/setup.js'
import { registerVendorUsage } from './vendor/routes/usage.js'
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
  // Partner (the MSP)
  registerPartnerIntegrations,
  registerPartnerAccounts,
  registerPartnerServices,
  registerPartnerUsage,
  registerPartnerRules,
  registerPartnerActivity,
  registerPartnerPsa,
  // Operator
  registerAdminVendors,
  registerAdminPartners,
  registerAdminIntegrations,
  registerAdminTokens,
  // Both: webhook deliveries
  registerDeliveries,
]
