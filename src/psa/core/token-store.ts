// Where rotating PSA tokens are kept, shared by every process on the database (psa_tokens, migration
// 0028_psa_tokens; docs/psa/ninjaone.md#tokens). Every change is a compare-and-swap on the row's
// version: a process claims the refresh (version + 1, with a time the claim lasts), spends the refresh
// token, and stores what came back under its claim (version + 1 again). A process that finds the row
// claimed waits and reads it again; one that loses a swap reads the winner's row. Tokens are sealed.
import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'
import type { CryptoBox } from '../../platform/security/crypto-box.js'
import type { PsaTokensTable } from '../tables.js'

export interface TokenKey {
  partnerId: string
  kind: string
}

export interface StoredTokens {
  version: number
  /** The digest of the grant the settings gave (a new one replaces the row). */
  grant: string
  refreshToken: string
  accessToken: string | null
  /** ms since the epoch. */
  accessExpiresAt: number | null
  /** ms since the epoch: until when a process holds the refresh. */
  claimedUntil: number | null
}

export interface TokenStore {
  read(key: TokenKey): Promise<StoredTokens | null>
  /** Starts the row from the settings' grant, or replaces a row of another grant at `version`. */
  seed(key: TokenKey, grant: string, refreshToken: string, version: number | null): Promise<boolean>
  /** The same grant with other client credentials: the access token is dropped (the next refresh,
   * with the new credentials, proves them), the refresh token kept. */
  rebind(key: TokenKey, grant: string, version: number): Promise<boolean>
  /** Claims the refresh of the row at `version` until `untilMs`; false: another process changed it. */
  claim(key: TokenKey, version: number, untilMs: number): Promise<boolean>
  /** Stores the tokens under the claim (the row at `version`), and ends the claim. */
  save(
    key: TokenKey,
    version: number,
    t: { refreshToken: string; accessToken: string; accessExpiresAt: number },
  ): Promise<boolean>
  /** Ends a claim that stored nothing (the refresh failed). */
  release(key: TokenKey, version: number): Promise<void>
}

const iso = (ms: number) => new Date(ms).toISOString()
const ms = (text: string | null) => (text === null ? null : Date.parse(text))

export class SqlTokenStore implements TokenStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
  ) {}

  async read(key: TokenKey): Promise<StoredTokens | null> {
    const r = await this.db
      .selectFrom('psa_tokens')
      .selectAll()
      .where('partner_id', '=', key.partnerId)
      .where('psa_kind', '=', key.kind)
      .executeTakeFirst()
    return r ? this.toStored(r) : null
  }

  async seed(key: TokenKey, grant: string, refreshToken: string, version: number | null): Promise<boolean> {
    const now = new Date().toISOString()
    const values = {
      grant_digest: grant,
      refresh_token_enc: this.box.seal(refreshToken),
      access_token_enc: null,
      access_expires_at: null,
      claimed_until: null,
      updated_at: now,
    }
    if (version === null) {
      const r = await this.db
        .insertInto('psa_tokens')
        .values({ partner_id: key.partnerId, psa_kind: key.kind, version: 1, ...values })
        .onConflict((oc) => oc.columns(['partner_id', 'psa_kind']).doNothing())
        .executeTakeFirst()
      return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1
    }
    return this.swap(key, version, { ...values, version: version + 1 })
  }

  rebind(key: TokenKey, grant: string, version: number): Promise<boolean> {
    return this.swap(key, version, {
      version: version + 1,
      grant_digest: grant,
      access_token_enc: null,
      access_expires_at: null,
      updated_at: new Date().toISOString(),
    })
  }

  claim(key: TokenKey, version: number, untilMs: number): Promise<boolean> {
    return this.swap(key, version, {
      version: version + 1,
      claimed_until: iso(untilMs),
      updated_at: new Date().toISOString(),
    })
  }

  save(
    key: TokenKey,
    version: number,
    t: { refreshToken: string; accessToken: string; accessExpiresAt: number },
  ): Promise<boolean> {
    return this.swap(key, version, {
      version: version + 1,
      refresh_token_enc: this.box.seal(t.refreshToken),
      access_token_enc: this.box.seal(t.accessToken),
      access_expires_at: iso(t.accessExpiresAt),
      claimed_until: null,
      updated_at: new Date().toISOString(),
    })
  }

  async release(key: TokenKey, version: number): Promise<void> {
    await this.swap(key, version, { claimed_until: null, updated_at: new Date().toISOString() })
  }

  private async swap(key: TokenKey, version: number, set: Partial<PsaTokensTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('psa_tokens')
      .set(set)
      .where('partner_id', '=', key.partnerId)
      .where('psa_kind', '=', key.kind)
      .where('version', '=', version)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  private toStored(r: PsaTokensTable): StoredTokens {
    return {
      version: Number(r.version),
      grant: r.grant_digest,
      refreshToken: this.box.open(r.refresh_token_enc),
      accessToken: r.access_token_enc === null ? null : this.box.open(r.access_token_enc),
      accessExpiresAt: ms(r.access_expires_at),
      claimedUntil: ms(r.claimed_until),
    }
  }
}
