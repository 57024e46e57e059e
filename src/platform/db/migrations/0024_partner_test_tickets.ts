// A partner's test ticket (docs/partner-api.md#test-alerts) remembers it is one: two-way sync, the close
// and the vendor's ticket reads leave the vendor out of it (docs/psa/sync.md). Earlier test tickets are
// found by their "[TEST] " title and a test event carrying the partner's test summary
// (src/alerts/test-alerts/test-alert.ts); every other ticket is none.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // 0 or 1, as the other flags (both databases read it the same way).
  await db.schema
    .alterTable('tickets')
    .addColumn('partner_test', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`
    update tickets set partner_test = 1
    where title like '[TEST] %'
      and exists (
        select 1 from events e
        where e.integration_id = tickets.integration_id
          and e.correlation_id = tickets.correlation_id
          and e.test = 1
          and e.request like '%A test alert the partner sent from alertbridge%'
      )
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tickets').dropColumn('partner_test').execute()
}
