// POST /api/oem-alerts-api/alert/sync — the synchronous strategy (docs/contract.md#sync-answers): the
// whole decision table runs on the request (synchronous.ts) and its outcome is the HTTP answer.
import { v7 as uuidv7 } from 'uuid'
import type { App } from '../../http/app-types.js'
import { orRefuse } from '../../http/errors.js'
import { rateLimitHeaders } from '../rate-limit.js'
import { syncBody, syncStatus } from '../responses.js'
import { AlertRequest, SyncFailure, SyncSuccess } from '../schema.js'
import type { AlertRoutesDeps } from './deps.js'

export function registerAlertSync(app: App, s: AlertRoutesDeps): void {
  app.post(
    '/api/oem-alerts-api/alert/sync',
    {
      config: { failureShape: 'sync' },
      schema: {
        tags: ['alerts'],
        summary: 'Create, append to or resolve a ticket, answering with the outcome',
        body: AlertRequest,
        response: {
          200: SyncSuccess,
          201: SyncSuccess,
          400: SyncFailure,
          401: SyncFailure,
          403: SyncFailure,
          404: SyncFailure,
          409: SyncFailure,
          413: SyncFailure,
          415: SyncFailure,
          429: SyncFailure,
          500: SyncFailure,
          502: SyncFailure,
        },
      },
    },
    async (request, reply) => {
      const messageId = uuidv7()
      const { outcome, rate } = orRefuse(await s.syncAlerts.handle(request.body, messageId))
      // The PSA asked to wait longer than this request could: when to send the alert again.
      if (outcome.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(outcome.retryAfterSeconds))
      return reply
        .headers(rateLimitHeaders(rate))
        .code(syncStatus(outcome.httpStatus))
        .send(syncBody(outcome, messageId, request.id))
    },
  )
}
