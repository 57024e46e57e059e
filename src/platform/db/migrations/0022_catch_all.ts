// The catch-all account (docs/decision-table.md#catch-all). An integration gains its opt-in and the
// fallback PSA company (and board) its unmapped accounts' OPEN alerts go to; a ticket made there
// remembers that company (its follow-ups find it by it, mapped or not); and an alert's event remembers
// its accountId, so that the accounts seen unmapped are counted from the audit log
// (GET /api/partner/integrations/{id}/unmapped-accounts). Earlier events have none.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .alterTable('integrations')
    .addColumn('catch_all_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await s.alterTable('integrations').addColumn('catch_all_company_id', 'text').execute()
  await s.alterTable('integrations').addColumn('catch_all_board', 'text').execute()
  await s.alterTable('tickets').addColumn('catch_all_company_id', 'text').execute()
  await s.alterTable('events').addColumn('account_id', 'text').execute()
  // The unmapped accounts' refused OPENs, by account (error ACCOUNT_NOT_MAPPED or ACCOUNT_UNKNOWN).
  await s
    .createIndex('events_integration_error_account')
    .on('events')
    .columns(['integration_id', 'error', 'account_id'])
    .execute()
  // The catch-all tickets of an integration, by account.
  await s
    .createIndex('tickets_catch_all')
    .on('tickets')
    .columns(['integration_id', 'catch_all_company_id', 'account_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s.dropIndex('tickets_catch_all').execute()
  await s.dropIndex('events_integration_error_account').execute()
  await s.alterTable('events').dropColumn('account_id').execute()
  await s.alterTable('tickets').dropColumn('catch_all_company_id').execute()
  for (const column of ['catch_all_board', 'catch_all_company_id', 'catch_all_enabled'])
    await s.alterTable('integrations').dropColumn(column).execute()
}
