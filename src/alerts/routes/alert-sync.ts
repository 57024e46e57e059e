// POST /api/oem-alerts-api/alert/sync — the synchronous strategy (spec §4.1): the whole decision
// table runs on the request and its outcome is the HTTP answer.
import type { Static } from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { App } from '../../http/app-types.js'
import { alertFacts, redactedRequest } from '../intake.js'
import { rateLimitHeaders } from '../rate-limit.js'
import { syncBody } from '../responses.js'
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
          ...Object.fromEntries(
            [400, 401, 403, 404, 409, 413, 415, 429, 500, 502].map((c) => [c, SyncFailure]),
          ),
        },
      },
    },
    async (request, reply) => {
      const messageId = uuidv7()
      const facts = alertFacts(request.body, messageId)
      const { vendor, integration, rate } = await s.intake.admit(
        request.body,
        messageId,
        facts.correlationId ?? null,
      )
      const outcome = await s.syncAlerts.run({
        messageId,
        vendorId: vendor.id,
        partnerId: integration.partnerId,
        integrationId: integration.id,
        facts,
        request: redactedRequest(request.body),
      })
      // The PSA asked to wait longer than this request could: when to send the alert again.
      if (outcome.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(outcome.retryAfterSeconds))
      // The status varies with the outcome (DESIGN §3); the response schemas above cover every one.
      const status = outcome.httpStatus as 201
      return reply
        .headers(rateLimitHeaders(rate))
        .code(status)
        .send(syncBody(outcome, messageId, request.id) as Static<typeof SyncSuccess>)
    },
  )
}
