// Operator API for integrations (DESIGN §7).
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { notFound } from '../../http/errors.js'
import { failures, IdParams } from '../../http/schemas.js'
import { IntegrationView, integrationView } from '../../partner/views.js'
import type { Services } from '../../services.js'

const CreatedIntegration = Type.Object({
  ...IntegrationView.properties,
  organizationOemToken: Type.String({ description: 'shown once; the vendor sends it with every alert' }),
})

export function registerAdminIntegrations(app: App, s: Services): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }

  app.post(
    '/api/admin/integrations',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Create the integration of a vendor and a partner',
        body: Type.Object({
          vendorId: Type.String({ minLength: 1, maxLength: 64 }),
          partnerId: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        response: { 201: CreatedIntegration, ...failures(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { integration, organizationOemToken } = await s.provisioning.createIntegration(request.body)
      return reply.code(201).send({ ...integrationView(integration), organizationOemToken })
    },
  )

  app.get(
    '/api/admin/integrations',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'List integrations',
        querystring: Type.Object({
          vendorId: Type.Optional(Type.String({ maxLength: 64 })),
          partnerId: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 200: Type.Object({ data: Type.Array(IntegrationView) }), ...failures(401) },
      },
    },
    async (request) => ({ data: (await s.store.integrations.list(request.query)).map(integrationView) }),
  )

  app.get(
    '/api/admin/integrations/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'An integration',
        params: IdParams,
        response: { 200: IntegrationView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = await s.store.integrations.findById(request.params.id)
      if (!integration) throw notFound(`Integration '${request.params.id}'`)
      return integrationView(integration)
    },
  )

  app.patch(
    '/api/admin/integrations/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Turn alerting on or off for an integration',
        params: IdParams,
        body: Type.Object({ alertsEnabled: Type.Optional(Type.Boolean()) }),
        response: { 200: IntegrationView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = await s.store.integrations.findById(request.params.id)
      if (!integration) throw notFound(`Integration '${request.params.id}'`)
      return integrationView(await s.partnerSetup.updateSettings(integration, request.body))
    },
  )
}
