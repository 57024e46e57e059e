// Webhook events carry a sequence number (docs/webhooks.md#event-types): one counter for every event,
// so that numbers only grow, within an integration as everywhere. PostgreSQL draws them from a sequence
// (no row lock: two processes' batches never wait on each other for it); SQLite, whose one writer
// already serialises every transaction, from the `counters` row `webhook_event_sequence`, which needs no
// migration (its first event creates it). `npm run migrate-data` carries the SQLite count into the
// PostgreSQL sequence (ops/data-move/copy.ts).
import { type Kysely, PostgresAdapter, sql } from 'kysely'

const onPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

export async function up(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) await sql`create sequence if not exists webhook_event_sequence`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) await sql`drop sequence if exists webhook_event_sequence`.execute(db)
}
