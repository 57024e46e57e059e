import type { Kysely } from 'kysely'
import type { Database } from '../schema.js'

export interface AccessToken {
  id: string
  vendorId: string
  integrationId: string | null
  expiresAt: string
  revokedAt: string | null
  createdAt: string
}

export class TokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(t: AccessToken & { digest: string }): Promise<void> {
    await this.db
      .insertInto('vendor_tokens')
      .values({
        id: t.id,
        vendor_id: t.vendorId,
        integration_id: t.integrationId,
        digest: t.digest,
        expires_at: t.expiresAt,
        revoked_at: t.revokedAt,
        created_at: t.createdAt,
      })
      .execute()
  }

  async findByDigest(digest: string): Promise<(AccessToken & { digest: string }) | null> {
    const r = await this.db
      .selectFrom('vendor_tokens')
      .selectAll()
      .where('digest', '=', digest)
      .executeTakeFirst()
    return r
      ? {
          id: r.id,
          vendorId: r.vendor_id,
          integrationId: r.integration_id,
          expiresAt: r.expires_at,
          revokedAt: r.revoked_at,
          createdAt: r.created_at,
          digest: r.digest,
        }
      : null
  }
}
