// Bounded growth (docs/decisions/bounded-growth/how-it-prunes.md): indexes that let the pruner find rows
// past their age without reading whole tables, one batch at a time, oldest first; and the one that counts a
// vendor's active tokens when it asks for another.
import type { Kysely } from 'kysely'

const indexes: { name: string; table: string; columns: string[] }[] = [
  // Events older than RETENTION_EVENTS_DAYS (the checks that keep needed ones use existing keys).
  { name: 'events_created', table: 'events', columns: ['created_at'] },
  // Delivered and dead deliveries, by when they finished.
  { name: 'webhook_deliveries_finished', table: 'webhook_deliveries', columns: ['status', 'updated_at'] },
  // Dead jobs, by when they died.
  { name: 'jobs_failed', table: 'jobs', columns: ['failed_at'] },
  // Usage history by age (the latest of each pair is found through usage_counts_key).
  { name: 'usage_counts_created', table: 'usage_counts', columns: ['created_at'] },
  // Expired and revoked tokens; a vendor's unexpired tokens (the cap on active tokens).
  { name: 'vendor_tokens_expires', table: 'vendor_tokens', columns: ['expires_at'] },
  { name: 'vendor_tokens_revoked', table: 'vendor_tokens', columns: ['revoked_at'] },
  { name: 'vendor_tokens_vendor_expires', table: 'vendor_tokens', columns: ['vendor_id', 'expires_at'] },
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const i of indexes) await db.schema.createIndex(i.name).on(i.table).columns(i.columns).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of [...indexes].reverse()) await db.schema.dropIndex(i.name).execute()
}
