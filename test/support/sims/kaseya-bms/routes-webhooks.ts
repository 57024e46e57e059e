// The simulated BMS webhooks, as the published OpenAPI has them (docs/psa/kaseya-bms.md, "Two-way sync"):
//   GET    /v2/admin/webhooks/events/lookup   [{id, name, categoryId, categoryName}]
//   POST   /v2/admin/webhooks                 WebhookConfigurationInputDto {Name, PayloadURL, IsEnabled,
//                                              Secret, ContentType, SendAllEvents, Events[]} → the webhook
//   POST   /v2/admin/webhooks/search          {Filter: {PayloadUrl, Name, IsEnabled}, PageSize, PageNumber}
//   GET|PUT|DELETE /v2/admin/webhooks/{id}
// The output is WebhookConfigurationOutputDto: the secret is never shown, only `hasSecret`. alertbridge
// registers no BMS webhook (it cannot verify BMS's Signature, events.ts); it only deletes one an earlier
// version registered, and a test registers one to see it pushed and refused, or deleted.
import type { FastifyInstance } from 'fastify'
import { contains, input, intOf, okBody, page, refuse } from './envelope.js'
import type { BmsWebhook, KaseyaBmsState } from './types.js'

export function webhookRoutes(app: FastifyInstance, state: KaseyaBmsState): void {
  const out = (h: BmsWebhook) => ({
    id: Number(h.id),
    name: h.name,
    payloadUrl: h.url,
    isEnabled: h.active,
    contentType: h.contentType,
    sendAllEvents: h.sendAllEvents,
    events: h.events,
    hasSecret: h.secret !== null,
    createdOn: h.createdOn,
  })
  const find = (id: string) => state.webhooks.find((h) => h.id === id)
  /** The configuration a body gives, or the reason BMS refuses it. */
  const configOf = (body: unknown): Omit<BmsWebhook, 'id' | 'createdOn' | 'failures'> | string => {
    const url = input(body, 'PayloadURL')
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return 'PayloadURL must be an absolute URL.'
    const sendAll = input(body, 'SendAllEvents') === true
    const given = input(body, 'Events')
    const events = (Array.isArray(given) ? given : []).map(intOf)
    if (events.some((e) => e === null || !state.webhookEvents.some((x) => x.id === e)))
      return 'Events must be ids from /v2/admin/webhooks/events/lookup.'
    if (!sendAll && events.length === 0) return 'Select at least one event, or SendAllEvents.'
    const secret = input(body, 'Secret')
    return {
      name: String(input(body, 'Name') ?? ''),
      url,
      secret: typeof secret === 'string' && secret !== '' ? secret : null,
      deactivationUrl: null,
      active: input(body, 'IsEnabled') !== false,
      contentType: intOf(input(body, 'ContentType')) ?? 0,
      sendAllEvents: sendAll,
      events: events.filter((e): e is number => e !== null),
    }
  }

  app.get('/v2/admin/webhooks/events/lookup', async () => okBody(state.webhookEvents))

  app.post('/v2/admin/webhooks', async (request, reply) => {
    const config = configOf(request.body)
    if (typeof config === 'string') return refuse(reply, 400, config)
    const hook: BmsWebhook = {
      ...config,
      id: String(state.nextId.webhook++),
      failures: 0,
      createdOn: new Date().toISOString(),
    }
    state.webhooks.push(hook)
    return okBody(out(hook))
  })

  app.post('/v2/admin/webhooks/search', async (request, reply) => {
    const filter = input(request.body, 'Filter')
    const url = input(filter, 'PayloadUrl')
    const name = input(filter, 'Name')
    const matching = state.webhooks.filter(
      (h) =>
        contains(h.url, typeof url === 'string' ? url : undefined) &&
        contains(h.name, typeof name === 'string' ? name : undefined),
    )
    const body = request.body
    const p = page(matching, input(body, 'PageSize'), input(body, 'PageNumber'), state.paging)
    if (!p.ok) return refuse(reply, 400, p.message)
    return okBody(p.rows.map(out), p.total)
  })

  app.get<{ Params: { id: string } }>('/v2/admin/webhooks/:id', async (request, reply) => {
    const h = find(request.params.id)
    return h ? okBody(out(h)) : refuse(reply, 404, `Webhook ${request.params.id} was not found.`)
  })

  app.put<{ Params: { id: string } }>('/v2/admin/webhooks/:id', async (request, reply) => {
    const h = find(request.params.id)
    if (!h) return refuse(reply, 404, `Webhook ${request.params.id} was not found.`)
    const config = configOf(request.body)
    if (typeof config === 'string') return refuse(reply, 400, config)
    Object.assign(h, config, { failures: 0 })
    return okBody(out(h))
  })

  app.delete<{ Params: { id: string } }>('/v2/admin/webhooks/:id', async (request, reply) => {
    const h = find(request.params.id)
    if (!h) return refuse(reply, 404, `Webhook ${request.params.id} was not found.`)
    h.active = false
    state.webhooks = state.webhooks.filter((x) => x !== h)
    return reply.code(200).send()
  })
}

/**
 * A webhook as an earlier alertbridge registered it (POST /v2/admin/webhooks, named alertbridge, ticket
 * Updated and Deleted), put straight into the simulator's state; answers its id.
 */
export function seedOldWebhook(state: KaseyaBmsState, o: { url: string; secret: string }): string {
  const id = String(state.nextId.webhook++)
  state.webhooks.push({
    id,
    name: 'alertbridge',
    url: o.url,
    secret: o.secret,
    deactivationUrl: null,
    active: true,
    failures: 0,
    contentType: 1,
    sendAllEvents: false,
    events: [22, 23],
    createdOn: new Date().toISOString(),
  })
  return id
}
