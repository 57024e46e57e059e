// Vendor self-service (docs/vendor-api.md#self-service): a vendor whose CLI long-polls its events
// (`GET /api/vendor-api/events`) is "listening" until `listening_until`, and while it is, its events are
// recorded even without a webhook URL. A vendor reads its deliveries by integration too: the index
// serves `?integrationId=` and the long-poll of a token bound to one integration, newest id first.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('vendors').addColumn('listening_until', 'text').execute()
  await db.schema
    .createIndex('webhook_deliveries_integration')
    .on('webhook_deliveries')
    .columns(['integration_id', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_integration').execute()
  await db.schema.alterTable('vendors').dropColumn('listening_until').execute()
}
