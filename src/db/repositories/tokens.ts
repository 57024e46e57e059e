import type { Kysely, Selectable } from 'kysely'
import type { Database, VendorTokensTable } from '../schema.js'

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

  /** A vendor's tokens, newest first (ids are UUIDv7, so id order is creation order). */
  async listForVendor(
    vendorId: string,
    o: { limit: number; before?: string; live?: { at: string } },
  ): Promise<AccessToken[]> {
    let q = this.db.selectFrom('vendor_tokens').selectAll().where('vendor_id', '=', vendorId)
    if (o.before) q = q.where('id', '<', o.before)
    if (o.live) q = q.where('revoked_at', 'is', null).where('expires_at', '>', o.live.at)
    const rows = await q.orderBy('id', 'desc').limit(o.limit).execute()
    return rows.map(toToken)
  }

  /** Revokes one token of a vendor; false when the vendor has no such token. Revoking twice keeps the first time. */
  async revoke(vendorId: string, tokenId: string, at: string): Promise<AccessToken | null> {
    await this.db
      .updateTable('vendor_tokens')
      .set({ revoked_at: at })
      .where('vendor_id', '=', vendorId)
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .execute()
    const r = await this.db
      .selectFrom('vendor_tokens')
      .selectAll()
      .where('vendor_id', '=', vendorId)
      .where('id', '=', tokenId)
      .executeTakeFirst()
    return r ? toToken(r) : null
  }

  /** Revokes every token of a vendor that is still valid at `at`; how many. */
  async revokeAll(vendorId: string, at: string): Promise<number> {
    const result = await this.db
      .updateTable('vendor_tokens')
      .set({ revoked_at: at })
      .where('vendor_id', '=', vendorId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  /** Deletes tokens that expired or were revoked before `cutoff`; they can never be used again. */
  async purge(cutoff: string): Promise<number> {
    const result = await this.db
      .deleteFrom('vendor_tokens')
      .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  async findByDigest(digest: string): Promise<(AccessToken & { digest: string }) | null> {
    const r = await this.db
      .selectFrom('vendor_tokens')
      .selectAll()
      .where('digest', '=', digest)
      .executeTakeFirst()
    return r ? { ...toToken(r), digest: r.digest } : null
  }
}

function toToken(r: Selectable<VendorTokensTable>): AccessToken {
  return {
    id: r.id,
    vendorId: r.vendor_id,
    integrationId: r.integration_id,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
  }
}
