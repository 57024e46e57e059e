// Partner API: the vendor's services of an integration and their mapping to PSA products (billing).
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { partnerId } from '../../http/auth.js'
import { failures, IdParams, Nullable } from '../../http/schemas.js'
import type { Services } from '../../services.js'

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

export function registerPartnerServices(app: App, s: Services): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  app.get(
    '/api/partner/integrations/:id/services',
    {
      ...base,
      schema: {
        ...meta,
        summary: "The vendor's services with their mapping to a PSA product (null: not mapped)",
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(ServiceRow) }), ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = await s.partnerSetup.integration(partnerId(request), request.params.id)
      const [services, mappings] = await Promise.all([
        s.store.vendorData.listServices(integration.id),
        s.store.serviceMappings.list(integration.id),
      ])
      const byService = new Map(mappings.map((m) => [m.serviceId, m]))
      return {
        data: services.map((v) => {
          const m = byService.get(v.id)
          return {
            id: v.id,
            name: v.name,
            description: v.description,
            mapping: m ? { psaProductId: m.psaProductId } : null,
          }
        }),
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
