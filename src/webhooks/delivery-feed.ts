// A vendor's webhook deliveries as a feed, oldest first after a cursor: what the events long-poll reads
// (docs/vendor-api.md#listening-for-events). Ids grow with creation time (`msg_` and a UUIDv7), so the
// last id read is the cursor; the indexes (vendor_id, id) and (integration_id, id) serve both reads.
// Also the events' sequence numbers (docs/webhooks.md#event-types), their order as the vendor reads it.
import { type Kysely, PostgresAdapter, sql } from 'kysely'
import { prepared } from '../platform/db/prepared.js'
import type { Database } from '../platform/db/schema.js'
import { defineRepository } from '../platform/db/store.js'
import { toDelivery } from './deliveries-repository.js'
import type { Delivery } from './delivery.js'

/** SQLite's event sequence: its counter row, one upsert for every event, prepared (docs/decisions/speed/hot-reads-prepared.md). */
const nextCounted = prepared(0, (db: Kysely<Database>) =>
  db
    .insertInto('counters')
    .values({ name: 'webhook_event_sequence', value: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`counters.value + 1` }))
    .returning('value'),
)

export class DeliveryFeedRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The next webhook event's sequence number (docs/webhooks.md#event-types): one counter for all
   * events, so it grows within every integration. PostgreSQL's sequence takes no lock; SQLite's one
   * writer makes the counter row safe.
   */
  async nextSequence(): Promise<number> {
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) {
      const { rows } = await sql<{ n: string }>`select nextval('webhook_event_sequence') as n`.execute(
        this.db,
      )
      return Number(rows[0]!.n)
    }
    const [row] = await nextCounted(this.db)
    if (!row) throw new Error('the event sequence counter answered no row')
    return row.value
  }

  /** The vendor's deliveries created after `afterId` ('' for all), oldest first; of one integration if given. */
  async newerThan(
    f: { vendorId: string; integrationId: string | null; afterId: string },
    limit: number,
  ): Promise<Delivery[]> {
    let q = this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('vendor_id', '=', f.vendorId)
      .where('id', '>', f.afterId)
      .orderBy('id')
      .limit(limit)
    if (f.integrationId) q = q.where('integration_id', '=', f.integrationId)
    return (await q.execute()).map(toDelivery)
  }

  /** The id of the vendor's newest delivery (of one integration if given), or null. */
  async newestId(vendorId: string, integrationId: string | null): Promise<string | null> {
    let q = this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('vendor_id', '=', vendorId)
      .orderBy('id', 'desc')
      .limit(1)
    if (integrationId) q = q.where('integration_id', '=', integrationId)
    return (await q.executeTakeFirst())?.id ?? null
  }
}

declare module '../platform/db/store.js' {
  interface Repositories {
    /** A vendor's deliveries after a cursor (the events long-poll). */
    deliveryFeed: DeliveryFeedRepository
  }
}
defineRepository('deliveryFeed', (kysely) => new DeliveryFeedRepository(kysely))
