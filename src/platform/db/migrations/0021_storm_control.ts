// Storm control (docs/decision-table.md#storm, docs/partner-api.md#storm-control): an integration's
// storm settings (JSON; null: off), the incidents folded into a storm ticket, and the lines of the
// storm ticket's next batched note. A storm ticket is a row of `tickets` whose open de-duplication key
// is the account's storm key, so the table's unique key keeps one per account. Recent creates per
// account are counted on every OPEN while storm control is on: an index serves that count.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s.alterTable('integrations').addColumn('storm_settings', 'text').execute()
  await s
    .createIndex('tickets_account_created')
    .on('tickets')
    .columns(['integration_id', 'account_id', 'created_at'])
    .execute()
  await s
    .createTable('storm_alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('storm_ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    // The OPEN that folded it: one fold per message.
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    // The vendor's own correlationId, when it sent one.
    .addColumn('correlation_id', 'text')
    .addColumn('dedup_key', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    // open | resolved
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .execute()
  await s
    .createIndex('storm_alerts_ticket')
    .on('storm_alerts')
    .columns(['storm_ticket_id', 'status'])
    .execute()
  await s
    .createIndex('storm_alerts_correlation')
    .on('storm_alerts')
    .columns(['integration_id', 'correlation_id'])
    .execute()
  await s
    .createIndex('storm_alerts_key')
    .on('storm_alerts')
    .columns(['storm_ticket_id', 'dedup_key', 'status'])
    .execute()
  await s
    .createTable('storm_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('storm_ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    // The alert the line tells of: one line per message.
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // When a note (or the closing note) carried it; null while it waits for the next one.
    .addColumn('noted_at', 'text')
    .execute()
  await s
    .createIndex('storm_lines_ticket')
    .on('storm_lines')
    .columns(['storm_ticket_id', 'noted_at', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s.dropTable('storm_lines').execute()
  await s.dropTable('storm_alerts').execute()
  await s.dropIndex('tickets_account_created').execute()
  await s.alterTable('integrations').dropColumn('storm_settings').execute()
}
