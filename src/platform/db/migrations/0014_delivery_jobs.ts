// One scheduler: a webhook delivery's attempts are run by a `delivery` job of the queue (grouped per
// vendor endpoint, 4 in flight), with the one lease every job has. The deliveries keep their record
// (status, attempts, next attempt) but no lease of their own: the column and the indexes that served
// the old claim go, and every pending delivery gets its job, due when its next attempt was. A capped
// group's due jobs are claimed by the group (a busy endpoint's lane), through an index of their own.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // `{"deliveryId":"…"}`, as JSON.stringify writes it (ids are `msg_` and hex: nothing to escape).
  await sql`
    insert into jobs (id, kind, dedupe_key, payload, attempts, run_at, lease_token, last_error,
                      created_at, failed_at, group_key, waits)
    select 'migrated-' || id, 'delivery', null, '{"deliveryId":"' || id || '"}', 0, run_at, null, null,
           created_at, null, 'delivery:' || vendor_id, 0
    from webhook_deliveries
    where status = 'pending'`.execute(db)
  await db.schema.createIndex('jobs_group_due').on('jobs').columns(['group_key', 'run_at', 'id']).execute()
  await db.schema.dropIndex('webhook_deliveries_due').execute()
  await db.schema.dropIndex('webhook_deliveries_vendor_due').execute()
  await db.schema.alterTable('webhook_deliveries').dropColumn('lease_token').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_group_due').execute()
  await db.schema.alterTable('webhook_deliveries').addColumn('lease_token', 'text').execute()
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'run_at'])
    .execute()
  await db.schema
    .createIndex('webhook_deliveries_vendor_due')
    .on('webhook_deliveries')
    .columns(['vendor_id', 'status', 'run_at'])
    .execute()
  await sql`delete from jobs where kind = 'delivery'`.execute(db)
}
