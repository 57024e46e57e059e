// The vendor's setup and usage calls of spec §4.6, with the bearer token of POST /api/oauth/token.
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { vendorIntegration } from '../../http/auth.js'
import { failures } from '../../http/schemas.js'
import type { Services } from '../../services.js'

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 128, description })
const Text = (description: string) => Type.String({ maxLength: 1024, description })

const IntegrationQuery = Type.Object({
  integrationId: Type.Optional(
    Type.String({ maxLength: 64, description: 'needed only with an unbound token' }),
  ),
})

const AccountBody = Type.Object({
  vendorAccountId: Id("the vendor's unique account identifier"),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  externalId: Type.Optional(Text('external reference')),
})
const AccountView = Type.Object({
  vendorAccountId: Type.String(),
  name: Type.String(),
  externalId: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

const ServiceBody = Type.Object({
  id: Id('identifies the product or service'),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Text('description')),
})
const ServiceView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

const StatusBody = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 64, description: 'the integrationId' })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
})
const StatusView = Type.Object({ integrationId: Type.String(), state: Type.String() })

const CountBody = Type.Object({
  unitCount: Type.Number({ minimum: 0, maximum: 1e12, description: 'units used' }),
  accountId: Id('vendorAccountId of the account'),
})
const CountView = Type.Object({
  id: Type.String(),
  serviceId: Type.String(),
  accountId: Type.String(),
  unitCount: Type.Number(),
  createdAt: Type.String(),
  integrationState: Type.String(),
})

export function registerVendorSetup(app: App, s: Services): void {
  const common = { onRequest: s.auth.vendor }
  const security = [{ vendorToken: [] }]

  app.post(
    '/api/vendor-api/organization/accounts',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Create (or update) an account; idempotent per vendorAccountId',
        security,
        querystring: IntegrationQuery,
        body: AccountBody,
        response: { 200: AccountView, 201: AccountView, ...failures(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const integration = await vendorIntegration(s.store, request, request.query.integrationId)
      const b = request.body
      const { account, created } = await s.store.vendorData.upsertAccount(
        integration.id,
        { vendorAccountId: b.vendorAccountId, name: b.name, externalId: b.externalId ?? '' },
        s.clock().toISOString(),
      )
      return reply.code(created ? 201 : 200).send(account)
    },
  )

  app.post(
    '/api/vendor-api/organization/services',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Create (or update) a service; idempotent per id',
        security,
        querystring: IntegrationQuery,
        body: ServiceBody,
        response: { 200: ServiceView, 201: ServiceView, ...failures(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const integration = await vendorIntegration(s.store, request, request.query.integrationId)
      const b = request.body
      const { service, created } = await s.store.vendorData.upsertService(
        integration.id,
        { id: b.id, name: b.name, description: b.description ?? '' },
        s.clock().toISOString(),
      )
      return reply.code(created ? 201 : 200).send(service)
    },
  )

  app.patch(
    '/api/vendor-api/status/mapping',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Set the integration status to mapping',
        security,
        body: StatusBody,
        response: { 200: StatusView, ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const integration = await vendorIntegration(s.store, request, request.body.id)
      return { integrationId: integration.id, state: await s.vendorSetup.startMapping(integration) }
    },
  )

  app.post(
    '/api/vendor-api/service/:serviceId/count',
    {
      ...common,
      schema: {
        tags: ['vendor'],
        summary: 'Send a usage count for a service and account',
        security,
        params: Type.Object({ serviceId: Id('the service') }),
        querystring: IntegrationQuery,
        body: CountBody,
        response: { 201: CountView, ...failures(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const integration = await vendorIntegration(s.store, request, request.query.integrationId)
      const { usage, state } = await s.vendorSetup.recordUsage(
        integration,
        request.params.serviceId,
        request.body,
      )
      return reply.code(201).send({ ...usage, integrationState: state })
    },
  )
}
