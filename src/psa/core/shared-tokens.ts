// Bearer tokens of a PSA whose refresh tokens rotate on use (NinjaOne, docs/psa/ninjaone.md#tokens),
// shared by every process through a TokenStore: the access token is used while it is good for more
// than the margin, and renewed before; a 401 renews it once and sends the call again. A renewal is
// claimed in the store first, so only one process spends the refresh token; the others wait for its
// row to change and use what it stored. In this process one renewal runs however many calls want it.
import { createHash } from 'node:crypto'
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { waitOrGiveUp } from './connections.js'
import type { TokenKey, TokenStore } from './token-store.js'

export interface Renewed {
  accessToken: string
  /** ms since the epoch. */
  expiresAt: number
  /** The new refresh token, where the PSA rotated it. */
  refreshToken: string | null
}

export interface SharedTokenOptions {
  store: TokenStore
  key: TokenKey
  /**
   * The refresh token the settings give (null: none yet), what identifies its grant, and a digest of
   * the client credentials it is spent with. A new grant replaces the stored row; other credentials
   * for the same grant only drop the stored access token (so a wrong secret is refused, not hidden).
   */
  seed: { refreshToken: string; grant: string; client: string } | null
  /** Spends the refresh token at the PSA. */
  refresh(call: PsaCall, refreshToken: string): Promise<PsaResult<Renewed>>
  /** The failure when the settings give no refresh token. */
  notConnected: PsaFailure
  marginMs?: number
  now?: () => number
}

/** How long a claim lasts: longer than a refresh may take, so it never lapses while one runs. */
const claimMs = 60_000
/** How long a renewal may take, whoever asked first (a wait for another process's included). */
const renewBudgetMs = 30_000
const pollMs = 100
/** Rounds of reading the row at most (each round reads once; a wait sleeps pollMs). */
const maxRounds = 400

/** A digest of the parts (a grant: the PSA, the client id and the refresh token; a client's secret). */
export const digestOf = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('base64url')

export class SharedTokens {
  private held: { value: string; renewAt: number } | null = null
  private pending: Promise<PsaResult<string>> | null = null
  private readonly now: () => number

  constructor(private readonly o: SharedTokenOptions) {
    this.now = o.now ?? Date.now
  }

  async get(call: PsaCall): Promise<PsaResult<string>> {
    const held = this.held
    if (held && this.now() < held.renewAt) return { ok: true, value: held.value }
    return this.renew(call, null)
  }

  /** `send` with a token; after a 401, once more with a renewed one. */
  async send<T>(call: PsaCall, send: (token: string) => Promise<PsaResult<T>>): Promise<PsaResult<T>> {
    const token = await this.get(call)
    if (!token.ok) return token
    const first = await send(token.value)
    if (first.ok || first.failure.kind !== 'auth') return first
    const again = await this.renew(call, token.value)
    if (!again.ok) return again
    return send(again.value)
  }

  private renew(caller: PsaCall, refused: string | null): Promise<PsaResult<string>> {
    if (refused !== null && this.held?.value === refused) this.held = null
    this.pending ??= this.renewShared(AbortSignal.timeout(renewBudgetMs), refused).finally(() => {
      this.pending = null
    })
    return waitOrGiveUp(this.pending, caller.signal)
  }

  private async renewShared(signal: AbortSignal, refused: string | null): Promise<PsaResult<string>> {
    const { store, key, seed } = this.o
    const margin = this.o.marginMs ?? 60_000
    for (let round = 0; round < maxRounds && !signal.aborted; round++) {
      const row = await store.read(key)
      const bound = seed ? `${seed.grant}.${seed.client}` : null
      if (row === null || (seed !== null && !row.grant.startsWith(`${seed.grant}.`))) {
        if (seed === null || bound === null) return { ok: false, failure: this.o.notConnected }
        await store.seed(key, bound, seed.refreshToken, row?.version ?? null)
        continue
      }
      if (bound !== null && row.grant !== bound) {
        await store.rebind(key, bound, row.version)
        continue
      }
      const now = this.now()
      const access = row.accessToken
      if (access !== null && access !== refused && (row.accessExpiresAt ?? 0) - margin > now)
        return this.keep(access, row.accessExpiresAt ?? 0, margin)
      if (row.claimedUntil !== null && row.claimedUntil > now) {
        await sleep(pollMs)
        continue
      }
      if (!(await store.claim(key, row.version, now + claimMs))) continue
      const claimed = row.version + 1
      const got = await this.o.refresh({ signal }, row.refreshToken)
      if (!got.ok) {
        await store.release(key, claimed)
        return got
      }
      const refreshToken = got.value.refreshToken ?? row.refreshToken
      await store.save(key, claimed, {
        accessToken: got.value.accessToken,
        accessExpiresAt: got.value.expiresAt,
        refreshToken,
      })
      return this.keep(got.value.accessToken, got.value.expiresAt, margin)
    }
    return {
      ok: false,
      failure: { kind: 'timeout', retryable: true, message: 'no access token within the time budget' },
    }
  }

  private keep(value: string, expiresAt: number, margin: number): PsaResult<string> {
    const life = expiresAt - this.now()
    this.held = { value, renewAt: expiresAt - Math.min(margin, Math.max(0, life / 10)) }
    return { ok: true, value }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
