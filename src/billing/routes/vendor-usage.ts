// The vendor's GET counterparts of the usage call (docs/vendor-api.md, "Billing usage"): the history of
// a service's counts and the latest count per service and account. Same integration resolution as the
// POST.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, KeyCursor, LongLimit, Page, VendorIntegrationId } from '../../platform/http/schemas.js'
import { type AuthHooks, vendorIntegration, vendorPrincipal } from '../../tenants/index.js'
import { checkDeclared, HistoryFilters, UsageView, usageHistory } from '../usage-reads.js'

const IntegrationId = Type.Optional(VendorIntegrationId)
const Id = Type.String({ minLength: 1, maxLength: 128 })

export interface VendorUsageRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
}

export function registerVendorUsage(app: App, s: VendorUsageRoutesDeps): void {
  const common = { onRequest: s.auth.vendor }
  const meta = { tags: ['vendor'], security: [{ vendorToken: [] }] }

  app.get(
    '/api/vendor-api/service/:serviceId/count',
    {
      ...common,
      schema: {
        ...meta,
        summary: "The history of a service's usage counts, newest first",
        ...operation({
          id: 'listUsageCounts',
          description: `Every count sent for a service, newest first, paged. ${callers.vendor}`,
        }),
        params: Type.Object({ serviceId: Id }),
        querystring: Type.Object({ integrationId: IntegrationId, ...HistoryFilters }),
        response: { 200: Page(UsageView), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { integrationId, ...q } = request.query
      const integration = orRefuse(await vendorIntegration(s.store, vendorPrincipal(request), integrationId))
      return orRefuse(
        await usageHistory(s.store, integration.id, { ...q, serviceId: request.params.serviceId }),
      )
    },
  )

  app.get(
    '/api/vendor-api/usage',
    {
      ...common,
      schema: {
        ...meta,
        summary: 'The latest usage count per service and account, 500 a page unless `limit` says otherwise',
        ...operation({
          id: 'listLatestUsage',
          description: `The latest count per service and account of the integration, paged. ${callers.vendor}`,
        }),
        querystring: Type.Object({
          integrationId: IntegrationId,
          serviceId: Type.Optional(Id),
          accountId: Type.Optional(Id),
          limit: Type.Optional(LongLimit),
          cursor: Type.Optional(KeyCursor),
        }),
        response: { 200: Page(UsageView), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { integrationId, limit = 500, cursor, ...filter } = request.query
      const after = decodeKeyCursor(cursor, 2)
      const integration = orRefuse(await vendorIntegration(s.store, vendorPrincipal(request), integrationId))
      orRefuse(await checkDeclared(s.store, integration.id, filter))
      const rows = await s.store.usage.latest(integration.id, filter, {
        after,
        limit: limit + 1,
      })
      return pageByKey(rows, limit, (u) => [u.serviceId, u.accountId])
    },
  )
}
