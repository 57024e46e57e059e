// POST /api/oem-alerts-api/alert/sync — the synchronous strategy (docs/contract.md#sync-answers): the
// whole decision table runs on the request (synchronous.ts) and its outcome is the HTTP answer.
import { v7 as uuidv7 } from 'uuid'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { sendSyncAnswer, syncResponses } from '../intake/responses.js'
import { AlertRequest } from '../intake/schema.js'
import type { SynchronousAlerts } from '../intake/synchronous.js'

export interface AlertSyncRoutesDeps {
  syncAlerts: Pick<SynchronousAlerts, 'handle'>
}

export function registerAlertSync(app: App, s: AlertSyncRoutesDeps): void {
  app.post(
    '/api/oem-alerts-api/alert/sync',
    {
      config: { failureShape: 'sync' },
      schema: {
        tags: ['alerts'],
        summary: 'Create, append to or resolve a ticket, answering with the outcome',
        body: AlertRequest,
        response: syncResponses,
      },
    },
    async (request, reply) => {
      const messageId = uuidv7()
      const { outcome, rate } = orRefuse(await s.syncAlerts.handle(request.body, messageId))
      return sendSyncAnswer(reply, outcome, rate, messageId, request.id)
    },
  )
}
