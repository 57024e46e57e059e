// Real PSAs (docs/psa/README.md): a rule may name the status a RESOLVED alert closes its ticket with; the
// sandbox PSA tags its tickets with the correlationId as real PSAs do (ConnectWise externalXRef, Autotask
// externalID), so a create retried after a crash finds and adopts the ticket; and a job may belong to a
// group (an alert job: its partner) whose jobs the runner holds to a number in flight, so one partner's
// slow PSA cannot take every worker slot.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rules').addColumn('ticket_closed_status', 'text').execute()
  await db.schema.alterTable('sandbox_tickets').addColumn('external_ref', 'text').execute()
  await db.schema
    .createIndex('sandbox_tickets_ref')
    .on('sandbox_tickets')
    .columns(['partner_id', 'external_ref'])
    .execute()
  await db.schema.alterTable('jobs').addColumn('group_key', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('group_key').execute()
  await db.schema.dropIndex('sandbox_tickets_ref').execute()
  await db.schema.alterTable('sandbox_tickets').dropColumn('external_ref').execute()
  await db.schema.alterTable('rules').dropColumn('ticket_closed_status').execute()
}
