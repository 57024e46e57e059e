// The delivery routes' schemas (routes/deliveries.ts): a delivery with its attempt log as the vendor and
// the operator see it, and as the partner sees it (no URL, no answer body: docs/webhooks.md#attempt-log);
// the list's query and the replay's body and answer.
import Type from 'typebox'
import { Cursor, Instant, Limit, Nullable } from '../../platform/http/schemas.js'
import { deliveryStatuses } from '../delivery.js'

const Attempt = Type.Object({
  number: Type.Integer(),
  trigger: Type.Enum(['scheduled', 'manual']),
  url: Type.String(),
  startedAt: Type.String(),
  durationMs: Type.Integer(),
  statusCode: Nullable(Type.Integer({ description: 'null when no HTTP answer came' })),
  error: Nullable(
    Type.String({ description: 'timeout, dns, conn, tls, blocked, invalid_url, or why a status failed' }),
  ),
  responseBody: Nullable(Type.String({ description: 'the first 20 KiB of the answer' })),
  nextAttemptAt: Nullable(Type.String()),
})

/** What the partner sees of an attempt: no URL, no answer body, an error only as its kind. */
const PartnerAttempt = Type.Object({
  number: Attempt.properties.number,
  trigger: Attempt.properties.trigger,
  startedAt: Attempt.properties.startedAt,
  durationMs: Attempt.properties.durationMs,
  statusCode: Attempt.properties.statusCode,
  error: Nullable(
    Type.String({
      description: "why a status failed, or the kind of failure without the vendor's address",
    }),
  ),
  nextAttemptAt: Attempt.properties.nextAttemptAt,
})

const deliveryFields = {
  id: Type.String({ description: 'the webhook-id header, the same on every attempt and replay' }),
  eventType: Type.Enum(['status_update', 'state_snapshot']),
  status: Type.Enum(deliveryStatuses),
  vendorId: Type.String(),
  integrationId: Nullable(Type.String()),
  messageId: Nullable(Type.String({ description: 'the alert this status_update reports' })),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String()),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
  deadAt: Nullable(Type.String()),
  payload: Type.Unknown({ description: 'the event body as sent' }),
}
export const DeliveryView = Type.Object({ ...deliveryFields, attemptLog: Type.Array(Attempt) })
export const PartnerDeliveryView = Type.Object({
  ...deliveryFields,
  lastError: PartnerAttempt.properties.error,
  attemptLog: Type.Array(PartnerAttempt),
})

export const ListQuery = Type.Object({
  status: Type.Optional(Type.Enum(deliveryStatuses)),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Limit),
})
export const ReplayDead = Type.Object({
  since: Instant('replay every delivery that died at or after this time'),
})
export const Replayed = Type.Object({ replayed: Type.Integer() })
