// Credentials rotated and revoked, tenants disabled, operator audit
// (docs/operations.md#credentials-disabled-tenants-and-the-audit-log). Each rotatable credential keeps the
// one it replaced beside it until an overlap window ends (previous_*_expires_at); the client secret and the
// organization token count their generations, and an access token records the generations it was issued
// under, so a token dies with the secret that minted it. A vendor or partner may be disabled. A job may be
// held for a key (a disabled tenant) and resumed by it. Every operator action is a row of operator_audit.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  const add = (table: string, column: string, type: 'text' | 'integer') =>
    s.alterTable(table).addColumn(column, type).execute()
  const generation = (table: string, column: string) =>
    s
      .alterTable(table)
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(1))
      .execute()

  await generation('vendors', 'client_secret_version')
  await add('vendors', 'previous_client_secret_digest', 'text')
  await add('vendors', 'previous_client_secret_expires_at', 'text')
  await add('vendors', 'client_secret_rotated_at', 'text')
  // Sealed like webhook_secret_enc (AES-256-GCM under SECRET_KEY).
  await add('vendors', 'previous_webhook_secret_enc', 'text')
  await add('vendors', 'previous_webhook_secret_expires_at', 'text')
  await add('vendors', 'webhook_secret_rotated_at', 'text')
  await add('vendors', 'disabled_at', 'text')
  await add('vendors', 'disabled_reason', 'text')

  await add('partners', 'previous_api_key_digest', 'text')
  await add('partners', 'previous_api_key_expires_at', 'text')
  await add('partners', 'api_key_rotated_at', 'text')
  await add('partners', 'disabled_at', 'text')
  await add('partners', 'disabled_reason', 'text')
  await s.createIndex('partners_previous_api_key').on('partners').column('previous_api_key_digest').execute()

  await generation('integrations', 'org_token_version')
  await add('integrations', 'previous_org_token_digest', 'text')
  await add('integrations', 'previous_org_token_expires_at', 'text')
  await add('integrations', 'org_token_rotated_at', 'text')
  await s
    .createIndex('integrations_previous_org_token')
    .on('integrations')
    .column('previous_org_token_digest')
    .execute()

  await generation('vendor_tokens', 'client_secret_version')
  await generation('vendor_tokens', 'org_token_version')

  await add('jobs', 'hold_key', 'text')
  await s.createIndex('jobs_hold_key').on('jobs').column('hold_key').execute()

  await s
    .createTable('operator_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('operator_audit_target').on('operator_audit').columns(['target_id', 'id']).execute()
  await s.createIndex('operator_audit_action').on('operator_audit').columns(['action', 'id']).execute()
  await s.createIndex('operator_audit_at').on('operator_audit').column('at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s.dropTable('operator_audit').execute()
  await s.dropIndex('jobs_hold_key').execute()
  await s.alterTable('jobs').dropColumn('hold_key').execute()
  for (const c of ['client_secret_version', 'org_token_version'])
    await s.alterTable('vendor_tokens').dropColumn(c).execute()
  await s.dropIndex('integrations_previous_org_token').execute()
  for (const c of [
    'org_token_version',
    'previous_org_token_digest',
    'previous_org_token_expires_at',
    'org_token_rotated_at',
  ])
    await s.alterTable('integrations').dropColumn(c).execute()
  await s.dropIndex('partners_previous_api_key').execute()
  for (const c of [
    'previous_api_key_digest',
    'previous_api_key_expires_at',
    'api_key_rotated_at',
    'disabled_at',
    'disabled_reason',
  ])
    await s.alterTable('partners').dropColumn(c).execute()
  for (const c of [
    'client_secret_version',
    'previous_client_secret_digest',
    'previous_client_secret_expires_at',
    'client_secret_rotated_at',
    'previous_webhook_secret_enc',
    'previous_webhook_secret_expires_at',
    'webhook_secret_rotated_at',
    'disabled_at',
    'disabled_reason',
  ])
    await s.alterTable('vendors').dropColumn(c).execute()
}
