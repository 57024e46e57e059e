// The tenants' tables: vendors, partners, integrations and their credentials, what vendors declare,
// partners' mappings, portal users and sessions, the operator audit.
// Each table joins the Database (src/platform/db/schema.ts) from here.
import type { Generated } from 'kysely'

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
  /** JSON: how to read a differently shaped catalogue answer (docs/decisions/catalogue/adapter.md); null = the contract's shape. */
  product_groups_mapping: string | null
  rate_limit_per_minute: number | null
  /** active | paused | disabled (docs/webhooks.md#gone, docs/webhooks.md#paused). */
  webhook_state: Generated<string>
  webhook_state_reason: string | null
  webhook_failing_since: string | null
  created_at: string
  updated_at: string
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
  /** Until when the vendor's CLI long-polls its events (docs/vendor-api.md#self-service). */
  listening_until: string | null
}

export interface PartnersTable {
  id: string
  name: string
  api_key_digest: string
  psa_kind: string
  psa_settings_enc: string
  created_at: string
  updated_at: string
  previous_api_key_digest: string | null
  previous_api_key_expires_at: string | null
  api_key_rotated_at: string | null
  disabled_at: string | null
  disabled_reason: string | null
  /** The vendor whose test partner this is (migration 0029_vendor_sandboxes); null: a real partner. */
  sandbox_vendor_id: string | null
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
  org_token_version: Generated<number>
  previous_org_token_digest: string | null
  previous_org_token_expires_at: string | null
  org_token_rotated_at: string | null
  /** refuse | reopen | new (docs/decision-table.md#closed-ticket-policy). */
  closed_ticket_policy: Generated<string>
  reopen_window_minutes: Generated<number>
  close_only_untouched: Generated<number>
  /** The catch-all account (migration 0022_catch_all, docs/decision-table.md#catch-all). */
  catch_all_enabled: Generated<number>
  catch_all_company_id: string | null
  catch_all_board: string | null
  /** JSON of the storm settings (docs/decision-table.md#storm); null: the defaults (off). */
  storm_settings: string | null
  /** Set once the integration has had a maintenance window (migration 0027_steps_in_use). */
  maintenance_in_use: Generated<number>
}

export interface VendorTokensTable {
  id: string
  vendor_id: string
  integration_id: string | null
  digest: string
  expires_at: string
  revoked_at: string | null
  created_at: string
  /** The generations of the client secret and organization token the token was issued under. */
  client_secret_version: Generated<number>
  org_token_version: Generated<number>
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
  /** The browser's User-Agent at sign-in, cut to 256 characters; null before 0025. */
  user_agent: string | null
  /** The client address at sign-in; null before 0025. */
  address: string | null
}

declare module '../platform/db/schema.js' {
  interface Database {
    vendors: VendorsTable
    partners: PartnersTable
    integrations: IntegrationsTable
    vendor_tokens: VendorTokensTable
    vendor_accounts: VendorAccountsTable
    vendor_services: VendorServicesTable
    account_mappings: AccountMappingsTable
    service_mappings: ServiceMappingsTable
    operator_audit: OperatorAuditTable
    partner_users: PartnerUsersTable
    partner_sessions: PartnerSessionsTable
  }
}
