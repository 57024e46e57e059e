// What an alert call ends in, as the contract records it (docs/decision-table.md): the row that applied,
// the contract's message, the HTTP status of the synchronous strategy and the audit event, with the names
// of every event the audit trail and the vendor's status_update carry. Types only: the constructors that
// make an outcome are the alert pipeline's (src/alerts/domain/outcome.ts).
import type { ErrorCode } from './errors.js'
import type { EventStatus } from './types.js'

export type RowId =
  | 'invalid-request'
  | 'bad-credentials'
  | 'rate-limited'
  | 'unknown-integration'
  | 'integration-not-active'
  | 'not-in-catalogue'
  | 'no-mapping-or-rule'
  | 'maintenance'
  | 'suppressed'
  | 'repeat'
  | 'reopen-refused'
  | 'reopen-closed'
  | 'replace-closed'
  | 'storm'
  | 'create'
  | 'catch-all'
  | 'missing-correlation-id'
  | 'ticket-not-found'
  | 'status-suppressed'
  | 'update'
  | 'update-closed'
  | 'self-healing-off'
  | 'partner-test-close'
  | 'already-closed'
  | 'close'
  | 'close-left-open'
  | 'psa-failed'
  | 'internal-error'

export type EventName =
  | 'Ticket Created'
  | 'Ticket Updated'
  | 'Ticket Closed'
  | 'Ticket Reopened'
  | 'Ticket Left Open'
  | 'Failed To Create Ticket'
  | 'Failed To Update Ticket'
  | 'Failed To Close Ticket'
  | 'Ticket Not Found'
  | 'Ticket Already Closed'
  | 'Self-Healing Disabled'
  | 'Alert Suppressed'
  | 'Suppressed By Maintenance Window'
  | 'Held By Maintenance Window'
  | 'Held Alert Dropped'
  | 'Alerting Disabled'
  | 'Invalid Alert'
  | 'Internal Error'

export type OutcomeMessage = 'created' | 'suppressed' | 'updated' | 'closed' | 'failed'

export interface Outcome {
  row: RowId
  message: OutcomeMessage
  httpStatus: number
  /** The audit event to store; null where nothing is stored (no tenant known yet). */
  event: { name: EventName; status: EventStatus } | null
  error: ErrorCode | null
  detail: string | null
  correlationId: string | null
  /** When to try again, where the PSA said (a throttled PSA call that did not fit the request's budget). */
  retryAfterSeconds?: number
}

/** What two-way sync finds changed in a PSA's ticket (src/psa-sync/psa-sync.ts). */
export type PsaChangeKind = 'closed' | 'reopened' | 'merged' | 'deleted'

/** The event of each change: its name in the audit trail and the vendor's status_update. */
export const psaChangeEvent: Record<PsaChangeKind, string> = {
  closed: 'Ticket Closed In PSA',
  reopened: 'Ticket Reopened In PSA',
  merged: 'Ticket Merged In PSA',
  deleted: 'Ticket Deleted In PSA',
}
