// The reconciliation poll reads a partner's tickets closed within the reopen window again, so that a
// technician's reopen is heard where the PSA does not push it (docs/psa/sync.md#the-poll): this index
// finds them by closing time, without scanning every ticket the partner ever closed.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('tickets_partner_closed')
    .on('tickets')
    .columns(['partner_id', 'status', 'closed_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tickets_partner_closed').execute()
}
