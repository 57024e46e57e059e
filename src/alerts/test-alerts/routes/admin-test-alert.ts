// The operator's test alert (docs/operations.md#test-alerts): the partner's calls
// (docs/partner-api.md#test-alerts) on any integration, with the admin token.

import type { Store } from '../../../platform/db/store.js'
import type { App } from '../../../platform/http/app-types.js'
import { notFound } from '../../../platform/http/errors.js'
import type { AuthHooks } from '../../../tenants/index.js'
import type { PartnerTestAlerts } from '../partner-test.js'
import { registerTestAlertCalls } from './partner-test-alert.js'

export interface AdminTestAlertRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  store: Store
  partnerTests: PartnerTestAlerts
}

export function registerAdminTestAlert(app: App, s: AdminTestAlertRoutesDeps): void {
  registerTestAlertCalls(app, {
    base: '/api/admin/integrations',
    onRequest: s.auth.admin,
    meta: { tags: ['admin'], security: [{ adminToken: [] }] },
    tests: s.partnerTests,
    integration: async (_request, id) => {
      const integration = await s.store.integrations.findById(id)
      if (!integration) throw notFound(`Integration '${id}'`)
      return integration
    },
  })
}
