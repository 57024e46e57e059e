// GET /api/oem-api/integration/list (docs/vendor-api.md, "The integration list"): what a vendor checks
// before sending alerts. A token bound to an integration sees that one; an unbound token sees all of
// its vendor's. The fields are those of the state_snapshot event (docs/contract.md, "Webhook events"),
// plus the state and the mapped accounts' PSA companies.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, KeyCursor, Page } from '../../platform/http/schemas.js'
import type { Integration, ProductGroupSource, Vendor } from '../../tenants/index.js'
import { type AuthHooks, isActive, vendorIntegration, vendorPrincipal } from '../../tenants/index.js'
import { at, integrationId } from '../openapi.js'

/** `?integrationId`, `limit`, `cursor`: the query of both lists of a vendor's integrations. */
export const IntegrationListQuery = Type.Object({
  integrationId: Type.Optional(
    Type.String({ maxLength: 64, description: 'only this integration (an unbound token sees all)' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'integrations per page' }),
  ),
  cursor: Type.Optional(KeyCursor),
})

const IntegrationEntry = Type.Object({
  integrationId: Type.String(),
  vendorUserId: Type.String({ description: "the partner's id, as in state_snapshot events" }),
  partnerName: Type.String(),
  state: Type.Enum(['created', 'mapping', 'pending', 'connected']),
  isIntegrationActive: Type.Boolean({
    description: 'pending or connected, and the partner not disabled: alerts and usage are accepted',
  }),
  isAlertsEnabled: Type.Boolean({ description: 'the partner has alerts switched on' }),
  productGroups: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'product group → alert types this partner may use',
  }),
  accounts: Type.Array(
    Type.Object({
      vendorAccountId: Type.String(),
      name: Type.Union([Type.String(), Type.Null()], {
        description: 'null: mapped but not created by the vendor',
      }),
      psaCompanyId: Type.String(),
    }),
    { description: 'the accounts the partner mapped to a PSA company' },
  ),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

export interface IntegrationListRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  productGroups: Pick<ProductGroupSource, 'effective' | 'peek'>
}

export function registerIntegrationList(app: App, s: IntegrationListRoutesDeps): void {
  app.get(
    '/api/oem-api/integration/list',
    {
      onRequest: s.auth.vendor,
      schema: {
        tags: ['vendor'],
        summary: "The vendor's integrations: state, alerting, product groups and mapped accounts",
        ...operation({
          id: 'listIntegrations',
          description: `Every integration of yours (or the bound one) with what an alert needs: state, alerting, product groups, mapped accounts. ${callers.vendor}`,
          answers: {
            '200': {
              data: [
                {
                  integrationId,
                  vendorUserId: '01943b2b-77aa-7c00-9e00-112233445566',
                  partnerName: 'Best MSP',
                  state: 'pending',
                  isIntegrationActive: true,
                  isAlertsEnabled: true,
                  productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'] },
                  accounts: [{ vendorAccountId: 'acme-001', name: 'Acme Corp', psaCompanyId: '100' }],
                  createdAt: at,
                  updatedAt: at,
                },
              ],
              nextCursor: null,
            },
          },
        }),
        security: [{ vendorToken: [] }],
        querystring: IntegrationListQuery,
        response: { 200: Page(IntegrationEntry), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const principal = vendorPrincipal(request)
      const { integrationId, limit = 100, cursor } = request.query
      const after = decodeKeyCursor(cursor, 2)
      const one = principal.integrationId ?? integrationId
      // An unbound token's list pages, in the order the integrations were created.
      const { data: integrations, nextCursor } = one
        ? {
            data: [
              orRefuse(
                await vendorIntegration(s.store, principal, integrationId, { readDisabledPartner: true }),
              ),
            ],
            nextCursor: null,
          }
        : pageByKey(
            await s.store.integrations.list({ vendorId: principal.vendorId }, { after, limit: limit + 1 }),
            limit,
            (i) => [i.createdAt, i.id],
          )
      const vendor = await s.store.vendors.findById(principal.vendorId)
      if (!vendor) throw new ApiError('INVALID_CREDENTIALS', 'The vendor of this token no longer exists.')
      // One integration may wait for the vendor's catalogue (its budget); a whole list reads the cache
      // only, so a vendor with many partners is not called once per partner at once.
      const wait = integrations.length === 1
      return { data: await Promise.all(integrations.map((i) => entry(s, vendor, i, wait))), nextCursor }
    },
  )
}

async function entry(s: IntegrationListRoutesDeps, vendor: Vendor, integration: Integration, wait: boolean) {
  const [partner, mappings, catalogue] = await Promise.all([
    s.store.partners.findById(integration.partnerId),
    // The mapped accounts only, with their names: never every account the vendor declared.
    s.store.mappings.listWithNames(integration.id),
    // The list alerts are checked against: the vendor's dynamic one for this partner, or the static one.
    wait ? s.productGroups.effective(vendor, integration) : s.productGroups.peek(vendor, integration),
  ])
  return {
    integrationId: integration.id,
    vendorUserId: integration.partnerId,
    partnerName: partner?.name ?? '',
    state: integration.settings.state,
    isIntegrationActive: isActive(integration.settings.state) && partner?.disabled == null,
    isAlertsEnabled: integration.settings.alertsEnabled,
    productGroups: catalogue.groups ?? {},
    accounts: mappings.map((m) => ({
      vendorAccountId: m.accountId,
      name: m.name,
      psaCompanyId: m.psaCompanyId,
    })),
    createdAt: integration.createdAt,
    updatedAt: integration.updatedAt,
  }
}
