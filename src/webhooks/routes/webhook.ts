// The vendor's own webhook endpoint (docs/vendor-api.md#self-service): read and set its URL and auth
// header, and send itself a test event. Setting goes through the operator's change of a vendor
// (tenants/provisioning.ts), so the URL is checked the same way, the audit log records it (the actor
// being the vendor's token) and other processes hear of it. Writing the URL, even the same one, makes a
// paused or disabled endpoint active again, as the operator's `webhookEnabled: true` does
// (docs/decisions/vendor-api/self-service.md).
import Type from 'typebox'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { emptyBodyAsObject } from '../../platform/http/optional-body.js'
import { failures, Nullable } from '../../platform/http/schemas.js'
import type { ProductGroupSource, Vendor } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  OutboundUrl,
  type Provisioning,
  RotationView,
  rotationExample,
  rotationView,
  vendorIntegration,
  vendorPrincipal,
  WebhookAuthHeader,
  webhookAuthHeaderProblem,
} from '../../tenants/index.js'
import { deliveryStatuses } from '../delivery.js'
import type { DeliveryJobs } from '../delivery-job.js'
import { WebhookOutbox } from '../outbox.js'
import { defaultTestEvent, testEvent, testEventNames } from '../test-event.js'

const WebhookView = Type.Object({
  url: Nullable(Type.String({ description: 'where your events are posted; null: none' })),
  hasAuthHeader: Type.Boolean({ description: 'an auth header is added to every attempt (never shown)' }),
  state: Type.Enum(['active', 'paused', 'disabled'], {
    description: 'disabled after a 410 answer; paused after 5 days of failures or by the operator',
  }),
  stateReason: Nullable(Type.String()),
  failingSince: Nullable(Type.String({ description: 'first failure of the current failing run' })),
  secretRotation: RotationView,
  listeningUntil: Nullable(
    Type.String({ description: 'until when a long-poll of GET /api/vendor-api/events counts as listening' }),
  ),
})

const PutWebhook = Type.Object(
  {
    url: Nullable(OutboundUrl),
    authHeader: Type.Optional(Nullable(WebhookAuthHeader)),
  },
  { additionalProperties: false },
)

const TestBody = Type.Object(
  {
    event: Type.Optional(
      Type.Enum([...testEventNames], { description: `the event to sample; default '${defaultTestEvent}'` }),
    ),
    integrationId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'the integration the sample names' }),
    ),
  },
  { additionalProperties: false },
)

const TestSent = Type.Object({
  deliveryId: Type.String({
    description: 'its webhook-id; read it with GET /api/vendor-api/deliveries/{id}',
  }),
  status: Type.Enum(deliveryStatuses, {
    description:
      'dead at once: your endpoint is disabled, or you have no URL and it was recorded for a listener',
  }),
  payload: Type.Unknown({ description: 'the event body as sent, with payload.test true' }),
})

function webhookView(v: Vendor, now: string) {
  return {
    url: v.webhookUrl,
    hasAuthHeader: v.hasWebhookAuthHeader,
    state: v.webhookState,
    stateReason: v.webhookStateReason,
    failingSince: v.webhookFailingSince,
    secretRotation: rotationView(v.webhookSecretRotation, now),
    listeningUntil: v.listeningUntil !== null && v.listeningUntil > now ? v.listeningUntil : null,
  }
}

export interface VendorWebhookRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  clock: Clock
  productGroups: Pick<ProductGroupSource, 'peek'>
  provisioning: Pick<Provisioning, 'updateVendor'>
  /** Test events queue their delivery jobs (docs/vendor-api.md#self-service). */
  deliveryJobs: Pick<DeliveryJobs, 'enqueue' | 'handOver'>
}

export function registerVendorWebhook(app: App, s: VendorWebhookRoutesDeps): void {
  const base = { onRequest: s.auth.vendor }
  const meta = { tags: ['vendor'], security: [{ vendorToken: [] }] }
  const outbox = new WebhookOutbox(s.clock, s.productGroups, s.deliveryJobs)

  const callingVendor = async (request: Parameters<typeof vendorPrincipal>[0]) => {
    const vendor = await s.store.vendors.findById(vendorPrincipal(request).vendorId)
    if (!vendor) throw new ApiError('INVALID_CREDENTIALS', 'The vendor of this token no longer exists.')
    return vendor
  }

  app.get(
    '/api/vendor-api/webhook',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Your webhook endpoint: its URL, state and signing secret rotation',
        ...operation({
          id: 'getWebhookSettings',
          description: `Where your events go and whether deliveries currently work. ${callers.vendor}`,
          answers: {
            '200': {
              url: 'https://vendor.example.com/alertbridge/webhook',
              hasAuthHeader: false,
              state: 'active',
              stateReason: null,
              failingSince: null,
              secretRotation: rotationExample,
              listeningUntil: null,
            },
          },
        }),
        response: { 200: WebhookView, ...failures(401, 403) },
      },
    },
    async (request) => webhookView(await callingVendor(request), iso(s.clock)),
  )

  app.put(
    '/api/vendor-api/webhook',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'Set your webhook URL (null: none) and, optionally, the auth header sent with every attempt',
        ...operation({
          id: 'setWebhookSettings',
          body: { url: 'https://vendor.example.com/alertbridge/webhook', authHeader: null },
        }),
        description:
          "The URL is checked as the operator's are (http or https; no private address unless the installation allows it). Writing the URL, even the same one, makes a paused or disabled endpoint active again; deliveries held for it go out. `authHeader`: omitted keeps it, null removes it.",
        body: PutWebhook,
        response: { 200: WebhookView, ...failures(400, 401, 403) },
      },
    },
    async (request) => {
      const vendor = await callingVendor(request)
      const { url, authHeader } = request.body
      // The provisioning checks it too; here it is named as the vendor sent it.
      const headerProblem = webhookAuthHeaderProblem(authHeader, 'authHeader')
      if (headerProblem) throw new ApiError('VALIDATION_FAILED', headerProblem)
      const input = {
        webhookUrl: url,
        ...(authHeader !== undefined ? { webhookAuthHeader: authHeader } : {}),
      }
      const updated = orRefuse(await s.provisioning.updateVendor(vendor.id, input, actorOf(request)))
      return webhookView(updated, iso(s.clock))
    },
  )

  app.post(
    '/api/vendor-api/webhook/test',
    {
      ...base,
      preValidation: emptyBodyAsObject,
      schema: {
        ...meta,
        summary: 'Send yourself a sample event, marked test: true, through the normal delivery',
        ...operation({
          id: 'sendTestEvent',
          body: { event: 'Ticket Created' },
        }),
        description:
          "The sample names the token's integration, `integrationId`, or your first integration. 409 when you have no webhook URL and are not listening (GET /api/vendor-api/events).",
        body: TestBody,
        response: { 202: TestSent, ...failures(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const principal = vendorPrincipal(request)
      const vendor = await callingVendor(request)
      const { event = defaultTestEvent, integrationId } = request.body
      const integration =
        principal.integrationId || integrationId
          ? orRefuse(
              await vendorIntegration(s.store, principal, integrationId, { readDisabledPartner: true }),
            )
          : ((await s.store.integrations.list({ vendorId: vendor.id }, { limit: 1 }))[0] ?? null)
      const sample = await testEvent(s.store, vendor, integration, event)
      const id = await s.store.transaction(async (tx) => {
        const fresh = await tx.vendors.findById(vendor.id)
        return fresh ? outbox.testEvent(tx, fresh, sample) : null
      })
      s.deliveryJobs.handOver()
      if (!id) {
        throw new ApiError(
          'CONFLICT',
          'You have no webhook URL: set one (PUT /api/vendor-api/webhook) or listen (GET /api/vendor-api/events), then send the test event again.',
        )
      }
      const delivery = await s.store.deliveries.get(id)
      if (!delivery) throw new ApiError('INTERNAL', `Test event '${id}' was not stored.`)
      return reply.code(202).send({
        deliveryId: id,
        status: delivery.status,
        payload: JSON.parse(delivery.body) as unknown,
      })
    },
  )
}
