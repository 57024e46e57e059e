// Reading and replaying webhook deliveries, for the partner (their integrations' events) and the
// operator (any vendor). Replays keep the delivery's webhook-id and get one manual attempt each.
import type { Store } from '../db/store.js'
import { type Delivery, type DeliveryStatus, errorForPartner } from '../domain/delivery.js'
import type { Actor } from '../domain/operator-audit.js'
import { ApiError } from '../http/errors.js'
import { decodeCursor, page } from '../http/pagination.js'

export interface DeliveryScope {
  partnerId?: string
  vendorId?: string
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
 * A delivery as the partner sees it (issue 10 §4): status, timing and HTTP codes of every attempt,
 * but neither the vendor's webhook URL nor what the vendor's endpoint answered.
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
    private readonly wake: () => void,
    private readonly clock: () => Date,
    /** What this audience sees of a delivery. */
    private readonly view: DeliveryViewOf<V>,
  ) {}

  async list(scope: DeliveryScope, q: { status?: DeliveryStatus; cursor?: string; limit: number }) {
    const rows = await this.store.deliveries.list({
      ...scope,
      status: q.status,
      before: decodeCursor(q.cursor),
      limit: q.limit + 1,
    })
    const { data, nextCursor } = page(rows, q.limit, (d) => d.id)
    const attempts = await this.store.deliveries.attempts(data.map((d) => d.id))
    return { data: data.map((d) => this.view(d, attempts)), nextCursor }
  }

  async get(scope: DeliveryScope, id: string) {
    const d = await this.find(scope, id)
    return this.view(d, await this.store.deliveries.attempts([d.id]))
  }

  /** Replays one dead delivery; `by`: the operator, whose replays are audited. */
  async replayOne(scope: DeliveryScope, id: string, by?: Actor) {
    const d = await this.find(scope, id)
    if (d.status !== 'dead') {
      throw new ApiError('CONFLICT', `Delivery '${id}' is ${d.status}; only dead deliveries are replayed.`)
    }
    await this.checkEndpoint(d.vendorId)
    const now = this.clock().toISOString()
    await this.store.transaction(async (tx) => {
      await tx.deliveries.replay({ ...scope, ids: [id] }, now)
      const summary = { vendorId: d.vendorId, eventType: d.eventType }
      await tx.audit.record(
        by,
        { action: 'delivery.replay', targetType: 'delivery', targetId: id, summary },
        now,
      )
    })
    this.wake()
    return this.get(scope, id)
  }

  async replayDead(scope: DeliveryScope, since: string, by?: Actor) {
    if (scope.vendorId) await this.checkEndpoint(scope.vendorId)
    const now = this.clock().toISOString()
    const replayed = await this.store.transaction(async (tx) => {
      const replayed = await tx.deliveries.replay({ ...scope, deadSince: since }, now)
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
    this.wake()
    return { replayed }
  }

  private async find(scope: DeliveryScope, id: string): Promise<Delivery> {
    const d = await this.store.deliveries.get(id)
    if (
      !d ||
      (scope.partnerId && d.partnerId !== scope.partnerId) ||
      (scope.vendorId && d.vendorId !== scope.vendorId)
    ) {
      throw new ApiError('NOT_FOUND', `Delivery '${id}' was not found.`)
    }
    return d
  }

  private async checkEndpoint(vendorId: string): Promise<void> {
    const vendor = await this.store.vendors.findById(vendorId)
    if (vendor?.webhookState === 'disabled') {
      throw new ApiError(
        'CONFLICT',
        `The vendor's webhook endpoint is disabled (${vendor.webhookStateReason ?? 'no reason recorded'}); the operator enables it (PATCH /api/admin/vendors/${vendorId} {"webhookEnabled": true}) before a replay.`,
      )
    }
  }
}
