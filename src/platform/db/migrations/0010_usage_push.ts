// Usage counts reach the PSA (docs/partner-api.md#usage-counts-reach-the-psas-billing): a vendor service
// mapped to one account's billing line (next to service_mappings, which names a PSA product for every
// account), the state of the last push per service and account, and the sandbox PSA's billing lines.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .createTable('service_line_mappings')
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('psa_line_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_line_mappings_pk', ['integration_id', 'service_id', 'account_id'])
    .execute()
  await s
    .createTable('usage_pushes')
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    // The count this state is about (the latest when it was written) and its units.
    .addColumn('usage_id', 'text', (c) => c.notNull())
    .addColumn('unit_count', 'double precision', (c) => c.notNull())
    // pending | pushed | retrying | failed | unmapped
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('psa_line_id', 'text')
    .addColumn('previous_quantity', 'double precision')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('detail', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // The last count the PSA took, and when (kept while later pushes are pending or failing).
    .addColumn('pushed_count', 'double precision')
    .addColumn('pushed_at', 'text')
    .addPrimaryKeyConstraint('usage_pushes_pk', ['integration_id', 'service_id', 'account_id'])
    .execute()
  await s
    .createTable('sandbox_billing_lines')
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('line_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'double precision', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sandbox_billing_lines_pk', ['partner_id', 'line_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_billing_lines').execute()
  await db.schema.dropTable('usage_pushes').execute()
  await db.schema.dropTable('service_line_mappings').execute()
}
