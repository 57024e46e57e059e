// Reading and replaying webhook deliveries, for the partner (their integrations' events) and the
// operator (any vendor). Replays keep the delivery's webhook-id and get one manual attempt each.
import type { Delivery, DeliveryStatus } from '../db/repositories/deliveries.js'
import type { Store } from '../db/store.js'
import { ApiError } from '../http/errors.js'
import { decodeCursor, page } from '../http/pagination.js'

export interface DeliveryScope {
  partnerId?: string
  vendorId?: string
}

export function deliveryView(d: Delivery, attempts: Awaited<ReturnType<Store['deliveries']['attempts']>>) {
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

export class DeliveryReads {
  constructor(
    private readonly store: Store,
    private readonly wake: () => void,
    private readonly clock: () => Date,
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
    return { data: data.map((d) => deliveryView(d, attempts)), nextCursor }
  }

  async get(scope: DeliveryScope, id: string) {
    const d = await this.find(scope, id)
    return deliveryView(d, await this.store.deliveries.attempts([d.id]))
  }

  async replayOne(scope: DeliveryScope, id: string) {
    const d = await this.find(scope, id)
    if (d.status !== 'dead') {
      throw new ApiError('CONFLICT', `Delivery '${id}' is ${d.status}; only dead deliveries are replayed.`)
    }
    await this.checkEndpoint(d.vendorId)
    await this.store.deliveries.replay({ ...scope, ids: [id] }, this.clock().toISOString())
    this.wake()
    return this.get(scope, id)
  }

  async replayDead(scope: DeliveryScope, since: string) {
    if (scope.vendorId) await this.checkEndpoint(scope.vendorId)
    const replayed = await this.store.deliveries.replay(
      { ...scope, deadSince: since },
      this.clock().toISOString(),
    )
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
