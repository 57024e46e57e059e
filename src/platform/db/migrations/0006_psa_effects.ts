// What we did in a PSA is never forgotten (docs/decision-table.md#psa-effect-first): a PSA call's effect is
// written down the moment the call succeeds, before the outcome is recorded. A row lives until its alert's
// outcome is recorded (same transaction) or another attempt of the same call adopts it; one left over is an
// effect whose outcome could not be recorded, and tells a retry not to repeat it.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('psa_effects')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('psa_ticket_id', 'text', (c) => c.notNull())
    // The decision-table row the effect answers: 11 created, 9/14 updated, 18 closed, 17 found closed.
    .addColumn('row', 'text', (c) => c.notNull())
    .addColumn('strategy', 'text', (c) => c.notNull())
    // SHA-256 of the request as received (credentials removed): what makes a retry "the same call".
    .addColumn('request_digest', 'text', (c) => c.notNull())
    .addColumn('orphaned_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('psa_effects_by_request')
    .on('psa_effects')
    .columns(['integration_id', 'request_digest'])
    .execute()
  await db.schema
    .createIndex('psa_effects_by_age')
    .on('psa_effects')
    .columns(['strategy', 'created_at'])
    .execute()
  await db.schema
    .createIndex('psa_effects_by_correlation')
    .on('psa_effects')
    .columns(['integration_id', 'correlation_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('psa_effects').execute()
}
