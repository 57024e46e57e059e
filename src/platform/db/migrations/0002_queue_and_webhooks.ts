// The durable job queue of the embedded deployment and the webhook outbox (docs/architecture.md,
// docs/webhooks.md#at-least-once). A queued job's `run_at` doubles as its visibility timeout: claiming a
// job moves `run_at` to the end of the lease, so a job whose worker died becomes due again by itself and
// one index serves both.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    // Set while queued for jobs that coalesce (one state snapshot per integration); cleared on claim.
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('jobs_due').on('jobs').columns(['run_at', 'id']).execute()

  await s
    .alterTable('vendors')
    .addColumn('webhook_state', 'text', (c) => c.notNull().defaultTo('active'))
    .execute()
  await s.alterTable('vendors').addColumn('webhook_state_reason', 'text').execute()
  await s.alterTable('vendors').addColumn('webhook_failing_since', 'text').execute()

  await s
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vendor_id', 'text', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('partner_id', 'text')
    .addColumn('integration_id', 'text')
    .addColumn('message_id', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('dead_at', 'text')
    .execute()
  await s
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'run_at'])
    .execute()
  // The dispatcher reads each endpoint's oldest due delivery: one index range per vendor.
  await s
    .createIndex('webhook_deliveries_vendor_due')
    .on('webhook_deliveries')
    .columns(['vendor_id', 'status', 'run_at'])
    .execute()
  await s
    .createIndex('webhook_deliveries_partner')
    .on('webhook_deliveries')
    .columns(['partner_id', 'id'])
    .execute()
  await s
    .createIndex('webhook_deliveries_vendor')
    .on('webhook_deliveries')
    .columns(['vendor_id', 'id'])
    .execute()

  await s
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .addColumn('next_attempt_at', 'text')
    .execute()
  await s
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'number'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute()
  await db.schema.dropTable('webhook_deliveries').execute()
  await db.schema.dropTable('jobs').execute()
  for (const column of ['webhook_failing_since', 'webhook_state_reason', 'webhook_state']) {
    await db.schema.alterTable('vendors').dropColumn(column).execute()
  }
}
