// Row types of every table, and the database as Kysely sees it. Booleans are stored as 0/1 integers
// and timestamps as ISO-8601 UTC text, so that SQLite and PostgreSQL run the same queries; repositories
// convert at the edge. The tables' columns are in tables/tenants.ts (configuration and credentials)
// and tables/work.ts (tickets, jobs, deliveries); a migration's columns join their table there.

import type { MaintenanceHeldTable, MaintenanceWindowsTable } from '../../alerts/steps/maintenance/tables.js'
import type { StormAlertsTable, StormLinesTable } from '../../alerts/steps/storm/tables.js'
import type {
  AccountMappingsTable,
  IntegrationsTable,
  OperatorAuditTable,
  PartnerSessionsTable,
  PartnersTable,
  PartnerUsersTable,
  PsaSyncPendingTable,
  PsaSyncTable,
  RulesTable,
  ServiceLineMappingsTable,
  ServiceMappingsTable,
  SettingsTable,
  UsageCountsTable,
  UsagePushesTable,
  VendorAccountsTable,
  VendorServicesTable,
  VendorsTable,
  VendorTokensTable,
} from './tables/tenants.js'
import type {
  CountersTable,
  EventsTable,
  IdempotencyKeysTable,
  JobsTable,
  PsaEffectsTable,
  SandboxBillingLinesTable,
  SandboxFaultsTable,
  SandboxNotesTable,
  SandboxTicketsTable,
  TicketsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
} from './tables/work.js'

export type * from './tables/tenants.js'
export type * from './tables/work.js'

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
  operator_audit: OperatorAuditTable
  partner_users: PartnerUsersTable
  partner_sessions: PartnerSessionsTable
  psa_sync: PsaSyncTable
  psa_sync_pending: PsaSyncPendingTable
  idempotency_keys: IdempotencyKeysTable
  maintenance_windows: MaintenanceWindowsTable
  maintenance_held: MaintenanceHeldTable
  storm_alerts: StormAlertsTable
  storm_lines: StormLinesTable
}
