// A poll round that the connection's budget held back says so on the partner's sync status
// (docs/psa/sync.md#the-poll-and-the-budget): until when the poll waits, and why. Both are cleared
// when a round next reads or finds nothing due.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('psa_sync').addColumn('held_until', 'text').execute()
  await db.schema.alterTable('psa_sync').addColumn('held_reason', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('psa_sync').dropColumn('held_reason').execute()
  await db.schema.alterTable('psa_sync').dropColumn('held_until').execute()
}
