// Row types of every table. Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC text,
// so that SQLite and PostgreSQL run the same queries; repositories convert at the edge.
import type { Generated } from 'kysely'
import type { UsagePushStatus } from '../domain/usage-push.js'

export interface SettingsTable {
  key: string
  value: string
}

export interface VendorsTable {
  id: string
  name: string
  client_id: string
  client_secret_digest: string
  webhook_url: string | null
  webhook_secret_enc: string | null
  webhook_auth_header_enc: string | null
  product_groups: string | null
  product_groups_url: string | null
  /** JSON: how to read a differently shaped catalogue answer (spec §4.7); null = as specified. */
  product_groups_mapping: string | null
  rate_limit_per_minute: number | null
  /** active | paused | disabled (DESIGN §4: 410 disables, 5 days of failures pause). */
  webhook_state: Generated<string>
  webhook_state_reason: string | null
  webhook_failing_since: string | null
  created_at: string
  updated_at: string
}

export interface PartnersTable {
  id: string
  name: string
  api_key_digest: string
  psa_kind: string
  psa_settings_enc: string
  created_at: string
  updated_at: string
}

export interface IntegrationsTable {
  id: string
  vendor_id: string
  partner_id: string
  org_token_digest: string
  state: string
  alerts_enabled: number
  ticket_creation: number
  self_healing: number
  dedup_enabled: number
  dedup_key_fields: string
  dedup_window_minutes: number | null
  mapping_completed_at: string | null
  connected_at: string | null
  /** Encrypted JSON: the credentials for the vendor's catalogue endpoint, set by the partner. */
  vendor_credentials_enc: string | null
  created_at: string
  updated_at: string
}

export interface VendorTokensTable {
  id: string
  vendor_id: string
  integration_id: string | null
  digest: string
  expires_at: string
  revoked_at: string | null
  created_at: string
}

export interface VendorAccountsTable {
  integration_id: string
  vendor_account_id: string
  name: string
  external_id: string
  created_at: string
  updated_at: string
}

export interface VendorServicesTable {
  integration_id: string
  service_id: string
  name: string
  description: string
  created_at: string
  updated_at: string
}

export interface UsageCountsTable {
  id: string
  integration_id: string
  service_id: string
  account_id: string
  unit_count: number
  created_at: string
}

export interface AccountMappingsTable {
  integration_id: string
  account_id: string
  psa_company_id: string
  board: string | null
  created_at: string
  updated_at: string
}

export interface ServiceMappingsTable {
  integration_id: string
  service_id: string
  psa_product_id: string
  created_at: string
  updated_at: string
}

/** A vendor service mapped, for one account, to a billing line of the PSA (issue 12). */
export interface ServiceLineMappingsTable {
  integration_id: string
  service_id: string
  account_id: string
  psa_line_id: string
  created_at: string
  updated_at: string
}

/** The last push of a service's usage for one account to the PSA (issue 12). */
export interface UsagePushesTable {
  integration_id: string
  service_id: string
  account_id: string
  usage_id: string
  unit_count: number
  status: UsagePushStatus
  psa_line_id: string | null
  previous_quantity: number | null
  attempts: Generated<number>
  detail: string | null
  updated_at: string
  pushed_count: number | null
  pushed_at: string | null
}

/** The sandbox PSA's billing lines with a quantity set (the others are at 0). */
export interface SandboxBillingLinesTable {
  partner_id: string
  line_id: string
  quantity: number
  updated_at: string
}

export interface RulesTable {
  id: string
  integration_id: string
  precedence: number
  enabled: number
  product_group: string
  alert_types: string
  action: string
  suppress_statuses: string
  ticket_board: string | null
  ticket_priority: string | null
  ticket_type: string | null
  ticket_status: string | null
  ticket_closed_status: string | null
  created_at: string
  updated_at: string
}

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
  run_at: string
  lease_token: string | null
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

export interface Database {
  settings: SettingsTable
  vendors: VendorsTable
  partners: PartnersTable
  integrations: IntegrationsTable
  vendor_tokens: VendorTokensTable
  vendor_accounts: VendorAccountsTable
  vendor_services: VendorServicesTable
  usage_counts: UsageCountsTable
  account_mappings: AccountMappingsTable
  service_mappings: ServiceMappingsTable
  service_line_mappings: ServiceLineMappingsTable
  usage_pushes: UsagePushesTable
  sandbox_billing_lines: SandboxBillingLinesTable
  rules: RulesTable
  tickets: TicketsTable
  events: EventsTable
  sandbox_tickets: SandboxTicketsTable
  sandbox_notes: SandboxNotesTable
  sandbox_faults: SandboxFaultsTable
  counters: CountersTable
  jobs: JobsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  psa_effects: PsaEffectsTable
}

// Issue 10 §3 (migration 0007_credentials): rotation with an overlap window, disabled tenants, held
// jobs and the operator audit log. Declared as a block of its own (interface merging adds these
// columns to the tables above) so that it stays one self-contained change.

export interface VendorsTable {
  /** Counts rotations: an access token carries the generation it was issued under. */
  client_secret_version: Generated<number>
  previous_client_secret_digest: string | null
  previous_client_secret_expires_at: string | null
  client_secret_rotated_at: string | null
  /** Sealed like webhook_secret_enc; deliveries carry its signature too until it expires. */
  previous_webhook_secret_enc: string | null
  previous_webhook_secret_expires_at: string | null
  webhook_secret_rotated_at: string | null
  disabled_at: string | null
  disabled_reason: string | null
}

export interface PartnersTable {
  previous_api_key_digest: string | null
  previous_api_key_expires_at: string | null
  api_key_rotated_at: string | null
  disabled_at: string | null
  disabled_reason: string | null
}

export interface IntegrationsTable {
  org_token_version: Generated<number>
  previous_org_token_digest: string | null
  previous_org_token_expires_at: string | null
  org_token_rotated_at: string | null
}

export interface VendorTokensTable {
  /** The generations of the client secret and organization token the token was issued under. */
  client_secret_version: Generated<number>
  org_token_version: Generated<number>
}

export interface JobsTable {
  /** Set while the job waits for its key (a disabled tenant) to be resumed. */
  hold_key: Generated<string | null>
  /** Runs that only waited as they were asked to (migration 0012_job_waits): not counted as failures. */
  waits: Generated<number>
}

/** One operator action (or a tenant's rotation of its own credential), written in the action's transaction. */
export interface OperatorAuditTable {
  id: string
  at: string
  /** operator | vendor | partner */
  actor_kind: string
  /** A stable identifier of the credential used, never the credential (op_… for the admin token). */
  actor: string
  request_id: string | null
  action: string
  target_type: string
  target_id: string
  /** JSON; never a secret. */
  summary: string
}

export interface Database {
  operator_audit: OperatorAuditTable
}

// Issue 13 (migration 0011_portal_users): the partner portal's users and their sessions, and the
// machine code of a failed event.

/** A person of a partner who signs in to the portal (admin or viewer). */
export interface PartnerUsersTable {
  id: string
  partner_id: string
  /** Trimmed and lower-cased; unique across partners. */
  email: string
  name: string | null
  role: string
  /** Null until the invite is accepted (or after a reset). */
  password_hash: string | null
  invite_digest: string | null
  invite_expires_at: string | null
  disabled_at: string | null
  last_sign_in_at: string | null
  created_at: string
  updated_at: string
}

/** A signed-in portal session; its id is the SHA-256 of the cookie's value. */
export interface PartnerSessionsTable {
  id: string
  user_id: string
  created_at: string
  expires_at: string
  last_seen_at: string
}

export interface EventsTable {
  /** The outcome's machine code (e.g. ACCOUNT_NOT_MAPPED); null on success and on older events. */
  error: string | null
}

export interface Database {
  partner_users: PartnerUsersTable
  partner_sessions: PartnerSessionsTable
}
