// Webhook deliveries with every attempt, and replay (docs/webhooks.md): the partner sees the events of
// its integrations, the vendor its own (docs/vendor-api.md#self-service), the operator every vendor's.
// The partner sees status, timing and HTTP codes but neither the vendor's webhook URL nor its endpoint's
// answers (docs/webhooks.md#attempt-log); the vendor and the operator see all. A vendor token bound to an
// integration sees that integration's deliveries only.
import Type, { type TSchema } from 'typebox'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, type OperationDoc, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures, IdParams, Page } from '../../platform/http/schemas.js'
import type { Actor } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  partnerId,
  vendorIntegration,
  vendorPrincipal,
} from '../../tenants/index.js'
import {
  DeliveryReads,
  type DeliveryScope,
  type DeliveryViewOf,
  deliveryView,
  partnerDeliveryView,
} from '../deliveries.js'
import type { deliveryStatuses } from '../delivery.js'
import type { DeliveryJobs } from '../delivery-job.js'
import { DeliveryView, ListQuery, PartnerDeliveryView, ReplayDead, Replayed } from './delivery-schemas.js'

type Request = Parameters<typeof partnerId>[0]

export interface DeliveryRoutesDeps {
  auth: Pick<AuthHooks, 'partner' | 'admin' | 'vendor'>
  store: Store
  clock: Clock
  /** Replays queue their deliveries' jobs. */
  deliveryJobs: Pick<DeliveryJobs, 'enqueue' | 'handOver'>
}

interface Audience<V> {
  prefix: string
  onRequest: DeliveryRoutesDeps['auth']['partner']
  meta: { tags: string[]; security: Record<string, never[]>[] }
  scope: (request: Request) => DeliveryScope
  /**
   * A filter of the list and of the replay since a time beside `status`: the operator's `vendorId`, the
   * vendor's `integrationId`; `narrow` answers the scope it makes (or throws the refusal).
   */
  filter: {
    name: 'vendorId' | 'integrationId'
    narrow: (request: Request, value: string) => Promise<DeliveryScope>
  } | null
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
    filter: null,
    actor: () => undefined,
    view: partnerDeliveryView,
    schema: PartnerDeliveryView,
  }
  const admin: Audience<ReturnType<typeof deliveryView>> = {
    prefix: '/api/admin',
    onRequest: s.auth.admin,
    meta: { tags: ['admin'], security: [{ adminToken: [] }] },
    scope: () => ({}),
    filter: { name: 'vendorId', narrow: async (_request, vendorId) => ({ vendorId }) },
    actor: (request) => actorOf(request),
    view: deliveryView,
    schema: DeliveryView,
  }
  // The vendor's own deliveries: its URL and its endpoint's answers are its own. A bound token's scope
  // is its integration; `integrationId` narrows an unbound one (another vendor's is 404).
  const vendorScope = (request: Request): DeliveryScope => {
    const p = vendorPrincipal(request)
    return { vendorId: p.vendorId, ...(p.integrationId ? { integrationId: p.integrationId } : {}) }
  }
  const vendor: Audience<ReturnType<typeof deliveryView>> = {
    prefix: '/api/vendor-api',
    onRequest: s.auth.vendor,
    meta: { tags: ['vendor'], security: [{ vendorToken: [] }] },
    scope: vendorScope,
    filter: {
      name: 'integrationId',
      narrow: async (request, integrationId) => {
        const p = vendorPrincipal(request)
        orRefuse(await vendorIntegration(s.store, p, integrationId, { readDisabledPartner: true }))
        return { vendorId: p.vendorId, integrationId }
      },
    },
    actor: (request) => actorOf(request),
    view: deliveryView,
    schema: DeliveryView,
  }
  register(app, s, partner)
  register(app, s, admin)
  register(app, s, vendor)
}

/** Each audience's calls in the OpenAPI document, by prefix. */
const operations: Record<string, Record<'list' | 'get' | 'replay' | 'replayDead', OperationDoc>> = {
  '/api/partner': {
    list: {
      id: 'listPartnerDeliveries',
      description: `The webhook deliveries of your integrations' events (the vendor's endpoint receives them). ${callers.partner}`,
    },
    get: { id: 'getPartnerDelivery', description: `With its attempts. ${callers.partner}` },
    replay: {
      id: 'replayPartnerDelivery',
      description: `Same webhook-id, so the vendor de-duplicates it. 409 if it is not dead. ${callers.partner}`,
    },
    replayDead: {
      id: 'replayPartnerDeliveries',
      description: `After the vendor fixed its endpoint. ${callers.partner}`,
      body: { since: '2026-01-31T00:00:00Z' },
    },
  },
  '/api/admin': {
    list: {
      id: 'listAdminDeliveries',
      description: `Every vendor's deliveries; filter by vendor, status and integration. ${callers.operator}`,
    },
    get: { id: 'getAdminDelivery', description: callers.operator },
    replay: {
      id: 'replayAdminDelivery',
      description: `Same webhook-id, so the vendor de-duplicates it. 409 if it is not dead. ${callers.operatorChange}`,
    },
    replayDead: {
      id: 'replayAdminDeliveries',
      description: `After a vendor fixed its endpoint; optionally one vendor's. ${callers.operatorChange}`,
      body: { since: '2026-01-31T00:00:00Z' },
    },
  },
  '/api/vendor-api': {
    list: {
      id: 'listDeliveries',
      description: `Your webhook deliveries, newest first, with every attempt (your endpoint's answers included); filter by status and integration. ${callers.vendor}`,
    },
    get: {
      id: 'getDelivery',
      description: `One delivery (its id is the webhook-id header) with its attempts and the payload as sent. ${callers.vendor}`,
    },
    replay: {
      id: 'replayDelivery',
      description: `A dead delivery is sent once more with the same webhook-id (de-duplicate on it). 409 if it is not dead. ${callers.vendor}`,
    },
    replayDead: {
      id: 'replayDeliveries',
      description: `Every delivery of yours that died since a time, sent again (after fixing your endpoint). ${callers.vendor}`,
      body: { since: '2026-01-31T00:00:00Z' },
    },
  },
}

function register<V>(app: App, s: DeliveryRoutesDeps, a: Audience<V>): void {
  const reads = new DeliveryReads(s.store, s.deliveryJobs, s.clock, a.view)
  const Filter = Type.Object(
    a.filter ? { [a.filter.name]: Type.Optional(Type.String({ maxLength: 64 })) } : {},
  )
  /** The audience's scope, narrowed by its filter when the request names one. */
  const scopeOf = async (request: Request, value: string | undefined) =>
    a.filter && value ? a.filter.narrow(request, value) : a.scope(request)
  app.get(
    `${a.prefix}/deliveries`,
    {
      onRequest: a.onRequest,
      schema: {
        ...a.meta,
        summary: 'Webhook deliveries, newest first, each with its attempts',
        ...operation(operations[a.prefix]!.list),
        querystring: Type.Object({ ...ListQuery.properties, ...Filter.properties }),
        response: {
          200: Page(a.schema),
          ...failures(400, 401, ...(a.filter?.name === 'integrationId' ? [403, 404] : [])),
        },
      },
    },
    async (request) => {
      const q = request.query as {
        status?: (typeof deliveryStatuses)[number]
        cursor?: string
        limit?: number
      } & Record<string, string | undefined>
      const scope = await scopeOf(request, a.filter ? q[a.filter.name] : undefined)
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
        ...operation(operations[a.prefix]!.get),
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
        ...operation(operations[a.prefix]!.replay),
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
        ...operation(operations[a.prefix]!.replayDead),
        body: Type.Object({ ...ReplayDead.properties, ...Filter.properties }),
        response: { 202: Replayed, ...failures(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const body = request.body as { since: string } & Record<string, string | undefined>
      const scope = await scopeOf(request, a.filter ? body[a.filter.name] : undefined)
      return reply
        .code(202)
        .send(orRefuse(await reads.replayDead(scope, new Date(body.since).toISOString(), a.actor(request))))
    },
  )
}
