// Bearer tokens for the PSAs that hand them out (HaloPSA's OAuth2 client credentials, Kaseya BMS's
// login): one token per connection, fetched once however many calls want it at the same time, renewed
// a margin before it expires, and fetched again when the PSA refuses it anyway (a 401 before its
// time: revoked, or the PSA's clock differs) — the call is then sent once more with the new token.
import type { PsaCall, PsaResult } from '../adapter.js'
import { waitOrGiveUp } from './connections.js'

export interface Token {
  /** What goes after `Bearer `. */
  value: string
  /** When the PSA stops taking it (ms since the epoch). */
  expiresAt: number
  /** A refresh token, where the PSA gives one, and until when it works. */
  refresh?: { value: string; expiresAt: number }
}

export interface TokenOptions {
  /**
   * Gets a token: a new one, or (given the token that is expiring, when it carries a refresh token
   * still valid) a renewed one. A failure is the PSA's own, for the caller to pass on.
   */
  fetch(call: PsaCall, expiring: Token | null): Promise<PsaResult<Token>>
  /** Renew this long before the token expires (default one minute, at most a tenth of its life). */
  marginMs?: number
  now?: () => number
}

/** How long a token fetch may take, whoever asked first. */
const fetchBudgetMs = 30_000

export class TokenCache {
  private token: Token | null = null
  /** When the token held is renewed: a margin before it expires. */
  private renewAt = 0
  private pending: Promise<PsaResult<Token>> | null = null
  private readonly now: () => number

  constructor(private readonly o: TokenOptions) {
    this.now = o.now ?? Date.now
  }

  /** A token that is good for at least the margin: the one held, or a new one. */
  async get(call: PsaCall): Promise<PsaResult<string>> {
    const held = this.token
    if (held && this.now() < this.renewAt) return { ok: true, value: held.value }
    const got = await this.renew(call, held)
    return got.ok ? { ok: true, value: got.value.value } : got
  }

  /** The PSA refused `value`: the next call gets another token (unless one was fetched meanwhile). */
  invalidate(value: string): void {
    if (this.token?.value === value) this.renewAt = 0
  }

  /**
   * `send` with a token; when the PSA answers 401 (an `auth` failure), once more with a new token.
   * A token the PSA refuses twice is the credentials' failure, passed on as it is.
   */
  async send<T>(call: PsaCall, send: (token: string) => Promise<PsaResult<T>>): Promise<PsaResult<T>> {
    const token = await this.get(call)
    if (!token.ok) return token
    const first = await send(token.value)
    if (first.ok || first.failure.kind !== 'auth') return first
    this.invalidate(token.value)
    const again = await this.get(call)
    if (!again.ok) return again
    return send(again.value)
  }

  private renew(caller: PsaCall, expiring: Token | null): Promise<PsaResult<Token>> {
    const usable = expiring?.refresh && this.now() < expiring.refresh.expiresAt ? expiring : null
    this.pending ??= this.o
      .fetch({ signal: AbortSignal.timeout(fetchBudgetMs) }, usable)
      .then((result) => {
        if (result.ok) {
          const life = result.value.expiresAt - this.now()
          this.token = result.value
          this.renewAt = result.value.expiresAt - Math.min(this.o.marginMs ?? 60_000, Math.max(0, life / 10))
        }
        return result
      })
      .finally(() => {
        this.pending = null
      })
    return waitOrGiveUp(this.pending, caller.signal)
  }
}
