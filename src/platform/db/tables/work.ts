// The tables of the work the service does: tickets and their events, the job queue, webhook deliveries
// and their attempts, PSA effects written before their PSA call, counters, and the sandbox PSA's own
// tickets. Conventions: schema.ts.
import type { Generated } from 'kysely'

export interface TicketsTable {
  id: string
  integration_id: string
  partner_id: string
  correlation_id: string
  status: string
  account_id: string
  product_group: string
  alert_type: string
  title: string
  rule_id: string
  psa_kind: string
  psa_ticket_id: string | null
  dedup_key: string
  dedup_open_key: string | null
  occurrence_count: number
  lease_until: string | null
  last_occurrence_at: string
  created_at: string
  updated_at: string
  closed_at: string | null
  /** alertbridge | psa (docs/psa/sync.md); null while open or before migration 0015. */
  closed_by: string | null
  /** The PSA's status name as alertbridge last read it. */
  psa_status: string | null
  psa_deleted_at: string | null
  /** The PSA ticket id this one followed away from when the PSA merged it. */
  merged_from: string | null
  /** When the poll (or a push) last read the ticket back from the PSA. */
  psa_checked_at: string | null
  /** The closed ticket a `new` closed-ticket policy replaced with this one. */
  replaces_ticket_id: string | null
  /** Two-way sync leaves the ticket alone until then: an alert's close or reopen is being retried. */
  sync_hold_until: string | null
  /** A catch-all ticket: the fallback PSA company it went to (migration 0022_catch_all). */
  catch_all_company_id: string | null
  /** 1: a partner's test ticket, of which the vendor hears nothing (migration 0024_partner_test_tickets). */
  partner_test: Generated<number>
}

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

export interface CountersTable {
  name: string
  value: number
}

export interface JobsTable {
  id: string
  kind: string
  dedupe_key: string | null
  payload: string
  attempts: number
  run_at: string
  lease_token: string | null
  last_error: string | null
  /** Set when the job is dead: its payload does not fit its kind (last_error says why). */
  failed_at: string | null
  /** Jobs of one group (an alert job: its partner) are held to a number in flight at once. */
  group_key: string | null
  created_at: string
  /** Set while the job waits for its key (a disabled tenant) to be resumed. */
  hold_key: Generated<string | null>
  /** Runs that only waited as they were asked to (migration 0012_job_waits): not counted as failures. */
  waits: Generated<number>
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

export interface PsaEffectsTable {
  message_id: string
  integration_id: string
  ticket_id: string
  correlation_id: string
  psa_ticket_id: string
  row: string
  strategy: string
  request_digest: string
  orphaned_at: string | null
  created_at: string
}

export interface SandboxTicketsTable {
  id: string
  partner_id: string
  company_id: string
  board: string | null
  priority: string | null
  type: string | null
  status: string
  summary: string
  description: string
  created_at: string
  updated_at: string
  closed_at: string | null
  /** The correlationId the ticket was created for (the sandbox's externalXRef). */
  external_ref: string | null
}

export interface SandboxNotesTable {
  id: string
  partner_id: string
  ticket_id: string
  text: string
  created_at: string
}

export interface SandboxFaultsTable {
  partner_id: string
  mode: string
  operations: string
  remaining: number | null
  created_at: string
}

/** The sandbox PSA's billing lines with a quantity set (the others are at 0). */
export interface SandboxBillingLinesTable {
  partner_id: string
  line_id: string
  quantity: number
  updated_at: string
}

/** An idempotency key a vendor sent (migration 0017_idempotency_keys; docs/vendor-api.md#idempotency-keys). */
export interface IdempotencyKeysTable {
  id: string
  vendor_id: string
  /** The method and the route's path pattern. */
  scope: string
  idempotency_key: string
  fingerprint: string
  /** running | done */
  status: string
  locked_until: string | null
  response_status: number | null
  response_headers: string | null
  response_body_enc: string | null
  created_at: string
  expires_at: string
}
