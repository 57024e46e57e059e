// A maintenance window keeps its occurrences ahead (docs/decisions/maintenance/recurrence-limits.md):
// worked out when it is saved and at each of its boundaries, and read by every alert instead of
// expanding the window's rule. JSON (src/alerts/steps/maintenance/upcoming.ts); null for the windows saved
// before, which the service works out when it starts (src/alerts/steps/maintenance/upcoming-backfill.ts).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('maintenance_windows').addColumn('upcoming', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('maintenance_windows').dropColumn('upcoming').execute()
}
