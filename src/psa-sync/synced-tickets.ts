// The tickets as two-way sync reads them (docs/psa/sync.md): the columns it selects and their shape
// (psa-sync.ts reads them).
import type { Selectable } from 'kysely'
import type { TicketsTable } from '../alerts/index.js'
import type { TicketStatus } from '../platform/core/types.js'
import { toBool } from '../platform/db/rows.js'

/** An open (or closed) alertbridge ticket as sync reads it. */
export interface SyncedTicket {
  id: string
  integrationId: string
  partnerId: string
  correlationId: string
  status: TicketStatus
  psaTicketId: string | null
  psaDeleted: boolean
  /** Sync leaves it alone until then (an alert's close or reopen is being retried). */
  psaSyncHoldUntil: string | null
  /** The ticket's last change here: a PSA read that began before it may predate it. */
  updatedAt: string
  /** A partner's test ticket (docs/partner-api.md#test-alerts): the vendor hears nothing of its changes. */
  partnerTest: boolean
}

export const syncedColumns = [
  'id',
  'integration_id',
  'partner_id',
  'correlation_id',
  'status',
  'psa_ticket_id',
  'psa_deleted_at',
  'sync_hold_until',
  'updated_at',
  'partner_test',
] as const

export function toSynced(r: Pick<Selectable<TicketsTable>, (typeof syncedColumns)[number]>): SyncedTicket {
  return {
    id: r.id,
    integrationId: r.integration_id,
    partnerId: r.partner_id,
    correlationId: r.correlation_id,
    status: r.status as TicketStatus,
    psaTicketId: r.psa_ticket_id,
    psaDeleted: r.psa_deleted_at !== null,
    psaSyncHoldUntil: r.sync_hold_until,
    updatedAt: r.updated_at,
    partnerTest: toBool(r.partner_test),
  }
}

/** The PSA ticket ids of these tickets, each once (a ticket not yet created in the PSA has none). */
export function psaIdsOf(tickets: readonly SyncedTicket[]): string[] {
  return [...new Set(tickets.flatMap((t) => (t.psaTicketId ? [t.psaTicketId] : [])))]
}
