// Reading and replaying webhook deliveries, for the partner (their integrations' events), the vendor
// (its own, docs/vendor-api.md#self-service) and the operator (any vendor). Replays keep the delivery's webhook-id and get one manual attempt each: a
// delivery job queued in the replay's transaction (delivery-job.ts).

import { page, readCursor } from '../platform/core/cursor.js'
import { notFound, ok, type Refused, type Result, refuse } from '../platform/core/result.js'
import type { Store } from '../platform/db/store.js'
import type { Actor } from '../tenants/index.js'
import { type Delivery, type DeliveryStatus, errorForPartner } from './delivery.js'
import type { DeliveryJobs } from './delivery-job.js'

export interface DeliveryScope {
  partnerId?: string
  vendorId?: string
  integrationId?: string
}

type AttemptsById = Awaited<ReturnType<Store['deliveries']['attempts']>>

/** A delivery as the operator sees it: everything, the endpoint's URL and answers included. */
export function deliveryView(d: Delivery, attempts: AttemptsById) {
  return {
    id: d.id,
    eventType: d.eventType,
    status: d.status,
    vendorId: d.vendorId,
    integrationId: d.integrationId,
    messageId: d.messageId,
    attempts: d.attemptCount,
    nextAttemptAt: d.status === 'pending' ? d.runAt : null,
    lastStatusCode: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    deadAt: d.deadAt,
    payload: JSON.parse(d.body) as unknown,
    attemptLog: attempts.get(d.id) ?? [],
  }
}

/**
 * A delivery as the partner sees it (docs/webhooks.md#attempt-log): status, timing and HTTP codes of
 * every attempt, but neither the vendor's webhook URL nor what the vendor's endpoint answered.
 */
export function partnerDeliveryView(d: Delivery, attempts: AttemptsById) {
  const { attemptLog, lastError, ...rest } = deliveryView(d, attempts)
  return {
    ...rest,
    lastError: errorForPartner(lastError, d.lastStatus),
    attemptLog: attemptLog.map((a) => ({
      number: a.number,
      trigger: a.trigger,
      startedAt: a.startedAt,
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: errorForPartner(a.error, a.statusCode),
      nextAttemptAt: a.nextAttemptAt,
    })),
  }
}

export type DeliveryViewOf<V> = (d: Delivery, attempts: AttemptsById) => V

export class DeliveryReads<V> {
  constructor(
    private readonly store: Store,
    /** Replayed deliveries get their job in the replay's transaction, handed over once it committed. */
    private readonly jobs: Pick<DeliveryJobs, 'enqueue' | 'handOver'>,
    private readonly clock: () => Date,
    /** What this audience sees of a delivery. */
    private readonly view: DeliveryViewOf<V>,
  ) {}

  async list(scope: DeliveryScope, q: { status?: DeliveryStatus; cursor?: string; limit: number }) {
    const before = readCursor(q.cursor)
    if (!before.ok) return before
    const rows = await this.store.deliveries.list({
      ...scope,
      status: q.status,
      before: before.value,
      limit: q.limit + 1,
    })
    const { data, nextCursor } = page(rows, q.limit, (d) => d.id)
    const attempts = await this.store.deliveries.attempts(data.map((d) => d.id))
    return ok({ data: data.map((d) => this.view(d, attempts)), nextCursor })
  }

  async get(scope: DeliveryScope, id: string): Promise<Result<V>> {
    const found = await this.find(scope, id)
    if (!found.ok) return found
    return ok(this.view(found.value, await this.store.deliveries.attempts([found.value.id])))
  }

  /** Replays one dead delivery; `by`: the operator or the vendor, whose replays are audited. */
  async replayOne(scope: DeliveryScope, id: string, by?: Actor): Promise<Result<V>> {
    const found = await this.find(scope, id)
    if (!found.ok) return found
    const d = found.value
    if (d.status !== 'dead') {
      return refuse('CONFLICT', `Delivery '${id}' is ${d.status}; only dead deliveries are replayed.`)
    }
    const disabled = await this.disabledEndpoint(d.vendorId)
    if (disabled) return disabled
    const now = this.clock().toISOString()
    await this.store.transaction(async (tx) => {
      await this.jobs.enqueue(tx, await tx.deliveries.replay({ ...scope, ids: [id] }, now))
      const summary = { vendorId: d.vendorId, eventType: d.eventType }
      await tx.audit.record(
        by,
        { action: 'delivery.replay', targetType: 'delivery', targetId: id, summary },
        now,
      )
    })
    this.jobs.handOver()
    return this.get(scope, id)
  }

  async replayDead(scope: DeliveryScope, since: string, by?: Actor): Promise<Result<{ replayed: number }>> {
    const disabled = scope.vendorId ? await this.disabledEndpoint(scope.vendorId) : null
    if (disabled) return disabled
    const now = this.clock().toISOString()
    const replayed = await this.store.transaction(async (tx) => {
      const deliveries = await tx.deliveries.replay({ ...scope, deadSince: since }, now)
      await this.jobs.enqueue(tx, deliveries)
      const replayed = deliveries.length
      // Without a vendor the replay covers every vendor's deliveries: the target is then '*'.
      const target = scope.vendorId
        ? ({ targetType: 'vendor', targetId: scope.vendorId } as const)
        : ({ targetType: 'delivery', targetId: '*' } as const)
      await tx.audit.record(
        by,
        { action: 'deliveries.replay_dead', ...target, summary: { since, replayed } },
        now,
      )
      return replayed
    })
    this.jobs.handOver()
    return ok({ replayed })
  }

  private async find(scope: DeliveryScope, id: string): Promise<Result<Delivery>> {
    const d = await this.store.deliveries.get(id)
    if (
      !d ||
      (scope.partnerId && d.partnerId !== scope.partnerId) ||
      (scope.vendorId && d.vendorId !== scope.vendorId) ||
      (scope.integrationId && d.integrationId !== scope.integrationId)
    ) {
      return notFound(`Delivery '${id}'`)
    }
    return ok(d)
  }

  /** The refusal for a replay while the vendor's endpoint is disabled, or null. */
  private async disabledEndpoint(vendorId: string): Promise<Refused | null> {
    const vendor = await this.store.vendors.findById(vendorId)
    if (vendor?.webhookState === 'disabled') {
      return refuse(
        'CONFLICT',
        `The vendor's webhook endpoint is disabled (${vendor.webhookStateReason ?? 'no reason recorded'}); the operator enables it (PATCH /api/admin/vendors/${vendorId} {"webhookEnabled": true}) or the vendor sets its URL again (PUT /api/vendor-api/webhook) before a replay.`,
      )
    }
    return null
  }
}
