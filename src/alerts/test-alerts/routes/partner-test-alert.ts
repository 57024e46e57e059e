// The partner's test alert (docs/partner-api.md#test-alerts): POST /api/partner/integrations/:id/test-alert
// runs a real alert through the rules to the PSA, the ticket's title starting "[TEST] ", tells the vendor
// nothing, and closes the ticket after closeAfterMinutes; .../test-alert/:correlationId/close closes it
// at once. The operator has the same calls under /api/admin (alerts/test-alerts/routes/admin-test-alert.ts).
import type { FastifyRequest } from 'fastify'
import Type from 'typebox'
import type { App } from '../../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../../platform/http/errors.js'
import { callers, type OperationDoc, operation } from '../../../platform/http/openapi/operation-doc.js'
import { failures, IdParams, Nullable } from '../../../platform/http/schemas.js'
import type { Integration } from '../../../tenants/index.js'
import { type AuthHooks, type PartnerIntegrations, partnerId } from '../../../tenants/index.js'
import { CorrelationId } from '../../intake/schema.js'
import type { PartnerTestAlerts, PartnerTestAnswer } from '../partner-test.js'

export const TestAlertBody = Type.Object({
  accountId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: "a mapped account; default: the integration's first mapped account",
    }),
  ),
  closeAfterMinutes: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1440,
      default: 5,
      description: 'minutes until the test ticket closes by itself (fractions allowed); 0 keeps it open',
    }),
  ),
})

export const TestAlertView = Type.Object({
  status: Type.Enum(['created', 'updated', 'closed', 'suppressed', 'failed'], {
    description: 'what the alert did: created a test ticket, or was added to the open one (updated), …',
  }),
  row: Type.String({ description: 'the case of the decision table (docs/decision-table.md) that decided' }),
  detail: Nullable(Type.String()),
  messageId: Type.String({ description: 'its event in GET /api/partner/events (test: true)' }),
  correlationId: Nullable(Type.String()),
  ticket: Nullable(
    Type.Object({
      correlationId: Type.String(),
      title: Type.String({ description: 'starts with "[TEST] "' }),
      status: Type.String({ description: 'open or closed' }),
      psaTicketId: Nullable(Type.String()),
      psaTicketUrl: Nullable(
        Type.String({ description: "the ticket's page in the PSA; null where the PSA has no ticket URLs" }),
      ),
    }),
  ),
  closesAt: Nullable(
    Type.String({ description: 'when the ticket closes by itself; null when it is not scheduled to' }),
  ),
})

export const TestCloseParams = Type.Object({ id: IdParams.properties.id, correlationId: CorrelationId })

/** The answer of a test alert that ran; one that failed (the PSA refused, say) in the failure shape. */
export function testAlertAnswer(a: PartnerTestAnswer) {
  const { outcome } = a
  if (outcome.httpStatus >= 300 && outcome.message === 'failed')
    throw new ApiError(outcome.error ?? 'INTERNAL', outcome.detail ?? 'The test alert failed.', {
      correlationId: outcome.correlationId,
      messageId: a.messageId,
    })
  return {
    status: outcome.message,
    row: outcome.row,
    detail: outcome.detail,
    messageId: a.messageId,
    correlationId: outcome.correlationId,
    ticket: a.ticket,
    closesAt: a.closesAt,
  }
}

/** The two calls in the OpenAPI document, by `base`. */
const operations: Record<string, { send: OperationDoc; close: OperationDoc }> = {
  '/api/partner/integrations': {
    send: {
      id: 'sendPartnerTestAlert',
      description: `A real alert through your rules to your PSA, the ticket's title starting "[TEST] ", answered with its link in the PSA; the vendor gets no webhook for it, and it closes by itself after closeAfterMinutes (default 5; 0 keeps it). 409 saying why when the integration cannot take it. ${callers.partner}`,
      body: { accountId: 'acme-001', closeAfterMinutes: 5 },
    },
    close: {
      id: 'closePartnerTestAlert',
      description: `Closes a test ticket now; 409 for a ticket no test alert opened. ${callers.partner}`,
    },
  },
  '/api/admin/integrations': {
    send: {
      id: 'sendAdminTestAlert',
      description: `The partner's test alert (docs/partner-api.md#test-alerts) on any integration: a "[TEST] " ticket in the partner's PSA, no webhook for the vendor, closed after closeAfterMinutes. ${callers.operator}`,
      body: { accountId: 'acme-001', closeAfterMinutes: 5 },
    },
    close: {
      id: 'closeAdminTestAlert',
      description: `Closes a test ticket now; 409 for a ticket no test alert opened. ${callers.operator}`,
    },
  },
}

/** The two calls under `base`, each finding its integration with `integration`. */
export function registerTestAlertCalls(
  app: App,
  o: {
    base: string
    onRequest: AuthHooks['partner']
    meta: { tags: string[]; security: Record<string, string[]>[] }
    tests: PartnerTestAlerts
    integration: (request: FastifyRequest, id: string) => Promise<Integration>
  },
): void {
  app.post(
    `${o.base}/:id/test-alert`,
    {
      onRequest: o.onRequest,
      schema: {
        ...o.meta,
        summary:
          'Send a test alert through the rules to the PSA; the vendor gets no webhook for it. PARTNER_TEST_ALERTS_PER_MINUTE a minute per integration, then 429 with Retry-After',
        ...operation(operations[o.base]!.send),
        params: IdParams,
        body: TestAlertBody,
        response: { 201: TestAlertView, 200: TestAlertView, ...failures(400, 401, 403, 404, 409, 429, 502) },
      },
    },
    async (request, reply) => {
      const integration = await o.integration(request, request.params.id)
      const answer = orRefuse(await o.tests.send(integration, request.body))
      const view = testAlertAnswer(answer)
      return reply.code(view.status === 'created' ? 201 : 200).send(view)
    },
  )

  app.post(
    `${o.base}/:id/test-alert/:correlationId/close`,
    {
      onRequest: o.onRequest,
      schema: {
        ...o.meta,
        summary: 'Close a test ticket now (409 for a ticket no test alert opened)',
        ...operation(operations[o.base]!.close),
        params: TestCloseParams,
        response: { 200: TestAlertView, ...failures(400, 401, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const integration = await o.integration(request, request.params.id)
      return testAlertAnswer(orRefuse(await o.tests.close(integration, request.params.correlationId)))
    },
  )
}

export interface PartnerTestAlertRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  partnerTests: PartnerTestAlerts
  partnerIntegrations: Pick<PartnerIntegrations, 'integration'>
}

export function registerPartnerTestAlert(app: App, s: PartnerTestAlertRoutesDeps): void {
  registerTestAlertCalls(app, {
    base: '/api/partner/integrations',
    onRequest: s.auth.partner,
    meta: { tags: ['partner'], security: [{ partnerKey: [] }] },
    tests: s.partnerTests,
    integration: async (request, id) =>
      orRefuse(await s.partnerIntegrations.integration(partnerId(request), id)),
  })
}
