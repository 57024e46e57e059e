// The statements every delivery runs, prepared once (docs/decisions/speed/hot-reads-prepared.md): its
// insert in the outcome's write, the delivery job's first read with its endpoint, and each attempt's
// record and row. deliveries-repository.ts is the repository that runs them.
import { type Insertable, type Kysely, sql } from 'kysely'
import { prepared, preparedResult, preparedRow } from '../platform/db/prepared.js'
import type { Database } from '../platform/db/schema.js'
import { sealedEndpointColumns } from '../tenants/index.js'
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from './tables.js'

/**
 * `status` hidden from the planner, for statements that name their rows by id: SQLite (which keeps no
 * statistics here) would otherwise walk an index on status through every pending delivery instead of
 * looking the id up, so the cost grew with the backlog (520 µs for 8 of 5,000 pending, 20 µs by id).
 * PostgreSQL plans the same text by the primary key.
 */
const statusByScan = sql<string>`(${sql.ref('status')} || '')`

/** The vendor's columns a delivery's attempt depends on (DeliveryEndpoint). */
export const endpointColumns = [
  'disabled_at',
  'webhook_url',
  'webhook_state',
  'webhook_failing_since',
] as const

export const insertDelivery = preparedRow((db, row: Insertable<WebhookDeliveriesTable>) =>
  db
    .insertInto('webhook_deliveries')
    .values(row)
    .onConflict((oc) => oc.column('message_id').doNothing()),
)

/** Every column an attempt needs from the vendor: the endpoint's state, and its URL and sealed secrets. */
const attemptColumns = [...new Set([...endpointColumns, ...sealedEndpointColumns])]

/** The delivery job's one read: the delivery, its endpoint's state, and what it is sent with. */
export const deliveryWithEndpoint = prepared(1, (db: Kysely<Database>, id: string) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('vendors as v', 'v.id', 'd.vendor_id')
    .selectAll('d')
    .select(attemptColumns.map((c) => `v.${c}` as const))
    .where('d.id', '=', id),
)

/** The delivery's new state, only if it is still pending at the attempt count it was read with. */
export const attemptRecorded = preparedResult(
  10,
  (
    db: Kysely<Database>,
    status: string,
    failedAttempts: number,
    runAt: string,
    lastStatus: number | null,
    lastError: string | null,
    now: string,
    deliveredAt: string | null,
    deadAt: string | null,
    id: string,
    attemptCount: number,
  ) =>
    db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status,
        failed_attempts: failedAttempts,
        attempt_count: eb('attempt_count', '+', 1),
        run_at: runAt,
        manual: 0, // an attempt ends a replay: a failed replay is dead, never pending (judgeAttempt)
        last_status: lastStatus,
        last_error: lastError,
        updated_at: now,
        delivered_at: deliveredAt,
        dead_at: deadAt,
      }))
      .where('id', '=', id)
      .where(statusByScan, '=', 'pending')
      .where('attempt_count', '=', attemptCount),
)

export const insertAttempt = preparedRow((db, row: Insertable<WebhookAttemptsTable>) =>
  db.insertInto('webhook_attempts').values(row),
)
