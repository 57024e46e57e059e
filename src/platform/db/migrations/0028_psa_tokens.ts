// Tokens a PSA rotates on use (NinjaOne's refresh tokens, docs/psa/ninjaone.md#tokens), kept beside a
// partner's PSA settings rather than in them: the settings key the partner's connection, and rewriting
// them at every rotation would make a new connection each time. One psa_tokens row per partner and
// kind holds the newest refresh token and the access token with its expiry (both sealed), a version
// every change raises (a refresh is claimed and stored by compare-and-swap on it, so two processes
// never spend one refresh token), and the digest of the grant the settings gave (a new grant from the
// partner replaces the row). psa_oauth_states holds the authorization-code flows under way: the
// digest of their `state`, the partner, the PKCE verifier (sealed), the portal page to go back to and when the flow
// expires.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema
  await s
    .createTable('psa_tokens')
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('psa_kind', 'text', (c) => c.notNull())
    .addColumn('grant_digest', 'text', (c) => c.notNull())
    .addColumn('refresh_token_enc', 'text', (c) => c.notNull())
    .addColumn('access_token_enc', 'text')
    .addColumn('access_expires_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    // Until when one process holds the refresh (null: nobody).
    .addColumn('claimed_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('psa_tokens_pk', ['partner_id', 'psa_kind'])
    .execute()
  await s
    .createTable('psa_oauth_states')
    .addColumn('state_digest', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('psa_kind', 'text', (c) => c.notNull())
    .addColumn('verifier_enc', 'text', (c) => c.notNull())
    // The portal page the partner goes back to.
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await s.createIndex('psa_oauth_states_partner').on('psa_oauth_states').columns(['partner_id']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('psa_oauth_states').execute()
  await db.schema.dropTable('psa_tokens').execute()
}
