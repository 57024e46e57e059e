// Which optional alert steps an integration or a ticket uses, kept on the rows every alert reads
// already, so that an alert whose integration uses none of them runs no query for them
// (docs/performance.md#what-an-alert-pays-for-2026-12-02):
// - integrations.maintenance_in_use: set once the integration has had a maintenance window
//   (src/alerts/steps/maintenance/repository.ts); until then no alert reads windows or held alerts;
// - tickets.batched_lines: set once a note line waits for a batched note on the ticket
//   (src/alerts/steps/storm/repository.ts); until then its RESOLVED reads no waiting lines.
// Rows from before are marked from what they hold now.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('integrations')
    .addColumn('maintenance_in_use', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('tickets')
    .addColumn('batched_lines', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`update integrations set maintenance_in_use = 1
    where id in (select integration_id from maintenance_windows)
       or id in (select integration_id from maintenance_held)`.execute(db)
  await sql`update tickets set batched_lines = 1
    where id in (select storm_ticket_id from storm_lines where noted_at is null)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tickets').dropColumn('batched_lines').execute()
  await db.schema.alterTable('integrations').dropColumn('maintenance_in_use').execute()
}
