// Partner API: billing usage of an integration. The latest count per account and service, each
// saying whether its account and service are mapped, and every vendor account or service that is not
// mapped, so that nothing silently drops out of billing. Plus the history of the counts.
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { partnerId } from '../../http/auth.js'
import { failures, IdParams, Nullable, Page } from '../../http/schemas.js'
import type { Services } from '../../services.js'
import { HistoryFilters, UsageView, usageHistory } from '../../vendor/usage-reads.js'

const UsageRow = Type.Object({
  ...UsageView.properties,
  accountMapped: Type.Boolean(),
  psaCompanyId: Nullable(Type.String()),
  serviceMapped: Type.Boolean(),
  psaProductId: Nullable(Type.String()),
})

const UsageOverview = Type.Object({
  data: Type.Array(UsageRow, { description: 'the latest count per service and account' }),
  unmappedAccounts: Type.Array(
    Type.Object({ vendorAccountId: Type.String(), name: Type.String(), externalId: Type.String() }),
    { description: "the vendor's accounts not mapped to a PSA company" },
  ),
  unmappedServices: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), description: Type.String() }),
    { description: "the vendor's services not mapped to a PSA product" },
  ),
})

export function registerPartnerUsage(app: App, s: Services): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/integrations/:id/usage',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'The latest usage count per account and service, and what is not mapped',
        params: IdParams,
        response: { 200: UsageOverview, ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      const [latest, accounts, services, accountMappings, serviceMappings] = await Promise.all([
        s.store.usage.latest(integration.id),
        s.store.vendorData.listAccounts(integration.id),
        s.store.vendorData.listServices(integration.id),
        s.store.mappings.list(integration.id),
        s.store.serviceMappings.list(integration.id),
      ])
      const company = new Map(accountMappings.map((m) => [m.accountId, m.psaCompanyId]))
      const product = new Map(serviceMappings.map((m) => [m.serviceId, m.psaProductId]))
      return {
        data: latest.map((u) => ({
          ...u,
          accountMapped: company.has(u.accountId),
          psaCompanyId: company.get(u.accountId) ?? null,
          serviceMapped: product.has(u.serviceId),
          psaProductId: product.get(u.serviceId) ?? null,
        })),
        unmappedAccounts: accounts
          .filter((a) => !company.has(a.vendorAccountId))
          .map((a) => ({ vendorAccountId: a.vendorAccountId, name: a.name, externalId: a.externalId })),
        unmappedServices: services
          .filter((v) => !product.has(v.id))
          .map((v) => ({ id: v.id, name: v.name, description: v.description })),
      }
    },
  )

  app.get(
    '/api/partner/integrations/:id/usage/history',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Every usage count of the integration, newest first',
        params: IdParams,
        querystring: Type.Object({
          serviceId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          ...HistoryFilters,
        }),
        response: { 200: Page(UsageView), ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      return usageHistory(s.store, integration.id, request.query)
    },
  )
}
