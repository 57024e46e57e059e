// The webhook outbox: one row per event to deliver (its id is the `webhook-id`, fixed for every retry
// and replay), one row per attempt. The row is the record the partner and operator APIs show; `run_at`
// is when its next attempt is due. A delivery job of the queue runs the attempts (webhooks/delivery-job.ts):
// the job's claim is the only lease.
import { type Kysely, PostgresAdapter, type Selectable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { toBool } from '../platform/db/rows.js'
import type { Database } from '../platform/db/schema.js'
import { defineRepository } from '../platform/db/store.js'
import type { SealedEndpoint, WebhookEndpointState } from '../tenants/index.js'
import type { Attempt, Delivery, DeliveryStatus, WebhookEventType } from './delivery.js'
import {
  attemptRecorded,
  deliveryWithEndpoint,
  endpointColumns,
  insertAttempt,
  insertDelivery,
} from './delivery-statements.js'
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from './tables.js'

export type NewDelivery = Pick<
  Delivery,
  'vendorId' | 'partnerId' | 'integrationId' | 'messageId' | 'eventType' | 'body'
> & {
  /** Dead from the start (the endpoint is disabled): kept for replay. */
  deadReason?: string
}

export function toDelivery(r: Selectable<WebhookDeliveriesTable>): Delivery {
  return {
    id: r.id,
    vendorId: r.vendor_id,
    partnerId: r.partner_id,
    integrationId: r.integration_id,
    messageId: r.message_id,
    eventType: r.event_type as WebhookEventType,
    body: r.body,
    status: r.status as DeliveryStatus,
    failedAttempts: r.failed_attempts,
    attemptCount: r.attempt_count,
    manual: toBool(r.manual),
    runAt: r.run_at,
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deliveredAt: r.delivered_at,
    deadAt: r.dead_at,
  }
}

function toAttempt(r: Selectable<WebhookAttemptsTable>): Attempt {
  return {
    number: r.number,
    trigger: r.trigger as Attempt['trigger'],
    url: r.url,
    startedAt: r.started_at,
    durationMs: r.duration_ms,
    statusCode: r.status_code,
    error: r.error,
    responseBody: r.response_body,
    nextAttemptAt: r.next_attempt_at,
  }
}

export interface DeliveryFilter {
  partnerId?: string
  vendorId?: string
  integrationId?: string
  status?: DeliveryStatus
  before?: string
  limit: number
}

/** What an attempt changed: the delivery's next state and the attempt's log line. */
export interface AttemptRecord {
  attempt: Attempt
  status: DeliveryStatus
  failedAttempts: number
  runAt: string
  lastStatus: number | null
  lastError: string | null
  now: string
}

/** What a delivery's attempt depends on of its vendor: whether it may be sent now. */
export interface DeliveryEndpoint {
  vendorId: string
  vendorDisabled: boolean
  hasUrl: boolean
  state: WebhookEndpointState
  /** Its attempts have been failing (webhook_failing_since is set): a success clears that. */
  failing: boolean
}

/** The vendor's columns a DeliveryEndpoint is made of (toEndpoint). */
type EndpointColumns = Pick<Selectable<Database['vendors']>, (typeof endpointColumns)[number]>
const toEndpoint = (vendorId: string, v: EndpointColumns): DeliveryEndpoint => ({
  vendorId,
  vendorDisabled: v.disabled_at !== null,
  hasUrl: v.webhook_url !== null,
  state: v.webhook_state as WebhookEndpointState,
  failing: v.webhook_failing_since !== null,
})

export class DeliveryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The vendor's endpoint as a delivery needs it; null when the vendor is gone. `waitForChanges`: a
   * change to the vendor still committing is waited for and read (PostgreSQL: FOR SHARE), so that a
   * delivery held just now is checked against an enabling that raced it.
   */
  async endpoint(vendorId: string, waitForChanges = false): Promise<DeliveryEndpoint | null> {
    const locking = waitForChanges && this.db.getExecutor().adapter instanceof PostgresAdapter
    const row = await this.db
      .selectFrom('vendors')
      .select(['id', ...endpointColumns])
      .where('id', '=', vendorId)
      .$if(locking, (q) => q.forShare())
      .executeTakeFirst()
    return row ? toEndpoint(row.id, row) : null
  }

  /** Stores a delivery; null (and nothing stored) when its messageId has a delivery already. */
  async insert(d: NewDelivery, now: string): Promise<string | null> {
    const id = `msg_${uuidv7().replaceAll('-', '')}`
    const result = await insertDelivery(this.db, {
      id,
      vendor_id: d.vendorId,
      partner_id: d.partnerId,
      integration_id: d.integrationId,
      message_id: d.messageId,
      event_type: d.eventType,
      body: d.body,
      status: d.deadReason ? 'dead' : 'pending',
      failed_attempts: 0,
      attempt_count: 0,
      manual: 0,
      run_at: now,
      last_status: null,
      last_error: d.deadReason ?? null,
      created_at: now,
      updated_at: now,
      delivered_at: null,
      dead_at: d.deadReason ? now : null,
    })
    return Number(result.numAffectedRows ?? 0) === 1 ? id : null
  }

  /**
   * Records one attempt and the delivery's new state; run it in a transaction (Store.transaction).
   * False, and nothing recorded, when the delivery changed since `d` was read (another attempt was
   * recorded, or the endpoint's 410 made it dead meanwhile).
   */
  async recordAttempt(d: Delivery, r: AttemptRecord): Promise<boolean> {
    const updated = await attemptRecorded(
      this.db,
      r.status,
      r.failedAttempts,
      r.runAt,
      r.lastStatus,
      r.lastError,
      r.now,
      r.status === 'delivered' ? r.now : null,
      r.status === 'dead' ? r.now : null,
      d.id,
      d.attemptCount,
    )
    if (Number(updated.numAffectedRows ?? 0) === 0) return false
    await insertAttempt(this.db, {
      id: uuidv7(),
      delivery_id: d.id,
      number: r.attempt.number,
      trigger: r.attempt.trigger,
      url: r.attempt.url,
      started_at: r.attempt.startedAt,
      duration_ms: r.attempt.durationMs,
      status_code: r.attempt.statusCode,
      error: r.attempt.error,
      response_body: r.attempt.responseBody,
      next_attempt_at: r.attempt.nextAttemptAt,
    })
    return true
  }

  /** Moves every pending delivery of a vendor to dead (its endpoint was disabled). */
  async killPending(vendorId: string, reason: string, now: string): Promise<number> {
    const r = await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'dead', dead_at: now, updated_at: now, last_error: reason })
      .where('vendor_id', '=', vendorId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    return Number(r.numUpdatedRows)
  }

  /**
   * Makes dead deliveries pending for one manual attempt each, `ids` or all of a scope dead since a
   * time; answers which (their delivery jobs are queued by the caller, in the same transaction).
   */
  async replay(
    scope: Omit<DeliveryFilter, 'status' | 'before' | 'limit'> & {
      ids?: readonly string[]
      deadSince?: string
    },
    now: string,
  ): Promise<{ id: string; vendorId: string }[]> {
    let q = this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', manual: 1, run_at: now, updated_at: now, dead_at: null })
      .where('status', '=', 'dead')
    if (scope.partnerId) q = q.where('partner_id', '=', scope.partnerId)
    if (scope.vendorId) q = q.where('vendor_id', '=', scope.vendorId)
    if (scope.integrationId) q = q.where('integration_id', '=', scope.integrationId)
    if (scope.ids) q = q.where('id', 'in', scope.ids.length > 0 ? scope.ids : [''])
    if (scope.deadSince) q = q.where('dead_at', '>=', scope.deadSince)
    const rows = await q.returning(['id', 'vendor_id']).execute()
    return rows.map((r) => ({ id: r.id, vendorId: r.vendor_id }))
  }

  /**
   * A delivery with its endpoint's state and, still sealed, what it is sent with (the vendors
   * repository's openEndpoint opens it), in one read: what a delivery job looks at first, and the
   * attempt's only read.
   */
  async withEndpoint(
    id: string,
  ): Promise<{ delivery: Delivery; endpoint: DeliveryEndpoint; sealed: SealedEndpoint } | null> {
    const [row] = await deliveryWithEndpoint(this.db, id)
    return row ? { delivery: toDelivery(row), endpoint: toEndpoint(row.vendor_id, row), sealed: row } : null
  }

  async get(id: string): Promise<Delivery | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toDelivery(row) : null
  }

  async list(f: DeliveryFilter): Promise<Delivery[]> {
    let q = this.db.selectFrom('webhook_deliveries').selectAll().orderBy('id', 'desc').limit(f.limit)
    if (f.partnerId) q = q.where('partner_id', '=', f.partnerId)
    if (f.vendorId) q = q.where('vendor_id', '=', f.vendorId)
    if (f.integrationId) q = q.where('integration_id', '=', f.integrationId)
    if (f.status) q = q.where('status', '=', f.status)
    if (f.before) q = q.where('id', '<', f.before)
    return (await q.execute()).map(toDelivery)
  }

  async attempts(deliveryIds: readonly string[]): Promise<Map<string, Attempt[]>> {
    const out = new Map<string, Attempt[]>()
    if (deliveryIds.length === 0) return out
    const rows = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('delivery_id')
      .orderBy('number')
      .execute()
    for (const r of rows) {
      const list = out.get(r.delivery_id) ?? []
      list.push(toAttempt(r))
      out.set(r.delivery_id, list)
    }
    return out
  }

  /**
   * Deletes up to `limit` deliveries of one finished status whose last change (delivery, death) is
   * older than `before`, oldest first, with their attempts. A pending delivery is never finished;
   * a replayed one is pending again and its change is new. One statement: one short transaction.
   */
  async prune(status: 'delivered' | 'dead', before: string, limit: number): Promise<number> {
    const r = await this.db
      .deleteFrom('webhook_deliveries')
      .where(
        'id',
        'in',
        this.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', status)
          .where('updated_at', '<', before)
          .orderBy('updated_at')
          .limit(limit),
      )
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }
}

declare module '../platform/db/store.js' {
  interface Repositories {
    deliveries: DeliveryRepository
  }
}
defineRepository('deliveries', (kysely) => new DeliveryRepository(kysely))
