// The vendor API, catalogue and billing usage: the dynamic catalogue's per-integration credentials
// (docs/decisions/catalogue/credentials.md) and response mapping (docs/decisions/catalogue/adapter.md), and
// partners' service mappings for billing (docs/decisions/billing/service-mappings.md).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  // How to read a differently shaped vendor GET /product-groups answer (docs/contract.md#vendor-endpoints);
  // JSON, null = the contract's shape.
  await s.alterTable('vendors').addColumn('product_groups_mapping', 'text').execute()
  // The credentials the partner configured for calling the vendor's catalogue endpoint; encrypted JSON.
  await s.alterTable('integrations').addColumn('vendor_credentials_enc', 'text').execute()

  await s
    .createTable('service_mappings')
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('psa_product_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_mappings_pk', ['integration_id', 'service_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_mappings').execute()
  await db.schema.alterTable('integrations').dropColumn('vendor_credentials_enc').execute()
  await db.schema.alterTable('vendors').dropColumn('product_groups_mapping').execute()
}
