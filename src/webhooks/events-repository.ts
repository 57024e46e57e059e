// The audit log: append-only, one row per alert call once its tenant is known.
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely'
import type { EventStatus, IncidentStatus } from '../platform/core/types.js'
import { prepared, preparedRow } from '../platform/db/prepared.js'
import { toBool, toInt } from '../platform/db/rows.js'
import type { Database } from '../platform/db/schema.js'
import { defineRepository } from '../platform/db/store.js'
import type { AuditEvent, Strategy } from './audit-event.js'
import type { EventsTable } from './tables.js'

// Every alert's outcome writes one event and looks for one first: prepared
// (docs/decisions/speed/prepared-outcome-writes.md).
const insertEvent = preparedRow((db, row: Insertable<EventsTable>) =>
  db
    .insertInto('events')
    .values(row)
    .onConflict((oc) => oc.column('message_id').doNothing()),
)
const eventExists = prepared(1, (db: Kysely<Database>, messageId: string) =>
  db.selectFrom('events').select('message_id').where('message_id', '=', messageId),
)

function toEvent(r: Selectable<EventsTable>): AuditEvent {
  return {
    messageId: r.message_id,
    partnerId: r.partner_id,
    vendorId: r.vendor_id,
    integrationId: r.integration_id,
    correlationId: r.correlation_id,
    event: r.event,
    status: r.status as EventStatus,
    httpStatus: r.http_status,
    incidentStatus: r.incident_status as IncidentStatus | null,
    strategy: r.strategy as Strategy,
    request: r.request === null ? null : JSON.parse(r.request),
    detail: r.detail,
    error: r.error,
    test: toBool(r.test),
    createdAt: r.created_at,
  }
}

export interface EventQuery {
  partnerId?: string
  integrationIds?: string[]
  integrationId?: string
  correlationId?: string
  status?: EventStatus
  event?: string
  since?: string
  until?: string
  beforeId?: string
  limit: number
}

export interface MetricsQuery {
  partnerId: string
  integrationId?: string
  since: string
  until: string
  /** Leading characters of the ISO timestamp that make a bucket: 13 = hour, 10 = day. */
  bucketChars: 10 | 13
}

/** Failed events of one partner over a time range, optionally of one integration (the dashboard). */
export interface FailureQuery {
  partnerId: string
  integrationId?: string
  since: string
  until: string
}

export class EventRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the event; false (and nothing stored) when its messageId has one already. */
  async insert(e: AuditEvent): Promise<boolean> {
    const result = await insertEvent(this.db, {
      message_id: e.messageId,
      partner_id: e.partnerId,
      vendor_id: e.vendorId,
      integration_id: e.integrationId,
      correlation_id: e.correlationId,
      event: e.event,
      status: e.status,
      http_status: e.httpStatus,
      incident_status: e.incidentStatus,
      strategy: e.strategy,
      request: e.request === null ? null : JSON.stringify(e.request),
      detail: e.detail,
      error: e.error ?? null,
      test: toInt(e.test === true),
      account_id: e.accountId ?? null,
      created_at: e.createdAt,
    })
    return Number(result.numAffectedRows ?? 0) === 1
  }

  /**
   * Deletes up to `limit` events created before `before`, oldest first, except those still needed:
   * one a webhook delivery was made for (it is deleted after its delivery), and one whose message
   * still has a job (a job that runs again finds its event and is done instead of calling the PSA).
   */
  async prune(before: string, limit: number): Promise<number> {
    const r = await this.db
      .deleteFrom('events')
      .where(
        'message_id',
        'in',
        this.db
          .selectFrom('events as e')
          .select('e.message_id')
          .where('e.created_at', '<', before)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_deliveries as d')
                  .select('d.id')
                  .whereRef('d.message_id', '=', 'e.message_id'),
              ),
            ),
          )
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('jobs as j').select('j.id').whereRef('j.id', '=', 'e.message_id'))),
          )
          .orderBy('e.created_at')
          .limit(limit),
      )
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  async exists(messageId: string): Promise<boolean> {
    return (await eventExists(this.db, messageId)).length > 0
  }

  async list(query: EventQuery): Promise<AuditEvent[]> {
    let q = this.db.selectFrom('events').selectAll()
    if (query.partnerId) q = q.where('partner_id', '=', query.partnerId)
    if (query.integrationIds)
      q = q.where('integration_id', 'in', query.integrationIds.length ? query.integrationIds : [''])
    if (query.integrationId) q = q.where('integration_id', '=', query.integrationId)
    if (query.correlationId) q = q.where('correlation_id', '=', query.correlationId)
    if (query.status) q = q.where('status', '=', query.status)
    if (query.event) q = q.where('event', '=', query.event)
    if (query.since) q = q.where('created_at', '>=', query.since)
    if (query.until) q = q.where('created_at', '<', query.until)
    if (query.beforeId) q = q.where('message_id', '<', query.beforeId)
    const rows = await q.orderBy('message_id', 'desc').limit(query.limit).execute()
    return rows.map(toEvent)
  }

  /** The newest `limit` events of one ticket, oldest first, and how many it has in all. */
  async forCorrelation(
    integrationId: string,
    correlationId: string,
    limit: number,
  ): Promise<{ events: AuditEvent[]; total: number }> {
    const ofTicket = this.db
      .selectFrom('events')
      .where('integration_id', '=', integrationId)
      .where('correlation_id', '=', correlationId)
    const [rows, count] = await Promise.all([
      ofTicket.selectAll().orderBy('message_id', 'desc').limit(limit).execute(),
      ofTicket.select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow(),
    ])
    return { events: rows.reverse().map(toEvent), total: Number(count.n) }
  }

  async counts(
    q: MetricsQuery,
  ): Promise<{ bucket: string; event: string; status: EventStatus; test: boolean; count: number }[]> {
    const bucket = sql<string>`substr(created_at, 1, ${sql.lit(q.bucketChars)})`
    let query = this.db
      .selectFrom('events')
      .select([bucket.as('bucket'), 'event', 'status', 'test', (eb) => eb.fn.countAll<number>().as('count')])
      .where('partner_id', '=', q.partnerId)
      .where('created_at', '>=', q.since)
      .where('created_at', '<', q.until)
    if (q.integrationId) query = query.where('integration_id', '=', q.integrationId)
    const rows = await query.groupBy([bucket, 'event', 'status', 'test']).orderBy(bucket).execute()
    return rows.map((r) => ({
      bucket: r.bucket,
      event: r.event,
      status: r.status as EventStatus,
      test: toBool(r.test),
      count: Number(r.count),
    }))
  }

  /** Events by integration, name and status over a time range (the integrations overview). */
  async countsByIntegration(
    partnerId: string,
    integrationIds: readonly string[],
    since: string,
    until: string,
  ): Promise<{ integrationId: string; event: string; status: EventStatus; test: boolean; count: number }[]> {
    if (integrationIds.length === 0) return []
    const rows = await this.db
      .selectFrom('events')
      .select(['integration_id', 'event', 'status', 'test', (eb) => eb.fn.countAll<number>().as('count')])
      .where('partner_id', '=', partnerId)
      .where('integration_id', 'in', integrationIds)
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .groupBy(['integration_id', 'event', 'status', 'test'])
      .execute()
    return rows.map((r) => ({
      integrationId: r.integration_id,
      event: r.event,
      status: r.status as EventStatus,
      test: toBool(r.test),
      count: Number(r.count),
    }))
  }

  /** Failed events grouped by their name and machine code, the most frequent first (test alerts apart). */
  async failureCauses(
    q: FailureQuery,
    limit: number,
  ): Promise<{ event: string; error: string | null; count: number; lastSeenAt: string }[]> {
    let query = this.db
      .selectFrom('events')
      .select([
        'event',
        'error',
        (eb) => eb.fn.countAll<number>().as('count'),
        (eb) => eb.fn.max('created_at').as('last_seen_at'),
      ])
      .where('partner_id', '=', q.partnerId)
      .where('status', '=', 'failed')
      .where('test', '=', 0)
      .where('created_at', '>=', q.since)
      .where('created_at', '<', q.until)
    if (q.integrationId) query = query.where('integration_id', '=', q.integrationId)
    const rows = await query
      .groupBy(['event', 'error'])
      .orderBy('count', 'desc')
      .orderBy('last_seen_at', 'desc')
      .limit(limit)
      .execute()
    return rows.map((r) => ({
      event: r.event,
      error: r.error,
      count: Number(r.count),
      lastSeenAt: String(r.last_seen_at),
    }))
  }

  /** The newest failed events of one cause (a name and a machine code, or none). */
  async failureExamples(
    q: FailureQuery & { event: string; error: string | null },
    limit: number,
  ): Promise<AuditEvent[]> {
    let query = this.db
      .selectFrom('events')
      .selectAll()
      .where('partner_id', '=', q.partnerId)
      .where('status', '=', 'failed')
      .where('event', '=', q.event)
      .where('error', q.error === null ? 'is' : '=', q.error)
      .where('test', '=', 0)
      .where('created_at', '>=', q.since)
      .where('created_at', '<', q.until)
    if (q.integrationId) query = query.where('integration_id', '=', q.integrationId)
    const rows = await query.orderBy('message_id', 'desc').limit(limit).execute()
    return rows.map(toEvent)
  }

  /**
   * When the integration's last alert call was recorded (not a change made in the PSA), or null: what
   * the vendor's integration list shows (docs/vendor-api.md#self-service).
   */
  async lastAlertAt(integrationId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('events')
      .select('created_at')
      .where('integration_id', '=', integrationId)
      .where('strategy', '!=', 'psa')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row?.created_at ?? null
  }
}

declare module '../platform/db/store.js' {
  interface Repositories {
    events: EventRepository
  }
}
defineRepository('events', (kysely) => new EventRepository(kysely))
