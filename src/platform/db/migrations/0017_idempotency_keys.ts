// Idempotency keys (docs/vendor-api.md#idempotency-keys): one row per key a vendor sent on an alert or
// setup call, kept 24 h. The unique constraint on (vendor, method and route, key) is what lets one
// request of several processes claim a key: the others' inserts find it taken. While the first request
// runs the row has no answer and `locked_until` says how long its claim holds; once it is answered, the
// row keeps the status and the body (sealed with SECRET_KEY: a rotation's answer holds a new secret)
// that a retry with the same key and the same request is answered with.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .createTable('idempotency_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vendor_id', 'text', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    // The method and the route's path pattern, e.g. `POST /api/oem-alerts-api/alert/sync`.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    // SHA-256 of what a retry must repeat: the URL, the body (an alert's credentials left out), the
    // token's integration.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // running | done
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('response_status', 'integer')
    // JSON: the headers a replay repeats (content-type, location).
    .addColumn('response_headers', 'text')
    .addColumn('response_body_enc', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_scope_key', ['vendor_id', 'scope', 'idempotency_key'])
    .execute()
  // The retention job deletes keys by age.
  await s.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute()
}
