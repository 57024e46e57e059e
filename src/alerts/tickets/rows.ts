// The tickets table's rows as the domain sees them, and the prepared writes of every create
// (docs/decisions/speed/prepared-outcome-writes.md). repository.ts is the repository that uses them.
import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Ticket, TicketRecord, TicketStatus } from '../../platform/core/types.js'
import { prepared, preparedRow } from '../../platform/db/prepared.js'
import { toBool } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import type { TicketsTable } from '../tables.js'

// The writes of every create, prepared (docs/decisions/speed/prepared-outcome-writes.md): the reservation
// with its clean-up of dead creators' reservations (by correlationId, or by it and the dedup key), and the
// completion.
const deadCreating = (db: Kysely<Database>, integrationId: string, now: string) =>
  db
    .deleteFrom('tickets')
    .where('integration_id', '=', integrationId)
    .where('status', '=', 'creating')
    .where('lease_until', '<', now)
export const deadByCorrelation = prepared(
  3,
  (db: Kysely<Database>, integrationId: string, now: string, correlationId: string) =>
    deadCreating(db, integrationId, now)
      .where('correlation_id', '=', correlationId)
      .returning('correlation_id'),
)
export const deadByCorrelationOrKey = prepared(
  4,
  (db: Kysely<Database>, integrationId: string, now: string, correlationId: string, key: string) =>
    deadCreating(db, integrationId, now)
      .where((eb) => eb.or([eb('correlation_id', '=', correlationId), eb('dedup_open_key', '=', key)]))
      .returning('correlation_id'),
)
export const insertReservation = preparedRow((db, row: Insertable<TicketsTable>) =>
  db
    .insertInto('tickets')
    .values(row)
    .onConflict((oc) => oc.doNothing()),
)
export const completed = prepared(3, (db: Kysely<Database>, id: string, psaTicketId: string, now: string) =>
  db
    .updateTable('tickets')
    .set({ status: 'open', psa_ticket_id: psaTicketId, lease_until: null, updated_at: now })
    .where('id', '=', id),
)

export function toTicket(r: Selectable<TicketsTable>): Ticket {
  return {
    id: r.id,
    correlationId: r.correlation_id,
    status: r.status as TicketStatus,
    accountId: r.account_id,
    productGroup: r.product_group,
    alertType: r.alert_type,
    title: r.title,
    ruleId: r.rule_id,
    psaKind: r.psa_kind,
    psaTicketId: r.psa_ticket_id,
    dedupKey: r.dedup_key,
    occurrenceCount: r.occurrence_count,
    leaseUntil: r.lease_until,
    lastOccurrenceAt: r.last_occurrence_at,
    createdAt: r.created_at,
    closedAt: r.closed_at,
    closedBy:
      r.closed_by === 'psa' || r.closed_by === 'alertbridge'
        ? r.closed_by
        : r.closed_at
          ? 'alertbridge'
          : null,
    psaStatus: r.psa_status,
    psaDeleted: r.psa_deleted_at !== null,
    catchAllCompanyId: r.catch_all_company_id,
    partnerTest: toBool(r.partner_test),
    batchedLines: toBool(r.batched_lines),
  }
}

export function toRecord(r: Selectable<TicketsTable>): TicketRecord {
  return {
    ...toTicket(r),
    integrationId: r.integration_id,
    partnerId: r.partner_id,
    updatedAt: r.updated_at,
    mergedFrom: r.merged_from,
    replacesTicketId: r.replaces_ticket_id,
  }
}
