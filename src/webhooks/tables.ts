// The audit trail's events and the webhook deliveries with their attempts (docs/webhooks.md).
// Each table joins the Database (src/platform/db/schema.ts) from here.
import type { Generated } from 'kysely'

export interface EventsTable {
  message_id: string
  partner_id: string
  vendor_id: string
  integration_id: string
  correlation_id: string | null
  event: string
  status: string
  http_status: number
  incident_status: string | null
  strategy: string
  request: string | null
  detail: string | null
  created_at: string
  /** The outcome's machine code (e.g. ACCOUNT_NOT_MAPPED); null on success and on older events. */
  error: string | null
  /** 1: a test alert's event (migration 0019_test_alerts). */
  test: Generated<number>
  /** The alert's accountId (migration 0022_catch_all); null on older events and on the PSA's. */
  account_id: string | null
}

export interface WebhookDeliveriesTable {
  id: string
  vendor_id: string
  partner_id: string | null
  integration_id: string | null
  message_id: string | null
  event_type: string
  body: string
  status: string
  failed_attempts: number
  attempt_count: number
  manual: number
  /** When the next attempt is due (its delivery job runs it: migration 0014_delivery_jobs). */
  run_at: string
  last_status: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  delivered_at: string | null
  dead_at: string | null
}

export interface WebhookAttemptsTable {
  id: string
  delivery_id: string
  number: number
  trigger: string
  url: string
  started_at: string
  duration_ms: number
  status_code: number | null
  error: string | null
  response_body: string | null
  next_attempt_at: string | null
}

declare module '../platform/db/schema.js' {
  interface Database {
    events: EventsTable
    webhook_deliveries: WebhookDeliveriesTable
    webhook_attempts: WebhookAttemptsTable
  }
}
