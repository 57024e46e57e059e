// Rule conditions and ticket templates (docs/partner-api.md#rule-conditions,
// docs/partner-api.md#ticket-templates): a rule's conditions as JSON (none on earlier rules) and its
// title and description templates (null: the default ticket text).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rules')
    .addColumn('conditions', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute()
  await db.schema.alterTable('rules').addColumn('title_template', 'text').execute()
  await db.schema.alterTable('rules').addColumn('description_template', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rules').dropColumn('description_template').execute()
  await db.schema.alterTable('rules').dropColumn('title_template').execute()
  await db.schema.alterTable('rules').dropColumn('conditions').execute()
}
