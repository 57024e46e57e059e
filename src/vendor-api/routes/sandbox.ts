// Self-serve test mode (docs/vendor-api.md#self-serve-test-mode): POST /api/vendor-api/sandbox makes a
// test integration of the vendor's own (a test partner on the sandbox PSA, one account mapped, one rule)
// and answers its credentials once; GET lists them; DELETE …/{integrationId} removes one with everything
// it made. The partner's steps in it are sandbox-steps.ts.
import Type from 'typebox'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures } from '../../platform/http/schemas.js'
import { type AuthHooks, actorOf, type Integration, vendorPrincipal } from '../../tenants/index.js'
import {
  createSandbox,
  findSandbox,
  maxSandboxesPerVendor,
  removeSandbox,
  type SandboxDeps,
  sandboxAccount,
} from '../sandbox/sandboxes.js'

const CreateBody = Type.Object({
  name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: "the test partner's name (default '<vendor> test partner')",
    }),
  ),
  productGroup: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'what the test rule makes tickets for (default: the first group of your stored catalogue)',
    }),
  ),
})

const testMark = {
  test: Type.Literal(true, { description: 'a test integration: its partner is on the sandbox PSA for good' }),
}

export const SandboxView = Type.Object({
  ...testMark,
  integrationId: Type.String(),
  partnerId: Type.String(),
  partnerName: Type.String(),
  state: Type.String({ description: 'pending once made: ready for alerts' }),
  mappedAccounts: Type.Integer(),
  createdAt: Type.String(),
})

const SandboxCredentials = Type.Object({
  ...SandboxView.properties,
  organizationOemToken: Type.String({ description: 'shown once; marked as a test credential by test: true' }),
  partnerApiKey: Type.String({ description: "the test partner's API key, shown once" }),
  accountId: Type.String({ description: 'the account created and mapped to sandbox company 100' }),
  productGroup: Type.String(),
  ruleId: Type.String({ description: 'the rule that makes tickets for productGroup' }),
})

const IntegrationParams = Type.Object({ integrationId: Type.String({ minLength: 1, maxLength: 64 }) })

export interface VendorSandboxRoutesDeps extends SandboxDeps {
  auth: Pick<AuthHooks, 'vendor'>
}

export function registerVendorSandbox(app: App, s: VendorSandboxRoutesDeps): void {
  const base = { onRequest: s.auth.vendor }
  const meta = { tags: ['vendor'], security: [{ vendorToken: [] }] }

  app.post(
    '/api/vendor-api/sandbox',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Create a test integration: a test partner on the sandbox PSA, an account mapped, a rule',
        ...operation({
          id: 'createVendorSandbox',
          description: `The integration is pending with alerting on, ready for alerts; the answer holds its organizationOemToken and the test partner's API key, each shown once. At most ${maxSandboxesPerVendor} at once (409 beyond). ${callers.vendor}`,
          body: { name: 'Acme test MSP', productGroup: 'Endpoint Security' },
        }),
        body: CreateBody,
        response: { 201: SandboxCredentials, ...failures(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { vendorId } = vendorPrincipal(request)
      const made = orRefuse(await createSandbox(s, vendorId, request.body, actorOf(request)))
      return reply.code(201).send({
        test: true as const,
        integrationId: made.integration.id,
        partnerId: made.partner.id,
        partnerName: made.partner.name,
        state: made.integration.settings.state,
        mappedAccounts: 1,
        createdAt: made.integration.createdAt,
        organizationOemToken: made.organizationOemToken,
        partnerApiKey: made.partnerApiKey,
        accountId: sandboxAccount.vendorAccountId,
        productGroup: made.productGroup,
        ruleId: made.ruleId,
      })
    },
  )

  app.get(
    '/api/vendor-api/sandbox',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Your test integrations, oldest first',
        ...operation({
          id: 'listVendorSandboxes',
          description: `Every test integration you hold (at most ${maxSandboxesPerVendor}), without credentials. ${callers.vendor}`,
        }),
        response: { 200: Type.Object({ data: Type.Array(SandboxView) }), ...failures(401, 403) },
      },
    },
    async (request) => {
      const { vendorId } = vendorPrincipal(request)
      const partners = await s.store.partners.sandboxesOf(vendorId, maxSandboxesPerVendor)
      const data = []
      for (const partner of partners) {
        const [integration] = await s.store.integrations.list({ vendorId, partnerId: partner.id })
        if (integration) data.push(await view(s.store, integration, partner))
      }
      return { data }
    },
  )

  app.delete(
    '/api/vendor-api/sandbox/:integrationId',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Delete a test integration with its test partner and everything they made',
        ...operation({
          id: 'deleteVendorSandbox',
          description: `Its tickets, events and mappings go too; only a test integration (404 for any other). ${callers.vendor}`,
        }),
        params: IntegrationParams,
        response: { 204: Type.Null(), ...failures(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const caller = vendorPrincipal(request)
      const { partner } = orRefuse(await findSandbox(s.store, caller, request.params.integrationId))
      orRefuse(await removeSandbox(s, caller.vendorId, partner.id, actorOf(request)))
      return reply.code(204).send(null)
    },
  )
}

async function view(store: Store, integration: Integration, partner: { id: string; name: string }) {
  return {
    test: true as const,
    integrationId: integration.id,
    partnerId: partner.id,
    partnerName: partner.name,
    state: integration.settings.state,
    mappedAccounts: await store.mappings.count(integration.id),
    createdAt: integration.createdAt,
  }
}
