// Test alerts (docs/vendor-api.md#test-tenancies-and-test-alerts): a vendor's test alert runs the whole path and
// its event in the audit log says so. Earlier events were none.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // 0 or 1, as the other flags (both databases read it the same way).
  await db.schema
    .alterTable('events')
    .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('test').execute()
}
