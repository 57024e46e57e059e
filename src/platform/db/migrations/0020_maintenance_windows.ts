// Maintenance windows (docs/partner-api.md#maintenance-windows): each integration's windows, and the
// alerts a window in hold mode keeps until its end (released by the maintenance job, so a restart
// loses none).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .createTable('maintenance_windows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    // JSON: the schedule (one-off or recurring) and the scope, as src/alerts/steps/maintenance/maintenance.ts has them.
    .addColumn('schedule', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    // A one-off window's end, for retention; null for a recurring one.
    .addColumn('ends_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await s
    .createIndex('maintenance_windows_integration')
    .on('maintenance_windows')
    .columns(['integration_id', 'created_at'])
    .execute()
  // Retention prunes one-off windows by their end.
  await s.createIndex('maintenance_windows_ends_at').on('maintenance_windows').column('ends_at').execute()
  await s
    .createTable('maintenance_held')
    // uuidv7: ids sort in the order the alerts were held, the order they are released in.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    // No foreign key: a deleted window's held alerts are released, not lost.
    .addColumn('window_id', 'text', (c) => c.notNull())
    .addColumn('window_name', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('release_message_id', 'text', (c) => c.notNull())
    .addColumn('vendor_id', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('new_correlation_id', 'text', (c) => c.notNull())
    .addColumn('release_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await s
    .createIndex('maintenance_held_window')
    .on('maintenance_held')
    .columns(['window_id', 'release_at'])
    .execute()
  await s
    .createIndex('maintenance_held_correlation')
    .on('maintenance_held')
    .columns(['integration_id', 'correlation_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('maintenance_held').execute()
  await db.schema.dropTable('maintenance_windows').execute()
}
