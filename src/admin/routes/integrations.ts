// Operator API for integrations (docs/operations.md, "The admin API").
import Type from 'typebox'
import type { PartnerSetup } from '../../partner-api/index.js'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { notFound, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, pageByKey } from '../../platform/http/pagination.js'
import { failures, IdParams, KeyCursor, LongLimit, Page } from '../../platform/http/schemas.js'
import type { Integration, Provisioning } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  IntegrationView,
  integrationView,
  RotationView,
  rotationView,
} from '../../tenants/index.js'

/** The operator also sees the organization token's rotation. */
const AdminIntegrationView = Type.Object({
  ...IntegrationView.properties,
  organizationOemTokenRotation: RotationView,
})

const adminView = (i: Integration, now: string) => ({
  ...integrationView(i),
  organizationOemTokenRotation: rotationView(i.orgToken, now),
})

const CreatedIntegration = Type.Object({
  ...AdminIntegrationView.properties,
  organizationOemToken: Type.String({ description: 'shown once; the vendor sends it with every alert' }),
})

export interface AdminIntegrationRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  store: Store
  clock: Clock
  provisioning: Pick<Provisioning, 'createIntegration'>
  partnerSetup: Pick<PartnerSetup, 'updateSettings'>
}

export function registerAdminIntegrations(app: App, s: AdminIntegrationRoutesDeps): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }

  app.post(
    '/api/admin/integrations',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Create the integration of a vendor and a partner',
        ...operation({
          id: 'createIntegration',
          description: `Answers the integrationId and the organizationOemToken (once): both go to the vendor, which puts them in every alert. ${callers.operatorChange}`,
          body: {
            vendorId: '01943b2a-1111-7000-8000-aaaaaaaaaaaa',
            partnerId: '01943b2b-77aa-7c00-9e00-112233445566',
          },
        }),
        body: Type.Object({
          vendorId: Type.String({ minLength: 1, maxLength: 64 }),
          partnerId: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        response: { 201: CreatedIntegration, ...failures(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { integration, organizationOemToken } = orRefuse(
        await s.provisioning.createIntegration(request.body, actorOf(request)),
      )
      return reply.code(201).send({ ...adminView(integration, iso(s.clock)), organizationOemToken })
    },
  )

  app.get(
    '/api/admin/integrations',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'List integrations, in the order they were created, 500 a page unless `limit` says otherwise',
        ...operation({
          id: 'listAdminIntegrations',
          description: `Paged with \`cursor\`. ${callers.operator}`,
        }),
        querystring: Type.Object({
          vendorId: Type.Optional(Type.String({ maxLength: 64 })),
          partnerId: Type.Optional(Type.String({ maxLength: 64 })),
          limit: Type.Optional(LongLimit),
          cursor: Type.Optional(KeyCursor),
        }),
        response: { 200: Page(AdminIntegrationView), ...failures(400, 401) },
      },
    },
    async (request) => {
      const { limit = 500, cursor, ...filter } = request.query
      const rows = await s.store.integrations.list(filter, {
        after: decodeKeyCursor(cursor, 2),
        limit: limit + 1,
      })
      const { data, nextCursor } = pageByKey(rows, limit, (i) => [i.createdAt, i.id])
      const now = iso(s.clock)
      return { data: data.map((i) => adminView(i, now)), nextCursor }
    },
  )

  app.get(
    '/api/admin/integrations/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'An integration',
        ...operation({ id: 'getAdminIntegration', description: callers.operator }),
        params: IdParams,
        response: { 200: AdminIntegrationView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = await s.store.integrations.findById(request.params.id)
      if (!integration) throw notFound(`Integration '${request.params.id}'`)
      return adminView(integration, iso(s.clock))
    },
  )

  app.patch(
    '/api/admin/integrations/:id',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Turn alerting on or off for an integration',
        ...operation({
          id: 'updateAdminIntegration',
          description: callers.operatorChange,
          body: { alertsEnabled: false },
        }),
        params: IdParams,
        body: Type.Object({ alertsEnabled: Type.Optional(Type.Boolean()) }),
        response: { 200: AdminIntegrationView, ...failures(400, 401, 404) },
      },
    },
    async (request) => {
      const integration = await s.store.integrations.findById(request.params.id)
      if (!integration) throw notFound(`Integration '${request.params.id}'`)
      return adminView(
        orRefuse(await s.partnerSetup.updateSettings(integration, request.body, actorOf(request))),
        iso(s.clock),
      )
    },
  )
}
