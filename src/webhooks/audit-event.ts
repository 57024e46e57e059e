// The audit log's record of one alert call (the event of docs/architecture.md#the-data-model).
import type { EventStatus, IncidentStatus } from '../platform/core/types.js'

/** How the event came: a vendor's alert by either strategy, or (psa) a change made in the PSA that
 * two-way sync heard (docs/psa/sync.md). */
export type Strategy = 'sync' | 'webhook' | 'psa'

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
  /** A test alert's event (docs/vendor-api.md#test-tenancies-and-test-alerts); false before migration 0019. */
  test?: boolean
  /** The outcome's machine code (e.g. ACCOUNT_NOT_MAPPED); null on success and on events recorded before
   * migration 0011_portal_users added it. */
  error?: string | null
  /** The alert's accountId (docs/partner-api.md#catch-all-account); null on events before migration 0022. */
  accountId?: string | null
  createdAt: string
}
