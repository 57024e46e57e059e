// A portal session remembers where it was signed in from (docs/partner-api.md#portal-users-and-sessions):
// the browser's User-Agent (cut to 256 characters) and the client address, so that its user can tell
// their sessions apart and end the ones they do not recognise. Sessions from before have neither (null).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('partner_sessions').addColumn('user_agent', 'text').execute()
  await db.schema.alterTable('partner_sessions').addColumn('address', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('partner_sessions').dropColumn('address').execute()
  await db.schema.alterTable('partner_sessions').dropColumn('user_agent').execute()
}
