// GET /api/vendor-api/events (docs/vendor-api.md#self-service): the vendor's webhook events by
// long-poll, for a CLI that forwards them to a local endpoint (`alertbridge-vendor listen`). Each event
// comes with Standard Webhooks headers the service signed just now with the vendor's current signing
// secret(s), so that they are forwarded verbatim and verify as a delivery would. Every call marks the
// vendor listening for a minute: meanwhile a vendor without a webhook URL still gets its events
// recorded (webhooks/outbox.ts), dead and replayable once a URL is set.
//
// The cursor is the last delivery id returned (ids grow with time); without one the call starts from
// now. The wait polls the database every half second: cheap (one indexed read) and the same in every
// process, whichever wrote the event. Waits end when the client goes away or the service closes.
import Type from 'typebox'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError } from '../../platform/http/errors.js'
import { operation } from '../../platform/http/openapi/operation-doc.js'
import { decodeKeyCursor, encodeKeyCursor } from '../../platform/http/pagination.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import { type AuthHooks, previousLive, vendorPrincipal } from '../../tenants/index.js'
import { type Delivery, deliveryStatuses } from '../delivery.js'
import { signatures } from '../sender.js'

/** How long one call marks the vendor listening. */
export const listeningMs = 60_000
const pollMs = 500

const Event = Type.Object({
  deliveryId: Type.String({ description: 'the webhook-id' }),
  eventType: Type.Enum(['status_update', 'state_snapshot']),
  integrationId: Nullable(Type.String()),
  status: Type.Enum(deliveryStatuses, {
    description: 'its delivery to your webhook URL (dead without one: recorded for a listener)',
  }),
  createdAt: Type.String(),
  headers: Type.Object(
    {
      'webhook-id': Type.String(),
      'webhook-timestamp': Type.String(),
      'webhook-signature': Type.String(),
    },
    { description: 'Standard Webhooks headers signed now: forward them with body, unchanged' },
  ),
  body: Type.String({ description: 'the event body, exactly the bytes that were signed' }),
})

const Query = Type.Object({
  after: Type.Optional(
    Type.String({
      maxLength: 4096,
      description: 'nextCursor of the previous call; without it, only events from now on',
    }),
  ),
  waitSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 25,
      default: 0,
      description: 'wait up to this long for an event when none is newer than `after`',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
})

export interface VendorEventRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  clock: Clock
}

export function registerVendorEvents(app: App, s: VendorEventRoutesDeps): void {
  // Waits in progress, ended when the service closes (a closing service does not wait 25 s for them).
  const waits = new Set<AbortController>()
  app.addHook('preClose', async () => {
    for (const w of waits) w.abort()
  })

  app.get(
    '/api/vendor-api/events',
    {
      onRequest: s.auth.vendor,
      schema: {
        tags: ['vendor'],
        security: [{ vendorToken: [] }],
        summary: 'Your webhook events by long-poll, each with signed Standard Webhooks headers',
        ...operation({ id: 'pollEvents' }),
        description:
          "Answers at once when events newer than `after` exist, else waits up to `waitSeconds` for one. Marks you listening for 60 s: meanwhile your events are recorded even without a webhook URL. A token bound to an integration gets that integration's events.",
        querystring: Query,
        response: {
          200: Type.Object({
            data: Type.Array(Event),
            nextCursor: Type.String({ description: 'pass it as `after` in the next call' }),
          }),
          ...failures(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const principal = vendorPrincipal(request)
      const { after, waitSeconds = 0, limit = 50 } = request.query
      const cursor = decodeKeyCursor(after, 1)
      const started = s.clock()
      await s.store.vendors.listenUntil(
        principal.vendorId,
        new Date(started.getTime() + listeningMs).toISOString(),
      )
      const scope = { vendorId: principal.vendorId, integrationId: principal.integrationId }
      // Without a cursor: from the newest event now ('' is before every id).
      const afterId = cursor
        ? cursor[0]
        : ((await s.store.deliveryFeed.newestId(scope.vendorId, scope.integrationId)) ?? '')

      const wait = new AbortController()
      waits.add(wait)
      const gone = () => wait.abort()
      reply.raw.on('close', gone)
      let rows: Delivery[]
      try {
        const deadline = Date.now() + waitSeconds * 1000
        for (;;) {
          rows = await s.store.deliveryFeed.newerThan({ ...scope, afterId }, limit)
          if (rows.length > 0 || Date.now() >= deadline || wait.signal.aborted) break
          await sleep(Math.min(pollMs, deadline - Date.now()), wait.signal)
        }
      } finally {
        waits.delete(wait)
        reply.raw.off('close', gone)
      }
      const data = rows.length > 0 ? await signed(s, principal.vendorId, rows) : []
      return { data, nextCursor: encodeKeyCursor([rows.at(-1)?.id ?? afterId]) }
    },
  )
}

/** The events with headers signed now, by the vendor's current secret and a replaced one still live. */
async function signed(s: VendorEventRoutesDeps, vendorId: string, rows: Delivery[]) {
  const { secret, previousSecret } = await s.store.vendors.webhookEndpoint(vendorId)
  if (!secret) {
    throw new ApiError(
      'CONFLICT',
      'You have no webhook signing secret; rotate it (POST /api/vendor-api/credentials/webhook-secret/rotate) first.',
    )
  }
  const at = s.clock()
  const secrets =
    previousSecret && previousLive(previousSecret.expiresAt, at.toISOString())
      ? [secret, previousSecret.secret]
      : [secret]
  return rows.map((d) => ({
    deliveryId: d.id,
    eventType: d.eventType,
    integrationId: d.integrationId,
    status: d.status,
    createdAt: d.createdAt,
    headers: {
      'webhook-id': d.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatures(secrets, d.id, at, d.body),
    },
    body: d.body,
  }))
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms))
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
