// Partner API: the accounts the catch-all account took in, or whose alerts were refused as unmapped
// (docs/partner-api.md#catch-all-account).
import Type from 'typebox'
import type { Store } from '../../../../platform/db/store.js'
import type { App } from '../../../../platform/http/app-types.js'
import { orRefuse } from '../../../../platform/http/errors.js'
import { callers, operation } from '../../../../platform/http/openapi/operation-doc.js'
import { failures, IdParams, Nullable } from '../../../../platform/http/schemas.js'
import { type AuthHooks, type PartnerIntegrations, partnerId } from '../../../../tenants/index.js'

const UnmappedAccountView = Type.Object({
  accountId: Type.String(),
  name: Nullable(Type.String({ description: "the vendor's name for it; null: never declared" })),
  declared: Type.Boolean({
    description: 'whether the vendor declared it (only declared accounts can be mapped)',
  }),
  alertCount: Type.Integer({
    description:
      'its OPEN alerts refused as unmapped, and the alerts (occurrences) its catch-all tickets took in',
  }),
  openCatchAllTickets: Type.Integer(),
  lastSeenAt: Type.String(),
})

export interface CatchAllRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  partnerIntegrations: Pick<PartnerIntegrations, 'integration'>
}

export function registerCatchAll(app: App, s: CatchAllRoutesDeps): void {
  app.get(
    '/api/partner/integrations/:id/unmapped-accounts',
    {
      onRequest: s.auth.partner,
      schema: {
        tags: ['partner'],
        security: [{ partnerKey: [] }],
        summary:
          'The accounts seen unmapped that still are, with their alert counts, most alerts first (mapping one: PUT …/accounts/{accountId})',
        ...operation({
          id: 'listUnmappedAccounts',
          description: `The accounts whose OPEN alerts were refused as unmapped or taken in by the catch-all account, with their counts. ${callers.partner}`,
        }),
        params: IdParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
        }),
        response: { 200: Type.Object({ data: Type.Array(UnmappedAccountView) }), ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(
        await s.partnerIntegrations.integration(partnerId(request), request.params.id),
      )
      const rows = await s.store.catchAll.unmappedAccounts(integration.id, request.query.limit ?? 100)
      return { data: rows.map((r) => ({ ...r, declared: r.name !== null })) }
    },
  )
}
