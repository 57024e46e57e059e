// Two-way sync (docs/psa/sync.md) and the closed-ticket policies (docs/decision-table.md#closed-ticket-policy).
// A ticket remembers who closed it (alertbridge or the PSA), the PSA's status name as last read, when
// the PSA deleted it, the PSA ticket it was merged away from, when the poll last read it, and the
// ticket a `new` policy replaced, and until when sync leaves it to an alert whose close or reopen is
// being retried after a lost answer. An integration gains its closed-ticket policy. Each partner's PSA
// connection gets one psa_sync row: the digest of its push URL's token, the push's secret (sealed),
// how it is heard (push or poll) and when it last was; pushed ticket ids wait in psa_sync_pending.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  for (const column of [
    'closed_by',
    'psa_status',
    'psa_deleted_at',
    'merged_from',
    'psa_checked_at',
    'replaces_ticket_id',
    'sync_hold_until',
  ])
    await s.alterTable('tickets').addColumn(column, 'text').execute()
  // The poll's next page: a partner's open tickets, least recently read first.
  await s
    .createIndex('tickets_partner_checked')
    .on('tickets')
    .columns(['partner_id', 'status', 'psa_checked_at'])
    .execute()
  // A de-duplicated OPEN looks for the latest closed ticket of its key (closed-ticket policies).
  await s.createIndex('tickets_dedup_key').on('tickets').columns(['integration_id', 'dedup_key']).execute()
  // A push names the PSA's ticket id.
  await s
    .createIndex('tickets_partner_psa_id')
    .on('tickets')
    .columns(['partner_id', 'psa_ticket_id'])
    .execute()
  await s
    .alterTable('integrations')
    .addColumn('closed_ticket_policy', 'text', (c) => c.notNull().defaultTo('refuse'))
    .execute()
  await s
    .alterTable('integrations')
    .addColumn('reopen_window_minutes', 'integer', (c) => c.notNull().defaultTo(1440))
    .execute()
  await s
    .alterTable('integrations')
    .addColumn('close_only_untouched', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await s
    .createTable('psa_sync')
    .addColumn('partner_id', 'text', (c) => c.primaryKey().references('partners.id').onDelete('cascade'))
    // SHA-256 of the token in the push URL (/api/psa-push/{token}).
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    // The PSA kind the registration was made for: a changed kind registers again.
    .addColumn('psa_kind', 'text', (c) => c.notNull())
    // push | manual | poll: how the PSA's changes reach alertbridge beside the poll.
    .addColumn('mechanism', 'text', (c) => c.notNull())
    .addColumn('registration_id', 'text')
    // What the registration said: the PSA's detail, an administrator's steps, or why it failed.
    .addColumn('detail', 'text')
    .addColumn('registered_at', 'text')
    .addColumn('last_push_at', 'text')
    .addColumn('last_poll_at', 'text')
    .addColumn('last_heard_at', 'text')
    .addColumn('pushes_refused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  // PSA tickets a push named, waiting to be read back: the read job takes them all at once, so a
  // burst of pushes for the same tickets costs one read each.
  await s
    .createTable('psa_sync_pending')
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('psa_ticket_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('psa_sync_pending_pk', ['partner_id', 'psa_ticket_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s.dropTable('psa_sync_pending').execute()
  await s.dropTable('psa_sync').execute()
  for (const column of ['close_only_untouched', 'reopen_window_minutes', 'closed_ticket_policy'])
    await s.alterTable('integrations').dropColumn(column).execute()
  await s.dropIndex('tickets_partner_psa_id').execute()
  await s.dropIndex('tickets_dedup_key').execute()
  await s.dropIndex('tickets_partner_checked').execute()
  for (const column of [
    'sync_hold_until',
    'replaces_ticket_id',
    'psa_checked_at',
    'merged_from',
    'psa_deleted_at',
    'psa_status',
    'closed_by',
  ])
    await s.alterTable('tickets').dropColumn(column).execute()
}
