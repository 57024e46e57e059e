// GET /api/vendor-api/integrations (docs/vendor-api.md#self-service): the vendor's integrations with
// what it needs to see at a glance — the partner, the state, alerting on or off, how many accounts the
// partner mapped, when the last alert came, and the organization token's rotation (a partner or the
// operator rotated it: the vendor rolls the new one out before the window ends). A richer sibling of
// GET /api/oem-api/integration/list, without the catalogue and the accounts themselves. A token bound to
// an integration sees that one; an unbound token all of its vendor's.
import Type from 'typebox'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, Nullable, Page } from '../../platform/http/schemas.js'
import type { Integration } from '../../tenants/index.js'
import {
  type AuthHooks,
  isActive,
  RotationView,
  rotationView,
  vendorIntegration,
  vendorPrincipal,
} from '../../tenants/index.js'
import { IntegrationListQuery } from './integration-list.js'

const VendorIntegration = Type.Object({
  integrationId: Type.String(),
  partnerId: Type.String({ description: "the partner's id (vendorUserId in state_snapshot events)" }),
  partnerName: Type.String(),
  test: Type.Boolean({ description: 'a test integration of yours (POST /api/vendor-api/sandbox)' }),
  state: Type.Enum(['created', 'mapping', 'pending', 'connected']),
  isIntegrationActive: Type.Boolean({
    description: 'pending or connected, and the partner not disabled: alerts and usage are accepted',
  }),
  isAlertsEnabled: Type.Boolean({ description: 'the partner has alerts switched on' }),
  partnerDisabled: Type.Boolean({ description: 'the operator disabled the partner: nothing is accepted' }),
  mappedAccounts: Type.Integer({ description: 'accounts the partner mapped to a PSA company' }),
  lastAlertAt: Nullable(
    Type.String({ description: 'when the last alert call was recorded; null: none yet' }),
  ),
  organizationOemTokenRotation: RotationView,
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

export interface VendorIntegrationRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  clock: Clock
}

export function registerVendorIntegrations(app: App, s: VendorIntegrationRoutesDeps): void {
  app.get(
    '/api/vendor-api/integrations',
    {
      onRequest: s.auth.vendor,
      schema: {
        tags: ['vendor'],
        security: [{ vendorToken: [] }],
        summary: 'Your integrations: partner, state, alerting, mapped accounts, last alert, token rotation',
        ...operation({
          id: 'listVendorIntegrations',
          description: `Richer than GET /api/oem-api/integration/list: partner, state, alerting, mapped account count, last alert time and organizationOemToken rotation. ${callers.vendor}`,
        }),
        querystring: IntegrationListQuery,
        response: { 200: Page(VendorIntegration), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const principal = vendorPrincipal(request)
      const { integrationId, limit = 100, cursor } = request.query
      const after = decodeKeyCursor(cursor, 2)
      const { data, nextCursor } =
        principal.integrationId || integrationId
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
      const now = iso(s.clock)
      return { data: await Promise.all(data.map((i) => entry(s, i, now))), nextCursor }
    },
  )
}

async function entry(s: VendorIntegrationRoutesDeps, i: Integration, now: string) {
  const [partner, mappedAccounts, lastAlertAt] = await Promise.all([
    s.store.partners.findById(i.partnerId),
    s.store.mappings.count(i.id),
    s.store.events.lastAlertAt(i.id),
  ])
  const partnerDisabled = partner?.disabled != null
  return {
    integrationId: i.id,
    partnerId: i.partnerId,
    partnerName: partner?.name ?? '',
    test: partner?.sandboxVendorId != null,
    state: i.settings.state,
    isIntegrationActive: isActive(i.settings.state) && !partnerDisabled,
    isAlertsEnabled: i.settings.alertsEnabled,
    partnerDisabled,
    mappedAccounts,
    lastAlertAt,
    organizationOemTokenRotation: rotationView(i.orgToken, now),
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  }
}
