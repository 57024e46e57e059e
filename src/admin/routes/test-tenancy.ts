// Operator API: POST /api/admin/sandbox, a test tenancy (docs/operations.md#test-tenancies-for-vendors): a new vendor with a
// partner on the sandbox PSA and an integration ready to take alerts, every credential in the answer.
import { randomBytes } from 'node:crypto'
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import { type AuthHooks, actorOf } from '../../tenants/index.js'
import { provisionTestTenancy, TestTenancyCredentials, type TestTenancyDeps } from '../../vendor-api/index.js'

const TestTenancyBody = Type.Object({
  name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: "the vendor's name (default 'Sandbox vendor'); the partner is named after it",
    }),
  ),
  webhookUrl: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^https?://[^\\s]+$',
        maxLength: 2048,
        description: "where the vendor's webhooks go (the same checks as the vendor's own webhookUrl)",
      }),
    ),
  ),
})

export interface AdminTestTenancyRoutesDeps extends TestTenancyDeps {
  auth: Pick<AuthHooks, 'admin'>
}

export function registerAdminTestTenancy(app: App, s: AdminTestTenancyRoutesDeps): void {
  app.post(
    '/api/admin/sandbox',
    {
      onRequest: s.auth.admin,
      schema: {
        tags: ['admin'],
        security: [{ adminToken: [] }],
        summary:
          'Create a sandbox: a vendor, a partner on the sandbox PSA and an integration ready for alerts',
        ...operation({
          id: 'createSandbox',
          body: {
            name: 'Acme Security (trial)',
            webhookUrl: 'https://vendor.example.com/alertbridge/webhook',
          },
        }),
        description:
          'The integration is pending with alerting on: one account (accountId in the answer) is created and mapped, one rule makes tickets for productGroup, the mapping is completed. The answer holds every credential, each shown once.',
        body: TestTenancyBody,
        response: { 201: TestTenancyCredentials, ...failures(400, 401) },
      },
    },
    async (request, reply) => {
      const name = request.body.name ?? 'Sandbox vendor'
      const tenancy = orRefuse(
        await provisionTestTenancy(
          s,
          {
            vendorName: name,
            partnerName: `${name} sandbox MSP`,
            webhookUrl: request.body.webhookUrl ?? null,
            // Portal emails are unique across partners: each test tenancy's admin has one of its own.
            portalEmail: `sandbox-${randomBytes(6).toString('hex')}@sandbox.example`,
          },
          actorOf(request),
        ),
      )
      return reply.code(201).send(tenancy)
    },
  )
}
