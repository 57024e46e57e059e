// A vendor's own test integrations (docs/vendor-api.md#self-serve-test-mode): the partner a vendor's
// POST /api/vendor-api/sandbox makes is marked with that vendor's id. A marked partner is a test
// partner: its PSA stays the sandbox for good, and the vendor may delete it with everything it made.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('partners').addColumn('sandbox_vendor_id', 'text').execute()
  await db.schema
    .createIndex('partners_sandbox_vendor')
    .on('partners')
    .columns(['sandbox_vendor_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('partners_sandbox_vendor').execute()
  await db.schema.alterTable('partners').dropColumn('sandbox_vendor_id').execute()
}
