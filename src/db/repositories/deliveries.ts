// The webhook outbox: one row per event to deliver (its id is the `webhook-id`, fixed for every retry
// and replay), one row per attempt. `run_at` is the next attempt and, while an attempt is in flight,
// the end of its lease, as in the job queue.
import { type Kysely, type Selectable, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Attempt, Delivery, DeliveryStatus, WebhookEventType } from '../../domain/delivery.js'
import { toBool } from '../rows.js'
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable } from '../schema.js'

/**
 * `status` hidden from the planner, for statements that name their rows by id: SQLite (which keeps no
 * statistics here) would otherwise walk the (status, run_at) index through every pending delivery
 * instead of looking the ids up, so a claim cost grew with the backlog (520 µs for 8 of 5,000 pending,
 * 20 µs by id). PostgreSQL plans the same text by the primary key.
 */
const statusByScan = sql<string>`(${sql.ref('status')} || '')`

export type NewDelivery = Pick<
  Delivery,
  'vendorId' | 'partnerId' | 'integrationId' | 'messageId' | 'eventType' | 'body'
> & {
  /** Dead from the start (the endpoint is disabled): kept for replay. */
  deadReason?: string
}

export interface ClaimedDelivery extends Delivery {
  leaseToken: string
}

function toDelivery(r: Selectable<WebhookDeliveriesTable>): Delivery {
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

export class DeliveryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a delivery; null (and nothing stored) when its messageId has a delivery already. */
  async insert(d: NewDelivery, now: string): Promise<string | null> {
    const id = `msg_${uuidv7().replaceAll('-', '')}`
    const result = await this.db
      .insertInto('webhook_deliveries')
      .values({
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
        lease_token: null,
        last_status: null,
        last_error: d.deadReason ?? null,
        created_at: now,
        updated_at: now,
        delivered_at: null,
        dead_at: d.deadReason ? now : null,
      })
      .onConflict((oc) => oc.column('message_id').doNothing())
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? id : null
  }

  /** Each active endpoint (vendor) with when its next pending delivery is due (null: none). A disabled
   * vendor's deliveries wait: they are kept as they are and go out once it is enabled again. */
  async nextDuePerVendor(): Promise<{ vendorId: string; next: string | null }[]> {
    return this.db
      .selectFrom('vendors as v')
      .select((eb) => [
        'v.id as vendorId',
        eb
          .selectFrom('webhook_deliveries as d')
          .select((e) => e.fn.min('d.run_at').as('m'))
          .whereRef('d.vendor_id', '=', 'v.id')
          .where('d.status', '=', 'pending')
          .as('next'),
      ])
      .where('v.webhook_state', '=', 'active')
      .where('v.webhook_url', 'is not', null)
      .where('v.disabled_at', 'is', null)
      .execute()
  }

  /** The ids of one endpoint's due deliveries, oldest first. */
  async dueForVendor(vendorId: string, now: string, limit: number): Promise<string[]> {
    // Ids only, from the (vendor_id, status, run_at) index and the row id: the claim returns the rows.
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('vendor_id', '=', vendorId)
      .where('status', '=', 'pending')
      .where('run_at', '<=', now)
      .orderBy('run_at')
      .limit(limit)
      .execute()
    return rows.map((r) => r.id)
  }

  /** Takes one due delivery for `leaseMs`; null if another worker took it first. */
  async claim(id: string, now: string, leaseUntil: string): Promise<ClaimedDelivery | null> {
    return (await this.claimMany([id], now, leaseUntil))[0] ?? null
  }

  /** Takes the due deliveries of `ids` in one statement; those another worker took first are left out. */
  async claimMany(ids: readonly string[], now: string, leaseUntil: string): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return []
    const leaseToken = uuidv7()
    const rows = await this.db
      .updateTable('webhook_deliveries')
      .set({ run_at: leaseUntil, lease_token: leaseToken })
      .where('id', 'in', ids)
      .where(statusByScan, '=', 'pending')
      .where('run_at', '<=', now)
      .returningAll()
      .execute()
    return rows.map((row) => ({ ...toDelivery(row), leaseToken }))
  }

  /** Records one attempt and the delivery's new state; run it in a transaction (Store.transaction). */
  async recordAttempt(d: ClaimedDelivery, r: AttemptRecord): Promise<boolean> {
    const updated = await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: r.status,
        failed_attempts: r.failedAttempts,
        attempt_count: eb('attempt_count', '+', 1),
        run_at: r.runAt,
        lease_token: null,
        manual: 0, // an attempt ends a replay: a failed replay is dead, never pending (judgeAttempt)
        last_status: r.lastStatus,
        last_error: r.lastError,
        updated_at: r.now,
        delivered_at: r.status === 'delivered' ? r.now : null,
        dead_at: r.status === 'dead' ? r.now : null,
      }))
      .where('id', '=', d.id)
      .where('lease_token', '=', d.leaseToken)
      .executeTakeFirst()
    if (updated.numUpdatedRows === 0n) return false
    await this.db
      .insertInto('webhook_attempts')
      .values({
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
      .execute()
    return true
  }

  /** Gives claimed deliveries back unattempted (a dispatcher stopping before it sent them). */
  async release(claims: readonly ClaimedDelivery[], now: string): Promise<void> {
    if (claims.length === 0) return
    await this.db
      .updateTable('webhook_deliveries')
      .set({ run_at: now, lease_token: null })
      .where(statusByScan, '=', 'pending')
      .where((eb) =>
        eb.or(claims.map((c) => eb.and([eb('id', '=', c.id), eb('lease_token', '=', c.leaseToken)]))),
      )
      .execute()
  }

  /** Makes deliveries leased by a process that died due now (embedded mode, at start). */
  async releaseOrphanedLeases(now: string): Promise<number> {
    const r = await this.db
      .updateTable('webhook_deliveries')
      .set({ run_at: now, lease_token: null })
      .where('status', '=', 'pending')
      .where('lease_token', 'is not', null)
      .executeTakeFirst()
    return Number(r.numUpdatedRows)
  }

  /** Moves every pending delivery of a vendor to dead (its endpoint was disabled). */
  async killPending(vendorId: string, reason: string, now: string): Promise<number> {
    const r = await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'dead', dead_at: now, updated_at: now, last_error: reason, lease_token: null })
      .where('vendor_id', '=', vendorId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    return Number(r.numUpdatedRows)
  }

  /** Queues dead deliveries for one manual attempt each; `ids` or all of a scope dead since a time. */
  async replay(
    scope: { partnerId?: string; vendorId?: string; ids?: readonly string[]; deadSince?: string },
    now: string,
  ): Promise<number> {
    let q = this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', manual: 1, run_at: now, updated_at: now, dead_at: null })
      .where('status', '=', 'dead')
    if (scope.partnerId) q = q.where('partner_id', '=', scope.partnerId)
    if (scope.vendorId) q = q.where('vendor_id', '=', scope.vendorId)
    if (scope.ids) q = q.where('id', 'in', scope.ids.length > 0 ? scope.ids : [''])
    if (scope.deadSince) q = q.where('dead_at', '>=', scope.deadSince)
    const r = await q.executeTakeFirst()
    return Number(r.numUpdatedRows)
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
