// Partner API: the vendor's services of an integration and their mapping to PSA products (billing).
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { partnerId } from '../../http/auth.js'
import { decodeKeyCursor, pageByKey } from '../../http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Nullable, Page } from '../../http/schemas.js'
import type { PartnerRoutesDeps } from './deps.js'

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

export function registerPartnerServices(app: App, s: PartnerRoutesDeps): void {
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
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
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
        summary: 'Map a service to a PSA product',
        params: ServiceParams,
        body: Type.Object({ psaProductId: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: {
          200: Type.Object({ serviceId: Type.String(), psaProductId: Type.String() }),
          ...failures(400, 401, 404),
        },
      },
    },
    async (request) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      return s.partnerSetup.putServiceMapping(integration, {
        serviceId: request.params.serviceId,
        psaProductId: request.body.psaProductId,
      })
    },
  )

  app.delete(
    '/api/partner/integrations/:id/services/:serviceId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Remove the mapping of a service',
        params: ServiceParams,
        response: { 204: Type.Null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      await s.partnerSetup.deleteServiceMapping(integration, request.params.serviceId)
      return reply.code(204).send(null)
    },
  )
}
