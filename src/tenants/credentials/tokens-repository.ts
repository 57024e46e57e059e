import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { VendorTokensTable } from '../tables.js'
import type { AccessToken } from '../vendor.js'
import type { Disabled, Generation } from './credentials.js'

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
        client_secret_version: t.clientSecretVersion,
        org_token_version: t.orgTokenVersion,
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

  /**
   * Deletes tokens that expired or were revoked before `cutoff` (they can never be used again), at
   * most `limit` of them when given.
   */
  async purge(cutoff: string, limit?: number): Promise<number> {
    const dead = this.db
      .selectFrom('vendor_tokens')
      .select('id')
      .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    const result = await this.db
      .deleteFrom('vendor_tokens')
      .where('id', 'in', limit === undefined ? dead : dead.limit(limit))
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  /** How many of a vendor's tokens still work at `at` (neither expired nor revoked). */
  async countActive(vendorId: string, at: string): Promise<number> {
    const r = await this.db
      .selectFrom('vendor_tokens')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('vendor_id', '=', vendorId)
      .where('expires_at', '>', at)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }

  /** When the first of a vendor's working tokens expires (a slot under the cap frees up then). */
  async firstActiveExpiry(vendorId: string, at: string): Promise<string | null> {
    const r = await this.db
      .selectFrom('vendor_tokens')
      .select((eb) => eb.fn.min('expires_at').as('first'))
      .where('vendor_id', '=', vendorId)
      .where('expires_at', '>', at)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    return r?.first ?? null
  }

  /**
   * Holds the vendor's row until the transaction ends, so that two issuers of one vendor count its
   * tokens and insert one at a time. A write that changes nothing takes the same row lock on
   * PostgreSQL and the one write lock on SQLite, so neither dialect needs a query of its own.
   */
  async lockVendor(vendorId: string): Promise<void> {
    await this.db
      .updateTable('vendors')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', vendorId)
      .execute()
  }

  /** The token with this digest and the state of its vendor and bound integration, read in one query. */
  async findInUse(digest: string): Promise<TokenInUse | null> {
    const r = await this.db
      .selectFrom('vendor_tokens as t')
      .innerJoin('vendors as v', 'v.id', 't.vendor_id')
      .leftJoin('integrations as i', 'i.id', 't.integration_id')
      .leftJoin('partners as p', 'p.id', 'i.partner_id')
      .selectAll('t')
      .select([
        'v.disabled_at as vendor_disabled_at',
        'v.disabled_reason as vendor_disabled_reason',
        'v.client_secret_version as vendor_secret_version',
        'v.previous_client_secret_expires_at as vendor_previous_expires_at',
        'i.id as bound_id',
        'i.org_token_version as integration_token_version',
        'i.previous_org_token_expires_at as integration_previous_expires_at',
        'p.disabled_at as partner_disabled_at',
        'p.disabled_reason as partner_disabled_reason',
      ])
      .where('t.digest', '=', digest)
      .executeTakeFirst()
    if (!r) return null
    return {
      ...toToken(r),
      digest: r.digest,
      vendor: {
        disabled:
          r.vendor_disabled_at === null
            ? null
            : { at: r.vendor_disabled_at, reason: r.vendor_disabled_reason },
        clientSecret: { version: r.vendor_secret_version, previousExpiresAt: r.vendor_previous_expires_at },
      },
      integration:
        r.bound_id === null || r.integration_token_version === null
          ? null
          : {
              disabledPartner:
                r.partner_disabled_at === null
                  ? null
                  : { at: r.partner_disabled_at, reason: r.partner_disabled_reason },
              orgToken: {
                version: r.integration_token_version,
                previousExpiresAt: r.integration_previous_expires_at,
              },
            },
    }
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
    clientSecretVersion: r.client_secret_version,
    orgTokenVersion: r.org_token_version,
  }
}

/** A token with what decides whether it may be used now: its vendor's and (if bound) its integration's state. */
export interface TokenInUse extends AccessToken {
  digest: string
  vendor: { disabled: Disabled | null; clientSecret: Generation }
  /** Null for a token bound to no integration. */
  integration: { disabledPartner: Disabled | null; orgToken: Generation } | null
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    tokens: TokenRepository
  }
}
defineRepository('tokens', (kysely) => new TokenRepository(kysely))
