// Webhook deliveries with every attempt, and replay (docs/webhooks.md): the partner sees the events of
// its integrations, the operator every vendor's. The partner sees status, timing and HTTP codes but
// neither the vendor's webhook URL nor its endpoint's answers (docs/webhooks.md#attempt-log); the
// operator sees all.
import Type, { type TSchema } from 'typebox'
import { deliveryStatuses } from '../../domain/delivery.js'
import type { Actor } from '../../domain/operator-audit.js'
import type { App } from '../../http/app-types.js'
import { actorOf, partnerId } from '../../http/auth.js'
import { orRefuse } from '../../http/errors.js'
import { Cursor, failures, IdParams, Instant, Limit, Nullable, Page } from '../../http/schemas.js'
import {
  DeliveryReads,
  type DeliveryScope,
  type DeliveryViewOf,
  deliveryView,
  partnerDeliveryView,
} from '../deliveries.js'
import type { DeliveryRoutesDeps } from './deps.js'

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
const DeliveryView = Type.Object({ ...deliveryFields, attemptLog: Type.Array(Attempt) })
const PartnerDeliveryView = Type.Object({
  ...deliveryFields,
  lastError: PartnerAttempt.properties.error,
  attemptLog: Type.Array(PartnerAttempt),
})

const ListQuery = Type.Object({
  status: Type.Optional(Type.Enum(deliveryStatuses)),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Limit),
})
const ReplayDead = Type.Object({
  since: Instant('replay every delivery that died at or after this time'),
})
const Replayed = Type.Object({ replayed: Type.Integer() })

interface Audience<V> {
  prefix: string
  onRequest: DeliveryRoutesDeps['auth']['partner']
  meta: { tags: string[]; security: Record<string, never[]>[] }
  scope: (request: Parameters<typeof partnerId>[0]) => DeliveryScope
  vendorFilter: boolean
  /** Who the operator audit log names for a replay; a partner's replays are its own business. */
  actor: (request: Parameters<typeof actorOf>[0]) => Actor | undefined
  view: DeliveryViewOf<V>
  schema: TSchema
}

export function registerDeliveries(app: App, s: DeliveryRoutesDeps): void {
  const partner: Audience<ReturnType<typeof partnerDeliveryView>> = {
    prefix: '/api/partner',
    onRequest: s.auth.partner,
    meta: { tags: ['partner'], security: [{ partnerKey: [] }] },
    scope: (request) => ({ partnerId: partnerId(request) }),
    vendorFilter: false,
    actor: () => undefined,
    view: partnerDeliveryView,
    schema: PartnerDeliveryView,
  }
  const admin: Audience<ReturnType<typeof deliveryView>> = {
    prefix: '/api/admin',
    onRequest: s.auth.admin,
    meta: { tags: ['admin'], security: [{ adminToken: [] }] },
    scope: () => ({}),
    vendorFilter: true,
    actor: (request) => actorOf(request),
    view: deliveryView,
    schema: DeliveryView,
  }
  register(app, s, partner)
  register(app, s, admin)
}

function register<V>(app: App, s: DeliveryRoutesDeps, a: Audience<V>): void {
  const reads = new DeliveryReads(s.store, s.deliveryJobs, s.clock, a.view)
  const VendorFilter = Type.Object({ vendorId: Type.Optional(Type.String({ maxLength: 64 })) })
  app.get(
    `${a.prefix}/deliveries`,
    {
      onRequest: a.onRequest,
      schema: {
        ...a.meta,
        summary: 'Webhook deliveries, newest first, each with its attempts',
        querystring: a.vendorFilter
          ? Type.Object({ ...ListQuery.properties, ...VendorFilter.properties })
          : ListQuery,
        response: { 200: Page(a.schema), ...failures(400, 401) },
      },
    },
    async (request) => {
      const q = request.query as {
        status?: (typeof deliveryStatuses)[number]
        cursor?: string
        limit?: number
        vendorId?: string
      }
      const scope = { ...a.scope(request), ...(q.vendorId ? { vendorId: q.vendorId } : {}) }
      return orRefuse(await reads.list(scope, { status: q.status, cursor: q.cursor, limit: q.limit ?? 50 }))
    },
  )
  app.get(
    `${a.prefix}/deliveries/:id`,
    {
      onRequest: a.onRequest,
      schema: {
        ...a.meta,
        summary: 'One webhook delivery with its attempts',
        params: IdParams,
        response: { 200: a.schema, ...failures(401, 404) },
      },
    },
    async (request) => orRefuse(await reads.get(a.scope(request), request.params.id)),
  )
  app.post(
    `${a.prefix}/deliveries/:id/replay`,
    {
      onRequest: a.onRequest,
      schema: {
        ...a.meta,
        summary: 'Send a dead delivery again (same webhook-id, one attempt)',
        params: IdParams,
        response: { 202: a.schema, ...failures(401, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(orRefuse(await reads.replayOne(a.scope(request), request.params.id, a.actor(request)))),
  )
  app.post(
    `${a.prefix}/deliveries/replay`,
    {
      onRequest: a.onRequest,
      schema: {
        ...a.meta,
        summary: 'Send every delivery that died since a time again',
        body: a.vendorFilter
          ? Type.Object({ ...ReplayDead.properties, ...VendorFilter.properties })
          : ReplayDead,
        response: { 202: Replayed, ...failures(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const body = request.body as { since: string; vendorId?: string }
      const scope = { ...a.scope(request), ...(body.vendorId ? { vendorId: body.vendorId } : {}) }
      return reply
        .code(202)
        .send(orRefuse(await reads.replayDead(scope, new Date(body.since).toISOString(), a.actor(request))))
    },
  )
}
