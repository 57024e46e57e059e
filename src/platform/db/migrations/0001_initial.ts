// The first schema. Column types are the ones SQLite and PostgreSQL both understand; partial indexes
// are avoided: a ticket's dedup_open_key is NULL once it closes, and NULLs never collide in a unique index.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()

  await s
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute()

  await s
    .createTable('vendors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_digest', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret_enc', 'text')
    .addColumn('webhook_auth_header_enc', 'text')
    .addColumn('product_groups', 'text')
    .addColumn('product_groups_url', 'text')
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await s
    .createTable('partners')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_key_digest', 'text', (c) => c.notNull().unique())
    .addColumn('psa_kind', 'text', (c) => c.notNull())
    .addColumn('psa_settings_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await s
    .createTable('integrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vendor_id', 'text', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('org_token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('alerts_enabled', 'integer', (c) => c.notNull())
    .addColumn('ticket_creation', 'integer', (c) => c.notNull())
    .addColumn('self_healing', 'integer', (c) => c.notNull())
    .addColumn('dedup_enabled', 'integer', (c) => c.notNull())
    .addColumn('dedup_key_fields', 'text', (c) => c.notNull())
    .addColumn('dedup_window_minutes', 'integer')
    .addColumn('mapping_completed_at', 'text')
    .addColumn('connected_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('integrations_vendor_partner', ['vendor_id', 'partner_id'])
    .execute()
  await s.createIndex('integrations_partner').on('integrations').column('partner_id').execute()

  await s
    .createTable('vendor_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vendor_id', 'text', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('integration_id', 'text', (c) => c.references('integrations.id').onDelete('cascade'))
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('vendor_tokens_vendor').on('vendor_tokens').column('vendor_id').execute()

  await s
    .createTable('vendor_accounts')
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('vendor_account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('vendor_accounts_pk', ['integration_id', 'vendor_account_id'])
    .execute()

  await s
    .createTable('vendor_services')
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('vendor_services_pk', ['integration_id', 'service_id'])
    .execute()

  await s
    .createTable('usage_counts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('unit_count', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await s
    .createIndex('usage_counts_key')
    .on('usage_counts')
    .columns(['integration_id', 'service_id', 'account_id', 'id'])
    .execute()

  await s
    .createTable('account_mappings')
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('psa_company_id', 'text', (c) => c.notNull())
    .addColumn('board', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_mappings_pk', ['integration_id', 'account_id'])
    .execute()

  await s
    .createTable('rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('precedence', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('product_group', 'text', (c) => c.notNull())
    .addColumn('alert_types', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('suppress_statuses', 'text', (c) => c.notNull())
    .addColumn('ticket_board', 'text')
    .addColumn('ticket_priority', 'text')
    .addColumn('ticket_type', 'text')
    .addColumn('ticket_status', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('rules_integration').on('rules').columns(['integration_id', 'precedence']).execute()

  await s
    .createTable('tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('product_group', 'text', (c) => c.notNull())
    .addColumn('alert_type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('psa_kind', 'text', (c) => c.notNull())
    .addColumn('psa_ticket_id', 'text')
    .addColumn('dedup_key', 'text', (c) => c.notNull())
    .addColumn('dedup_open_key', 'text')
    .addColumn('occurrence_count', 'integer', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('last_occurrence_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addUniqueConstraint('tickets_correlation', ['integration_id', 'correlation_id'])
    .addUniqueConstraint('tickets_open_dedup', ['integration_id', 'dedup_open_key'])
    .execute()
  await s.createIndex('tickets_partner').on('tickets').columns(['partner_id', 'id']).execute()
  await s.createIndex('tickets_integration').on('tickets').columns(['integration_id', 'id']).execute()

  await s
    .createTable('events')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('vendor_id', 'text', (c) => c.notNull())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('correlation_id', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer', (c) => c.notNull())
    .addColumn('incident_status', 'text')
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('request', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('events_partner').on('events').columns(['partner_id', 'message_id']).execute()
  await s
    .createIndex('events_correlation')
    .on('events')
    .columns(['integration_id', 'correlation_id', 'message_id'])
    .execute()

  await s
    .createTable('sandbox_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('board', 'text')
    .addColumn('priority', 'text')
    .addColumn('type', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .execute()
  await s.createIndex('sandbox_tickets_partner').on('sandbox_tickets').columns(['partner_id', 'id']).execute()

  // Notes are rows of their own: appending never rewrites the ticket, so concurrent notes all stay.
  await s
    .createTable('sandbox_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('sandbox_tickets.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('sandbox_notes_ticket').on('sandbox_notes').columns(['ticket_id', 'id']).execute()

  await s
    .createTable('sandbox_faults')
    .addColumn('partner_id', 'text', (c) => c.primaryKey())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('operations', 'text', (c) => c.notNull())
    .addColumn('remaining', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'sandbox_faults',
    'sandbox_notes',
    'sandbox_tickets',
    'events',
    'tickets',
    'rules',
    'account_mappings',
    'usage_counts',
    'vendor_services',
    'vendor_accounts',
    'vendor_tokens',
    'integrations',
    'partners',
    'vendors',
    'counters',
    'settings',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
