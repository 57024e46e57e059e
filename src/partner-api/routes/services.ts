// Partner API: the vendor's services of an integration and their mapping to PSA products (billing).
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Nullable, Page } from '../../platform/http/schemas.js'
import { type AuthHooks, partnerId } from '../../tenants/index.js'
import type { PartnerSetup } from '../setup.js'

const ServiceRow = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  mapping: Nullable(Type.Object({ psaProductId: Type.String() })),
})

const ServiceParams = Type.Object({
  id: IdParams.properties.id,
  serviceId: Type.String({ minLength: 1, maxLength: 128 }),
})

const LineParams = Type.Object({
  ...ServiceParams.properties,
  accountId: Type.String({ minLength: 1, maxLength: 128 }),
})

const LineMapping = Type.Object({
  serviceId: Type.String(),
  accountId: Type.String(),
  psaLineId: Type.String({ description: 'a billing line id from GET /api/partner/psa/agreements' }),
})

export interface PartnerServiceRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  store: Store
  partnerSetup: Pick<
    PartnerSetup,
    'integration' | 'putServiceLine' | 'deleteServiceLine' | 'putServiceMapping' | 'deleteServiceMapping'
  >
}

export function registerPartnerServices(app: App, s: PartnerServiceRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/integrations/:id/services',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          "The vendor's services with their mapping to a PSA product (null: not mapped), by id, 500 a page",
        ...operation({ id: 'listPartnerServices', description: `Paged with \`cursor\`. ${callers.partner}` }),
        params: IdParams,
        querystring: Type.Object({
          mapped: Type.Optional(
            Type.Boolean({ description: 'true: only mapped services; false: only unmapped' }),
          ),
          limit: Type.Optional(LongLimit),
          cursor: Type.Optional(KeyCursor),
        }),
        response: { 200: Page(ServiceRow), ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const { mapped, limit = 500, cursor } = request.query
      const after = decodeKeyCursor(cursor, 1)?.[0]
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      const rows = await s.store.vendorData.listServicesWithMappings(integration.id, {
        after,
        limit: limit + 1,
        mapped,
      })
      const { data, nextCursor } = pageByKey(rows, limit, (r) => [r.service.id])
      return {
        data: data.map(({ service: v, mapping }) => ({
          id: v.id,
          name: v.name,
          description: v.description,
          mapping,
        })),
        nextCursor,
      }
    },
  )

  app.put(
    '/api/partner/integrations/:id/services/:serviceId',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          "Map a service to a PSA product for every account: each account's usage counts set the quantity of that product's billing line on its company's agreements",
        ...operation({
          id: 'mapService',
          description: `Usage counts then update the PSA's billing lines. ${callers.partner}`,
          body: { psaProductId: 'EDR-SEAT' },
        }),
        params: ServiceParams,
        body: Type.Object({ psaProductId: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: {
          200: Type.Object({ serviceId: Type.String(), psaProductId: Type.String() }),
          ...failures(400, 401, 404),
        },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      return orRefuse(
        await s.partnerSetup.putServiceMapping(integration, {
          serviceId: request.params.serviceId,
          psaProductId: request.body.psaProductId,
        }),
      )
    },
  )

  app.delete(
    '/api/partner/integrations/:id/services/:serviceId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Remove the mapping of a service',
        ...operation({
          id: 'unmapService',
          description: `Counts stop reaching the PSA. ${callers.partner}`,
        }),
        params: ServiceParams,
        response: { 204: Type.Null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      orRefuse(await s.partnerSetup.deleteServiceMapping(integration, request.params.serviceId))
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/api/partner/integrations/:id/services/:serviceId/accounts',
    {
      ...base,
      schema: {
        ...meta,
        summary: "The service's billing lines named per account (they take precedence over its product)",
        ...operation({
          id: 'listServiceAccountLines',
          description: `The per-account exceptions to the service's product mapping. ${callers.partner}`,
        }),
        params: ServiceParams,
        response: { 200: Type.Object({ data: Type.Array(LineMapping) }), ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      return { data: await s.store.usagePushes.linesOf(integration.id, [request.params.serviceId]) }
    },
  )

  app.put(
    '/api/partner/integrations/:id/services/:serviceId/accounts/:accountId',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          "Map a service, for one account, to a billing line of the PSA: the account's usage counts set that line's quantity",
        ...operation({
          id: 'mapServiceAccountLine',
          description: `Takes precedence over the service's product for this account. ${callers.partner}`,
          body: { psaLineId: '7741' },
        }),
        params: LineParams,
        body: Type.Object({ psaLineId: LineMapping.properties.psaLineId }),
        response: { 200: LineMapping, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      return orRefuse(
        await s.partnerSetup.putServiceLine(integration, {
          serviceId: request.params.serviceId,
          accountId: request.params.accountId,
          psaLineId: request.body.psaLineId,
        }),
      )
    },
  )

  app.delete(
    '/api/partner/integrations/:id/services/:serviceId/accounts/:accountId',
    {
      ...base,
      schema: {
        ...meta,
        summary: "Remove a service's billing line for one account (its product mapping applies again)",
        ...operation({
          id: 'unmapServiceAccountLine',
          description: `The service's product mapping applies to the account again. ${callers.partner}`,
        }),
        params: LineParams,
        response: { 204: Type.Null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      const integration = orRefuse(await s.partnerSetup.integration(partnerId(request), request.params.id))
      const { serviceId, accountId } = request.params
      orRefuse(await s.partnerSetup.deleteServiceLine(integration, serviceId, accountId))
      return reply.code(204).send(null)
    },
  )
}
