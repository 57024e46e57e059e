// POST /api/oem-alerts-api/alert (and the plural alias) — the webhook strategy
// (docs/contract.md#webhook-answers): the alert is queued durably and answered at once; its outcome reaches
// the vendor as a status_update event.
import { v7 as uuidv7 } from 'uuid'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { type OperationDoc, operation } from '../../platform/http/openapi/operation-doc.js'
import type { AlertAcceptor } from '../intake/accept.js'
import { rateLimitHeaders } from '../intake/rate-limit.js'
import { webhookBody } from '../intake/responses.js'
import { AlertRequest, alertHints, WebhookAnswer, WebhookFailure } from '../intake/schema.js'
import { alertBody, alertCalls, messageId } from '../openapi.js'

export interface AlertWebhookRoutesDeps {
  acceptor: Pick<AlertAcceptor, 'accept'>
}

/** Each spelling's call in the OpenAPI document. */
const operations: Record<string, OperationDoc> = {
  '/api/oem-alerts-api/alert': {
    id: 'sendAlert',
    description: `The webhook strategy: checks the credentials, the rate limit and the integration, previews the decision from what is stored, queues the alert and answers at once. The answer is a preview; the outcome arrives as a signed status_update webhook (docs/webhooks.md), which is final. ${alertCalls}`,
    body: alertBody,
    answers: { '201': { message: 'created', data: { messageId, correlationId: 'edr-4711' } } },
    responses: {
      '201': 'created (preview): the alert is queued; the status_update event says what happened.',
      '200': 'updated, closed, suppressed or failed (preview; failed with `error` and `detail`).',
    },
  },
  '/api/oem-alerts-api/alerts': {
    id: 'sendAlertAlias',
    description: `The same call as POST /api/oem-alerts-api/alert, under the contract's other spelling. ${alertCalls}`,
    body: alertBody,
    answers: { '201': { message: 'created', data: { messageId, correlationId: 'edr-4711' } } },
  },
}

export function registerAlertWebhook(app: App, s: AlertWebhookRoutesDeps): void {
  for (const url of ['/api/oem-alerts-api/alert', '/api/oem-alerts-api/alerts']) {
    app.post(
      url,
      {
        config: { failureShape: 'webhook', validationHints: alertHints },
        schema: {
          tags: ['alerts'],
          summary: url.endsWith('/alerts')
            ? 'Alias of POST /api/oem-alerts-api/alert'
            : 'Queue an alert; the outcome arrives as a status_update webhook',
          ...operation(operations[url]!),
          body: AlertRequest,
          response: {
            200: WebhookAnswer,
            201: WebhookAnswer,
            ...Object.fromEntries([400, 401, 403, 404, 413, 415, 429, 500].map((c) => [c, WebhookFailure])),
          },
        },
      },
      async (request, reply) => {
        const messageId = uuidv7()
        const { answer, rate } = orRefuse(await s.acceptor.accept(request.body, messageId))
        return reply
          .headers(rateLimitHeaders(rate))
          .code(answer.httpStatus)
          .send(webhookBody(answer, messageId, alertHints(request.body)))
      },
    )
  }
}
