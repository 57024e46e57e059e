// The partner portal's API (docs/partner-api.md#portal-users-and-sessions): the people of a partner who
// sign in to the portal, their sessions, and what the dashboard reads. A user's email is unique across
// partners, so that signing in needs only an email and a password. The password hash is null until the
// invite is accepted; the invite token and the session cookie are stored only as SHA-256 digests (they are
// random). Events gain the machine code of their failure (`error`) so that failures can be grouped by
// cause, and an index that counts an integration's events over a time range (the overview's last 24 hours).
// A session's CSRF token is not stored: it is derived from the cookie (tenants/people/portal.ts).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .createTable('partner_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    // Trimmed and lower-cased before it is stored or looked up.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text')
    // admin | viewer
    .addColumn('role', 'text', (c) => c.notNull())
    // scrypt$<log2 N>$<r>$<p>$<salt>$<key>; null until the invite is accepted (or after a reset).
    .addColumn('password_hash', 'text')
    .addColumn('invite_digest', 'text', (c) => c.unique())
    .addColumn('invite_expires_at', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('last_sign_in_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await s
    .createIndex('partner_users_partner')
    .on('partner_users')
    .columns(['partner_id', 'created_at'])
    .execute()

  await s
    .createTable('partner_sessions')
    // SHA-256 of the cookie's value.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('partner_users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // The absolute end; the idle end is last_seen_at + the idle limit.
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('partner_sessions_user').on('partner_sessions').column('user_id').execute()
  await s.createIndex('partner_sessions_expires').on('partner_sessions').column('expires_at').execute()

  await s.alterTable('events').addColumn('error', 'text').execute()
  await s
    .createIndex('events_integration_created')
    .on('events')
    .columns(['integration_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_integration_created').execute()
  await db.schema.alterTable('events').dropColumn('error').execute()
  await db.schema.dropTable('partner_sessions').execute()
  await db.schema.dropTable('partner_users').execute()
}
