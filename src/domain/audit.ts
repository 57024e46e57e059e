// The audit log's record of one alert call (DESIGN §2 Event).
import type { EventStatus, IncidentStatus } from './types.js'

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
  /** The outcome's machine code (e.g. ACCOUNT_NOT_MAPPED); null on success and on events before issue 13. */
  error?: string | null
  createdAt: string
}
