// The audit log: append-only, one row per alert call once its tenant is known.
import { type Kysely, type Selectable, sql } from 'kysely'
import type { EventStatus, IncidentStatus } from '../../domain/types.js'
import type { Database, EventsTable } from '../schema.js'

export type Strategy = 'sync' | 'webhook'

export interface AuditEvent {
  messageId: string
  partnerId: string
  vendorId: string
  integrationId: string
  correlationId: string | null
  event: string
  status: EventStatus
  httpStatus: number
  incidentStatus: IncidentStatus | null
  strategy: Strategy
  /** The alert as received, credentials removed. */
  request: unknown
  detail: string | null
  createdAt: string
}

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

export class EventRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: AuditEvent): Promise<void> {
    await this.db
      .insertInto('events')
      .values({
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
        created_at: e.createdAt,
      })
      .execute()
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

  /** The whole history of one ticket, oldest first. */
  async forCorrelation(integrationId: string, correlationId: string): Promise<AuditEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('correlation_id', '=', correlationId)
      .orderBy('message_id')
      .execute()
    return rows.map(toEvent)
  }

  async counts(
    q: MetricsQuery,
  ): Promise<{ bucket: string; event: string; status: EventStatus; count: number }[]> {
    const bucket = sql<string>`substr(created_at, 1, ${sql.lit(q.bucketChars)})`
    let query = this.db
      .selectFrom('events')
      .select([bucket.as('bucket'), 'event', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('partner_id', '=', q.partnerId)
      .where('created_at', '>=', q.since)
      .where('created_at', '<', q.until)
    if (q.integrationId) query = query.where('integration_id', '=', q.integrationId)
    const rows = await query.groupBy([bucket, 'event', 'status']).orderBy(bucket).execute()
    return rows.map((r) => ({
      bucket: r.bucket,
      event: r.event,
      status: r.status as EventStatus,
      count: Number(r.count),
    }))
  }
}
