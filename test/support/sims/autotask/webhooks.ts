// Ticket webhooks as Autotask keeps and sends them (docs/psa/autotask.md#two-way-sync): created with
// `POST TicketWebhooks` (WebhookUrl, DeactivationUrl, SecretKey, IsActive, the events it subscribes
// to), its fields through `POST TicketWebhooks/{id}/Fields` (FieldID from the `fieldID` picklist; a
// subscribed field's change triggers a callout, a display-always field rides along), resources whose
// changes never trigger it through `POST TicketWebhooks/{id}/ExcludedResources`, removed with
// `DELETE TicketWebhooks/{id}` (and the children by their own DELETE). A webhook is ready once it has a
// subscribed field. Each callout is signed `x-hook-signature: sha1=<base64 HMAC-SHA1 of the body, keyed
// with the SecretKey>`, retried 5 times in all (the delays scaled by the simulator's options), and the
// webhook deactivated after 25 consecutive failures, its DeactivationUrl called. `GET TicketWebhooks/{id}`
// reads a webhook back (`{item}`, null when there is none), with `isActive` false once deactivated;
// `deactivate(id)` (also `POST /__sim/webhooks/{id}/deactivate`) does what 25 failures do, at once.
import { createHmac, randomUUID } from 'node:crypto'
import { PushSender, type PushSubscription } from '../push.js'
import type { ApiAnswer, ApiRequest } from './routes.js'
import { webhookTicketFields } from './sync-seed.js'
import { coerce, fieldErrors, type Outcome, refuse } from './tickets.js'
import type { AutotaskState, Entity, Ticket, TicketWebhook } from './types.js'

/** Autotask's schedule: 5 tries within about 2 minutes, then the callout is dropped. */
export const autotaskRetryDelaysMs = [5_000, 15_000, 30_000, 60_000]

export type TicketAction = 'Create' | 'Update' | 'Delete'

export interface Webhooks {
  pushes: PushSender
  /** The API routes of the webhook entities, or null for a route they do not handle. */
  route(r: ApiRequest): ApiAnswer | null
  /**
   * A ticket changed (`before`: as it was; null for a create) by `actor` (a resource id): callouts to
   * every active, ready webhook subscribed to the action, unless it excludes the actor or (on an update)
   * none of its subscribed fields changed.
   */
  changed(action: TicketAction, ticketId: number, before: Ticket | null, actor: number): void
  /**
   * Autotask deactivating a webhook (as after 25 consecutive failures): inactive, and its
   * DeactivationUrl called. Answers that call's status (null: unreachable), or undefined for no webhook.
   */
  deactivate(id: number): Promise<number | null | undefined>
  /** Forget every subscription (the simulator's reset). */
  reset(): void
}

const answer = (outcome: Outcome<number>): ApiAnswer =>
  outcome.ok
    ? { status: 200, body: { itemId: outcome.value } }
    : { status: outcome.status, body: { errors: outcome.errors } }
const gone = (what: string): ApiAnswer => ({ status: 404, body: { errors: [`${what} does not exist.`] } })

export function sign(body: string, secret: string): string {
  return `sha1=${createHmac('sha1', secret).update(body).digest('base64')}`
}

export function ticketWebhooks(state: AutotaskState, retryDelaysMs: number[]): Webhooks {
  const subs = new Map<number, PushSubscription>()
  const sequence = new Map<number, number>()
  const pushes = new PushSender({
    retryDelaysMs,
    deactivateAfter: 25,
    headers: (body, sub) => ({ 'x-hook-signature': sign(body, sub.secret ?? '') }),
  })

  function createWebhook(body: unknown, apiResource: number): Outcome<number> {
    const fields = coerce('TicketWebhooks', body)
    if (!fields.ok) return fields
    const { id: _ignored, ...sent } = fields.value
    const item = {
      isSubscribedToCreateEvents: false,
      isSubscribedToUpdateEvents: false,
      isSubscribedToDeleteEvents: false,
      notificationEmailAddress: null,
      sendThresholdExceededNotification: false,
      ...sent,
    } as Entity
    const errors = fieldErrors(state, 'TicketWebhooks', item)
    if (errors.length) return refuse(errors)
    const id = state.nextId.webhook++
    const sub: PushSubscription = {
      id: String(id),
      url: String(item.webhookUrl),
      secret: String(item.secretKey),
      deactivationUrl: String(item.deactivationUrl),
      active: item.isActive === true,
      failures: 0,
    }
    const hook = { ...item, id, isReady: false, ownerResourceID: apiResource, webhookGUID: randomUUID() }
    // IsActive is the delivery's own switch: deactivation after 25 failures shows in the entity.
    Object.defineProperty(hook, 'isActive', {
      enumerable: true,
      get: () => sub.active,
      set: (v: boolean) => {
        sub.active = v
      },
    })
    subs.set(id, sub)
    state.ticketWebhooks.push(hook as unknown as TicketWebhook)
    return { ok: true, value: id }
  }

  function createChild(
    entity: 'TicketWebhookFields' | 'TicketWebhookExcludedResources',
    webhookId: number,
    body: unknown,
  ): Outcome<number> {
    const fields = coerce(entity, body)
    if (!fields.ok) return fields
    const { id: _ignored, ...sent } = fields.value
    const item: Entity =
      entity === 'TicketWebhookFields'
        ? { isSubscribedField: false, isDisplayAlwaysField: false, ...sent, webhookID: webhookId }
        : { ...sent, webhookID: webhookId }
    const errors = fieldErrors(state, entity, item)
    if (entity === 'TicketWebhookExcludedResources' && !state.resources.some((r) => r.id === item.resourceID))
      errors.push(`The resourceID ${String(item.resourceID)} does not reference an existing Resource.`)
    if (errors.length) return refuse(errors)
    const id = state.nextId.child++
    if (entity === 'TicketWebhookFields') {
      state.ticketWebhookFields.push({ ...item, id } as unknown as AutotaskState['ticketWebhookFields'][0])
      const hook = state.ticketWebhooks.find((w) => w.id === webhookId)
      if (hook && item.isSubscribedField === true) hook.isReady = true
    } else
      state.ticketWebhookExcludedResources.push({
        ...item,
        id,
      } as unknown as AutotaskState['ticketWebhookExcludedResources'][0])
    return { ok: true, value: id }
  }

  function route(r: ApiRequest): ApiAnswer | null {
    const [first = '', second, child, childId, ...more] = r.segments
    if (first.toLowerCase() !== 'ticketwebhooks' || more.length > 0) return null
    if (second === undefined) {
      if (r.method !== 'POST') return null
      const api = state.resources.find(
        (x) => x.userName.toLowerCase() === state.credentials.username.toLowerCase(),
      )
      return answer(createWebhook(r.body, api?.id ?? 0))
    }
    if (!/^\d+$/.test(second)) return null
    const id = Number(second)
    const hook = state.ticketWebhooks.find((w) => w.id === id)
    if (child === undefined) {
      // A read of an id that does not exist is no error in Autotask: the item is null.
      if (r.method === 'GET') return { status: 200, body: { item: hook ? { ...hook } : null } }
      if (r.method !== 'DELETE') return null
      if (!hook) return gone(`The TicketWebhook ${id}`)
      // A delivery already under way stops at its next try.
      const sub = subs.get(id)
      if (sub) sub.active = false
      subs.delete(id)
      state.ticketWebhooks = state.ticketWebhooks.filter((w) => w.id !== id)
      state.ticketWebhookFields = state.ticketWebhookFields.filter((w) => w.webhookID !== id)
      state.ticketWebhookExcludedResources = state.ticketWebhookExcludedResources.filter(
        (w) => w.webhookID !== id,
      )
      return { status: 200, body: { itemId: id } }
    }
    const entity = (
      { fields: 'TicketWebhookFields', excludedresources: 'TicketWebhookExcludedResources' } as const
    )[child.toLowerCase() as 'fields' | 'excludedresources']
    if (!entity) return null
    if (!hook) return gone(`The parent TicketWebhook ${id}`)
    const list = entity === 'TicketWebhookFields' ? 'ticketWebhookFields' : 'ticketWebhookExcludedResources'
    if (childId === undefined) {
      if (r.method === 'POST') return answer(createChild(entity, id, r.body))
      if (r.method !== 'GET') return null
      const items = state[list].filter((x) => x.webhookID === id)
      return {
        status: 200,
        body: { items, pageDetails: { count: items.length, nextPageUrl: null, prevPageUrl: null } },
      }
    }
    if (r.method !== 'DELETE' || !/^\d+$/.test(childId)) return null
    const all: { id: number; webhookID: number }[] = state[list]
    const at = all.findIndex((x) => x.webhookID === id && x.id === Number(childId))
    if (at < 0) return gone(`The ${entity} ${childId}`)
    all.splice(at, 1)
    return { status: 200, body: { itemId: Number(childId) } }
  }

  function changed(action: TicketAction, ticketId: number, before: Ticket | null, actor: number): void {
    const after = state.tickets.find((t) => t.id === ticketId) ?? null
    for (const hook of state.ticketWebhooks) {
      const sub = subs.get(hook.id)
      if (!sub?.active || !hook.isReady) continue
      const subscribed = {
        Create: hook.isSubscribedToCreateEvents,
        Update: hook.isSubscribedToUpdateEvents,
        Delete: hook.isSubscribedToDeleteEvents,
      }[action]
      if (!subscribed) continue
      if (state.ticketWebhookExcludedResources.some((x) => x.webhookID === hook.id && x.resourceID === actor))
        continue
      const names = (which: 'isSubscribedField' | 'isDisplayAlwaysField') =>
        state.ticketWebhookFields
          .filter((x) => x.webhookID === hook.id && x[which])
          .map((x) => webhookTicketFields.find(([fid]) => fid === x.fieldID)?.[2])
          .filter((n): n is string => n !== undefined)
      const was = (before ?? {}) as unknown as Entity
      const now = (after ?? {}) as unknown as Entity
      const moved = names('isSubscribedField').filter((n) => was[n] !== now[n])
      if (action === 'Update' && moved.length === 0) continue
      const shown = action === 'Delete' ? [] : [...new Set([...moved, ...names('isDisplayAlwaysField')])]
      const seq = (sequence.get(hook.id) ?? 0) + 1
      sequence.set(hook.id, seq)
      pushes.push([sub], {
        Action: action,
        Guid: hook.webhookGUID,
        EntityType: 'Ticket',
        Id: ticketId,
        Fields: Object.fromEntries(shown.map((n) => [n, now[n] ?? null])),
        EventTime: new Date().toISOString(),
        SequenceNumber: seq,
        PersonID: actor,
      })
    }
  }

  async function deactivate(id: number): Promise<number | null | undefined> {
    const sub = subs.get(id)
    if (!sub) return undefined
    sub.active = false
    if (!sub.deactivationUrl) return null
    try {
      const res = await fetch(sub.deactivationUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id }),
      })
      await res.arrayBuffer()
      return res.status
    } catch {
      return null
    }
  }

  return {
    pushes,
    route,
    changed,
    deactivate,
    reset() {
      subs.clear()
      sequence.clear()
    },
  }
}

/**
 * What an API call is about to change in a ticket (a create, a PATCH or PUT with the id in the body, a
 * note): a callback that tells the webhooks once the call succeeded, as the API user's resource.
 */
export function apiWrite(
  state: AutotaskState,
  hooks: Webhooks,
  actor: number,
  method: string,
  segments: string[],
  body: unknown,
): ((itemId?: number) => void) | null {
  const [entity = '', id, child] = segments.map((x) => x.toLowerCase())
  if (entity !== 'tickets') return null
  if (method === 'POST' && id === undefined)
    return (itemId) => {
      if (itemId !== undefined) hooks.changed('Create', itemId, null, actor)
    }
  const target =
    (method === 'PATCH' || method === 'PUT') && id === undefined
      ? Number((body as { id?: unknown } | null)?.id)
      : method === 'POST' && child === 'notes'
        ? Number(id)
        : Number.NaN
  const ticket = state.tickets.find((t) => t.id === target)
  if (!ticket) return null
  const before = { ...ticket }
  return () => hooks.changed('Update', ticket.id, before, actor)
}
