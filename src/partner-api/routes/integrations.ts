// Partner API: its integrations, their toggles, completing the mapping (docs/partner-api.md).
import Type from 'typebox'
import { dedupFields } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { HeaderName, HeaderValue, headerNameText } from '../../platform/http/header-fields.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Nullable, Page } from '../../platform/http/schemas.js'
import {
  type AuthHooks,
  ClosedTicketsView,
  EffectiveProductGroupsView,
  effectiveView,
  IntegrationView,
  integrationView,
  partnerId,
  StormView,
} from '../../tenants/index.js'
import type { PartnerSetup } from '../setup.js'

const PatchIntegration = Type.Object({
  alertsEnabled: Type.Optional(Type.Boolean()),
  ticketCreation: Type.Optional(Type.Boolean()),
  selfHealing: Type.Optional(Type.Boolean()),
  deduplication: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      keyFields: Type.Optional(Type.Array(Type.Enum(dedupFields), { minItems: 1, uniqueItems: true })),
      windowMinutes: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 525600 }))),
    }),
  ),
  closedTickets: Type.Optional(Type.Partial(ClosedTicketsView)),
  catchAll: Type.Optional(
    Type.Object(
      {
        enabled: Type.Optional(Type.Boolean()),
        psaCompanyId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 128 }))),
        board: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 128 }))),
      },
      { additionalProperties: false },
    ),
  ),
  storm: Type.Optional(Type.Partial(StormView, { additionalProperties: false })),
  vendorCredentials: Type.Optional(
    Nullable(
      Type.Object(
        {
          header: Type.Optional({ ...HeaderName, description: `${headerNameText}; default authorization` }),
          value: HeaderValue,
        },
        { additionalProperties: false },
      ),
    ),
  ),
})

export interface PartnerIntegrationRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  partnerSetup: Pick<PartnerSetup, 'integration' | 'catalogue' | 'completeMapping' | 'updateSettings'>
}

export function registerPartnerIntegrations(app: App, s: PartnerIntegrationRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/integrations',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'Your integrations, in the order they were created, 500 a page unless `limit` says otherwise',
        ...operation({
          id: 'listPartnerIntegrations',
          description: `Paged with \`cursor\`. ${callers.partner}`,
        }),
        querystring: Type.Object({ limit: Type.Optional(LongLimit), cursor: Type.Optional(KeyCursor) }),
        response: { 200: Page(IntegrationView), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { limit = 500, cursor } = request.query
      const rows = await s.store.integrations.list(
        { partnerId: partnerId(request) },
        { after: decodeKeyCursor(cursor, 2), limit: limit + 1 },
      )
      const { data, nextCursor } = pageByKey(rows, limit, (i) => [i.createdAt, i.id])
      return { data: data.map(integrationView), nextCursor }
    },
  )

  app.get(
    '/api/partner/integrations/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'One integration',
        ...operation({
          id: 'getPartnerIntegration',
          description: `Its state, toggles, de-duplication and closed-ticket policy. ${callers.partner}`,
        }),
        params: IdParams,
        response: { 200: IntegrationView, ...failures(401, 404) },
      },
    },
    async (request) =>
      integrationView(orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))),
  )

  app.patch(
    '/api/partner/integrations/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          "Change toggles (alertsEnabled, ticketCreation, selfHealing, deduplication, closedTickets, catchAll, storm) and the credentials for the vendor's product-groups endpoint",
        ...operation({
          id: 'updatePartnerIntegration',
          description: `Only the fields sent change. alertsEnabled false refuses the vendor's alerts (409 ALERTING_DISABLED). ${callers.partner}`,
          body: { alertsEnabled: true, deduplication: { enabled: true, windowMinutes: 60 } },
        }),
        params: IdParams,
        body: PatchIntegration,
        response: { 200: IntegrationView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      return integrationView(orRefuse(await s.partnerSetup.updateSettings(integration, request.body)))
    },
  )

  app.get(
    '/api/partner/integrations/:id/product-groups',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'The product groups and alert types you may use, and where the list came from',
        ...operation({
          id: 'getPartnerProductGroups',
          description: `The vendor's catalogue as it applies to this integration (static, dynamic or a fallback), for writing rules. ${callers.partner}`,
        }),
        params: IdParams,
        response: { 200: EffectiveProductGroupsView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      return effectiveView(integration.id, orRefuse(await s.partnerSetup.catalogue(integration)))
    },
  )

  app.post(
    '/api/partner/integrations/:id/complete-mapping',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Finish the mapping wizard (mapping → pending); needs at least one mapped account',
        ...operation({
          id: 'completeMapping',
          description: `The last setup step: from now on the vendor's alerts become tickets (needs a mapped account; a rule decides which alerts). ${callers.partner}`,
        }),
        params: IdParams,
        response: { 200: IntegrationView, ...failures(401, 404, 409) },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      return integrationView(orRefuse(await s.partnerSetup.completeMapping(integration)))
    },
  )
}
