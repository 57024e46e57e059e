// POST /api/vendor-api/test-alert (docs/vendor-api.md#test-tenancies-and-test-alerts): a real alert through the
// whole path, marked as a test everywhere (alerts/test-alerts/test-alert.ts), answered as
// POST /api/oem-alerts-api/alert/sync answers it.
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import { incidentStatuses } from '../../../platform/core/types.js'
import type { Store } from '../../../platform/db/store.js'
import type { App } from '../../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../../platform/http/errors.js'
import { operation } from '../../../platform/http/openapi/operation-doc.js'
import { VendorIntegrationId } from '../../../platform/http/schemas.js'
import type { Integration } from '../../../tenants/index.js'
import {
  type AuthHooks,
  type VendorCaller,
  vendorIntegration,
  vendorPrincipal,
} from '../../../tenants/index.js'
import { sendSynchronousAnswer, synchronousResponses } from '../../intake/responses.js'
import { CorrelationId } from '../../intake/schema.js'
import { messageId } from '../../openapi.js'
import { type TestAlertInput, TestAlerts } from '../test-alert.js'

const TestAlertBody = Type.Object({
  integrationId: Type.Optional(VendorIntegrationId),
  accountId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: "a mapped account; default: the integration's first mapped account",
    }),
  ),
  incidentStatus: Type.Optional(
    Type.Enum(incidentStatuses, {
      description: 'default OPEN; UPDATE and RESOLVED name a test ticket by its correlationId',
    }),
  ),
  correlationId: Type.Optional(CorrelationId),
  title: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '\\S',
      description: "the ticket's title after the prefix [TEST] (default 'Test alert from alertbridge')",
    }),
  ),
  summary: Type.Optional(Type.String({ maxLength: 10_000 })),
})

export type VendorTestAlertRoutesDeps = {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
} & ConstructorParameters<typeof TestAlerts>[0]

/** The integration a test alert goes to: the token's, the one named, or the vendor's only one. */
async function targetIntegration(
  s: VendorTestAlertRoutesDeps,
  caller: VendorCaller,
  integrationId: string | undefined,
): Promise<Integration> {
  if (!caller.integrationId && integrationId === undefined) {
    const all = await s.store.integrations.list({ vendorId: caller.vendorId }, { limit: 2 })
    if (all.length === 1) integrationId = all[0]!.id
  }
  return orRefuse(await vendorIntegration(s.store, caller, integrationId))
}

export function registerVendorTestAlert(app: App, s: VendorTestAlertRoutesDeps): void {
  const tests = new TestAlerts(s)
  app.post(
    '/api/vendor-api/test-alert',
    {
      onRequest: s.auth.vendor,
      config: { failureShape: 'sync' },
      schema: {
        tags: ['vendor'],
        summary: 'Send a test alert through the whole path: rules, PSA, audit log and webhook',
        ...operation({
          id: 'sendTestAlert',
          body: { incidentStatus: 'OPEN', title: 'Checking the integration' },
          answers: {
            '201': { statusCode: 201, message: 'created', data: { messageId, correlationID: 'test-4711' } },
          },
        }),
        description:
          'A real alert marked as a test everywhere: the ticket’s title starts with "[TEST] ", its event in the audit log has test: true, and its status_update webhook carries test: true. The answer is what POST /api/oem-alerts-api/alert/sync answers for the alert. An integration that cannot take alerts is refused with 409 saying why.',
        security: [{ vendorToken: [] }],
        body: TestAlertBody,
        response: synchronousResponses,
      },
    },
    async (request, reply) => {
      const messageId = uuidv7()
      const caller = vendorPrincipal(request)
      const { integrationId, ...input } = request.body
      const integration = await targetIntegration(s, caller, integrationId)
      const vendor = await s.store.vendors.findById(caller.vendorId)
      if (!vendor) throw new ApiError('UNAUTHENTICATED', 'The vendor of this token no longer exists.')
      const { outcome, rate } = orRefuse(
        await tests.send(vendor, integration, input satisfies TestAlertInput, messageId),
      )
      return sendSynchronousAnswer(reply, outcome, rate, messageId, request.id)
    },
  )
}
