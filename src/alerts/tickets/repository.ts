// Tickets and the reservation protocol that keeps one ticket per correlationId and per open dedup key:
// a row is inserted with status 'creating' before the PSA is called, and the unique constraints of
// the table decide which of several concurrent requests creates the ticket.
import { type Kysely, sql } from 'kysely'
import type { Ticket, TicketCloser, TicketRecord } from '../../platform/core/types.js'
import { containing } from '../../platform/db/like.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import {
  completed,
  deadByCorrelation,
  deadByCorrelationOrKey,
  insertReservation,
  toRecord,
  toTicket,
} from './rows.js'

export interface Reservation {
  id: string
  integrationId: string
  partnerId: string
  correlationId: string
  accountId: string
  productGroup: string
  alertType: string
  title: string
  ruleId: string
  psaKind: string
  dedupKey: string
  dedupOpenKey: string | null
  leaseUntil: string
  now: string
}

export interface TicketQuery {
  partnerId?: string
  integrationIds?: string[]
  /** The vendor reads: a partner's test tickets are not shown (docs/partner-api.md#test-alerts). */
  vendor?: boolean
  status?: 'open' | 'closed'
  accountId?: string
  productGroup?: string
  alertType?: string
  /** Created at or after (inclusive), before (exclusive). */
  since?: string
  until?: string
  /** Part of the title or the correlationId, case ignored (ASCII case on SQLite). */
  search?: string
  /** Only tickets with an id lower than this one (keyset pagination, newest first). */
  beforeId?: string
  limit: number
}

export class TicketRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findByCorrelation(integrationId: string, correlationId: string): Promise<Ticket | null> {
    const r = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('correlation_id', '=', correlationId)
      .executeTakeFirst()
    return r ? toTicket(r) : null
  }

  async findByOpenDedupKey(integrationId: string, key: string): Promise<Ticket | null> {
    const r = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('dedup_open_key', '=', key)
      .executeTakeFirst()
    return r ? toTicket(r) : null
  }

  async get(id: string): Promise<Ticket | null> {
    const r = await this.db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirst()
    return r ? toTicket(r) : null
  }

  /**
   * Removes reservations whose creator died (lease passed) for the same correlationId or dedup key,
   * takes the dedup key away from `retireTicketId`, then inserts the reservation. Answers `busy` when
   * another request holds the correlationId or the key, and `after-dead` when it took the place of a
   * dead creator's reservation of the same correlationId (whose PSA call may have made the ticket).
   * Run inside a transaction.
   */
  async reserve(r: Reservation, retireTicketId: string | null): Promise<'reserved' | 'after-dead' | 'busy'> {
    const dead =
      r.dedupOpenKey === null
        ? await deadByCorrelation(this.db, r.integrationId, r.now, r.correlationId)
        : await deadByCorrelationOrKey(this.db, r.integrationId, r.now, r.correlationId, r.dedupOpenKey)
    if (retireTicketId) {
      await this.db
        .updateTable('tickets')
        .set({ dedup_open_key: null })
        .where('id', '=', retireTicketId)
        .where('status', '!=', 'creating')
        .execute()
    }
    const result = await insertReservation(this.db, {
      id: r.id,
      integration_id: r.integrationId,
      partner_id: r.partnerId,
      correlation_id: r.correlationId,
      status: 'creating',
      account_id: r.accountId,
      product_group: r.productGroup,
      alert_type: r.alertType,
      title: r.title,
      rule_id: r.ruleId,
      psa_kind: r.psaKind,
      psa_ticket_id: null,
      dedup_key: r.dedupKey,
      dedup_open_key: r.dedupOpenKey,
      occurrence_count: 1,
      lease_until: r.leaseUntil,
      last_occurrence_at: r.now,
      created_at: r.now,
      updated_at: r.now,
      closed_at: null,
    })
    if (Number(result.numAffectedRows ?? 0) !== 1) return 'busy'
    return dead.some((d) => d.correlation_id === r.correlationId) ? 'after-dead' : 'reserved'
  }

  async completeCreation(id: string, psaTicketId: string, now: string): Promise<void> {
    await completed(this.db, id, psaTicketId, now)
  }

  /** Marks the integration's ticket of this correlationId a partner's test ticket (docs/partner-api.md#test-alerts). */
  async markPartnerTest(integrationId: string, correlationId: string): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set({ partner_test: 1 })
      .where('integration_id', '=', integrationId)
      .where('correlation_id', '=', correlationId)
      .execute()
  }

  async releaseReservation(id: string): Promise<void> {
    await this.db.deleteFrom('tickets').where('id', '=', id).where('status', '=', 'creating').execute()
  }

  async recordOccurrence(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set((eb) => ({
        occurrence_count: eb('occurrence_count', '+', 1),
        last_occurrence_at: now,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute()
  }

  /** Takes the right to close: open → closing (or a closing whose closer died). */
  async claimClose(id: string, leaseUntil: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('tickets')
      .set({ status: 'closing', lease_until: leaseUntil })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'open'),
          eb.and([eb('status', '=', 'closing'), eb('lease_until', '<', now)]),
        ]),
      )
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  /** closedBy psa: the close found the ticket closed in the PSA already. */
  async completeClose(id: string, now: string, closedBy: TicketCloser = 'alertbridge'): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set({
        status: 'closed',
        dedup_open_key: null,
        lease_until: null,
        closed_at: now,
        closed_by: closedBy,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute()
  }

  /**
   * Open again (closed-ticket policy `reopen`, or reopened in the PSA). The ticket takes no dedup key
   * back: a newer ticket may hold it (docs/decision-table.md#closed-ticket-policy).
   */
  async reopen(id: string, now: string, psaStatus?: string | null): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set({
        status: 'open',
        closed_at: null,
        closed_by: null,
        ...(psaStatus === undefined ? {} : { psa_status: psaStatus }),
        updated_at: now,
        last_occurrence_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', 'closed')
      .execute()
  }

  /** The ticket a `new` closed-ticket policy made in place of the closed one. */
  async linkReplaced(id: string, replacesTicketId: string): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set({ replaces_ticket_id: replacesTicketId })
      .where('id', '=', id)
      .execute()
  }

  /** The latest closed ticket of a dedup key (closed-ticket policies other than `refuse`). */
  async findLastClosedByDedupKey(integrationId: string, key: string): Promise<Ticket | null> {
    const r = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('dedup_key', '=', key)
      .where('status', '=', 'closed')
      .orderBy('closed_at', 'desc')
      .limit(1)
      .executeTakeFirst()
    return r ? toTicket(r) : null
  }

  /**
   * Gives the close claim back (closing → open). `psaSyncHoldUntil`: the close may have happened in the PSA
   * (its answer was lost) and is retried, so two-way sync leaves the ticket alone until then.
   */
  async releaseClose(id: string, psaSyncHoldUntil?: string): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set({
        status: 'open',
        lease_until: null,
        ...(psaSyncHoldUntil ? { sync_hold_until: psaSyncHoldUntil } : {}),
      })
      .where('id', '=', id)
      .where('status', '=', 'closing')
      .execute()
  }

  /** Two-way sync leaves the ticket alone until then (an alert's reopen is being retried). */
  async holdPsaSync(id: string, until: string): Promise<void> {
    await this.db.updateTable('tickets').set({ sync_hold_until: until }).where('id', '=', id).execute()
  }

  async findRecord(
    scope: Pick<TicketQuery, 'partnerId' | 'integrationIds' | 'vendor'>,
    correlationId: string,
    integrationId?: string,
  ): Promise<TicketRecord[]> {
    let q = this.db
      .selectFrom('tickets')
      .selectAll()
      .where('correlation_id', '=', correlationId)
      .where('status', '!=', 'creating')
    if (scope.partnerId) q = q.where('partner_id', '=', scope.partnerId)
    if (scope.integrationIds)
      q = q.where('integration_id', 'in', scope.integrationIds.length ? scope.integrationIds : [''])
    if (integrationId) q = q.where('integration_id', '=', integrationId)
    if (scope.vendor) q = q.where('partner_test', '=', 0)
    const rows = await q.limit(2).execute()
    return rows.map(toRecord)
  }

  async list(query: TicketQuery): Promise<TicketRecord[]> {
    let q = this.db.selectFrom('tickets').selectAll().where('status', '!=', 'creating')
    if (query.partnerId) q = q.where('partner_id', '=', query.partnerId)
    if (query.integrationIds)
      q = q.where('integration_id', 'in', query.integrationIds.length ? query.integrationIds : [''])
    if (query.vendor) q = q.where('partner_test', '=', 0)
    if (query.status === 'open') q = q.where('status', 'in', ['open', 'closing'])
    if (query.status === 'closed') q = q.where('status', '=', 'closed')
    if (query.accountId) q = q.where('account_id', '=', query.accountId)
    if (query.productGroup) q = q.where('product_group', '=', query.productGroup)
    if (query.alertType) q = q.where('alert_type', '=', query.alertType)
    if (query.since) q = q.where('created_at', '>=', query.since)
    if (query.until) q = q.where('created_at', '<', query.until)
    if (query.search) {
      const pattern = containing(query.search)
      q = q.where(
        sql<boolean>`(lower(title) like ${pattern} escape '\\' or lower(correlation_id) like ${pattern} escape '\\')`,
      )
    }
    if (query.beforeId) q = q.where('id', '<', query.beforeId)
    const rows = await q.orderBy('id', 'desc').limit(query.limit).execute()
    return rows.map(toRecord)
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    tickets: TicketRepository
  }
}
defineRepository('tickets', (kysely) => new TicketRepository(kysely))
