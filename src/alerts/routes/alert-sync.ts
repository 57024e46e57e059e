// POST /api/oem-alerts-api/alert/sync — the synchronous strategy (docs/contract.md#sync-answers): the
// whole decision table runs on the request (synchronous.ts) and its outcome is the HTTP answer.
import { v7 as uuidv7 } from 'uuid'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { operation } from '../../platform/http/openapi/operation-doc.js'
import { sendSynchronousAnswer, synchronousResponses } from '../intake/responses.js'
import { AlertRequest, alertHints } from '../intake/schema.js'
import type { SynchronousAlerts } from '../intake/synchronous.js'
import { alertBody, alertCalls, messageId } from '../openapi.js'

export interface SynchronousAlertRoutesDeps {
  synchronousAlerts: Pick<SynchronousAlerts, 'handle'>
}

export function registerSynchronousAlerts(app: App, s: SynchronousAlertRoutesDeps): void {
  app.post(
    '/api/oem-alerts-api/alert/sync',
    {
      config: { failureShape: 'sync', validationHints: alertHints },
      schema: {
        tags: ['alerts'],
        summary: 'Create, append to or resolve a ticket, answering with the outcome',
        ...operation({
          id: 'sendAlertSync',
          description: `The synchronous strategy: the whole decision table runs on the request, the PSA included, and the answer is the outcome — final, not a preview. OPEN creates a ticket (201 created) or appends to the open one (200 updated/suppressed under de-duplication, whose correlationID may differ from the one sent); UPDATE appends; RESOLVED closes (200 "closed"). Keep the answer's correlationID for the UPDATE and RESOLVED of the same ticket. ${alertCalls}`,
          body: alertBody,
          answers: {
            '201': { statusCode: 201, message: 'created', data: { messageId, correlationID: 'edr-4711' } },
            '200': { statusCode: '200', message: 'closed', data: { messageId, correlationID: 'edr-4711' } },
          },
          responses: {
            '201': 'created: a ticket was opened in the PSA.',
            '200':
              'updated, suppressed or closed: what happened to the existing ticket (statusCode is the string "200" for closed).',
            '502':
              'The PSA failed or timed out; with Retry-After when the PSA asked to wait: send the same alert again then. Error code: PSA_ERROR.',
          },
        }),
        body: AlertRequest,
        response: synchronousResponses,
      },
    },
    async (request, reply) => {
      const messageId = uuidv7()
      const { outcome, rate } = orRefuse(await s.synchronousAlerts.handle(request.body, messageId))
      // Fields sent where the contract does not read them: named, the call still answered (misplaced.ts).
      return sendSynchronousAnswer(reply, outcome, rate, messageId, request.id, alertHints(request.body))
    },
  )
}
