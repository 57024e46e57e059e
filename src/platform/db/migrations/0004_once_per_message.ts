// One outcome per accepted alert (docs/decision-table.md#one-outcome-per-message): "each accepted alert
// yields exactly one status_update" is kept by the database, not by deleting a job row in the outcome's
// transaction. The events table already allows one event per messageId (its primary key); now a
// status_update delivery is unique per messageId too (state snapshots have none, and NULLs never collide).
// A job whose payload does not fit its kind is dead: `failed_at` says when, `last_error` why.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_message')
    .unique()
    .on('webhook_deliveries')
    .column('message_id')
    .execute()
  await db.schema.alterTable('jobs').addColumn('failed_at', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('failed_at').execute()
  await db.schema.dropIndex('webhook_deliveries_message').execute()
}
