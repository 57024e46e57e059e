// A TokenStore in memory with the compare-and-swap semantics of the SQL one (src/psa/core/token-store.ts),
// for the adapter tests that run without a database; the SQL store itself is tested on both databases
// (test/psa/core/token-store.test.ts).
import type { StoredTokens, TokenKey, TokenStore } from '../../../src/psa/core/token-store.js'

export class MemoryTokenStore implements TokenStore {
  readonly rows = new Map<string, StoredTokens>()
  private readonly id = (k: TokenKey) => `${k.partnerId}\u0000${k.kind}`

  async read(key: TokenKey): Promise<StoredTokens | null> {
    const r = this.rows.get(this.id(key))
    return r ? { ...r } : null
  }

  async seed(key: TokenKey, grant: string, refreshToken: string, version: number | null): Promise<boolean> {
    const r = this.rows.get(this.id(key))
    if (version === null ? r !== undefined : r?.version !== version) return false
    this.rows.set(this.id(key), {
      version: (version ?? 0) + 1,
      grant,
      refreshToken,
      accessToken: null,
      accessExpiresAt: null,
      claimedUntil: null,
    })
    return true
  }

  async rebind(key: TokenKey, grant: string, version: number): Promise<boolean> {
    return this.swap(key, version, { grant, accessToken: null, accessExpiresAt: null })
  }

  async claim(key: TokenKey, version: number, untilMs: number): Promise<boolean> {
    return this.swap(key, version, { claimedUntil: untilMs })
  }

  async save(
    key: TokenKey,
    version: number,
    t: { refreshToken: string; accessToken: string; accessExpiresAt: number },
  ): Promise<boolean> {
    return this.swap(key, version, { ...t, claimedUntil: null })
  }

  async release(key: TokenKey, version: number): Promise<void> {
    const r = this.rows.get(this.id(key))
    if (r?.version === version) r.claimedUntil = null
  }

  private swap(key: TokenKey, version: number, set: Partial<StoredTokens>): boolean {
    const r = this.rows.get(this.id(key))
    if (r?.version !== version) return false
    this.rows.set(this.id(key), { ...r, ...set, version: version + 1 })
    return true
  }
}
