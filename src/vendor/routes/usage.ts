// The vendor's GET counterparts of the usage call of spec §4.6: the history of a service's counts and
// the latest count per service and account. Same integration resolution as the POST.
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { vendorIntegration } from '../../http/auth.js'
import { failures, Page, VendorIntegrationId } from '../../http/schemas.js'
import type { Services } from '../../services.js'
import { checkDeclared, HistoryFilters, UsageView, usageHistory } from '../usage-reads.js'

const IntegrationId = Type.Optional(VendorIntegrationId)
const Id = Type.String({ minLength: 1, maxLength: 128 })

export function registerVendorUsage(app: App, s: Services): void {
  const common = { onRequest: s.auth.vendor }
  const meta = { tags: ['vendor'], security: [{ vendorToken: [] }] }

  app.get(
    '/api/vendor-api/service/:serviceId/count',
    {
      ...common,
      schema: {
        ...meta,
        summary: "The history of a service's usage counts, newest first",
        params: Type.Object({ serviceId: Id }),
        querystring: Type.Object({ integrationId: IntegrationId, ...HistoryFilters }),
        response: { 200: Page(UsageView), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { integrationId, ...q } = request.query
      const integration = await vendorIntegration(s.store, request, integrationId)
      return usageHistory(s.store, integration.id, { ...q, serviceId: request.params.serviceId })
    },
  )

  app.get(
    '/api/vendor-api/usage',
    {
      ...common,
      schema: {
        ...meta,
        summary: 'The latest usage count per service and account',
        querystring: Type.Object({
          integrationId: IntegrationId,
          serviceId: Type.Optional(Id),
          accountId: Type.Optional(Id),
        }),
        response: { 200: Type.Object({ data: Type.Array(UsageView) }), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { integrationId, ...filter } = request.query
      const integration = await vendorIntegration(s.store, request, integrationId)
      await checkDeclared(s.store, integration.id, filter)
      return { data: await s.store.usage.latest(integration.id, filter) }
    },
  )
}
