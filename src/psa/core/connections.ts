// What an adapter keeps per connection: its limiter and what it discovered (a ConnectWise codebase, an
// Autotask zone, look-up lists for resolving names to ids). Keyed by the connection's fingerprint, so
// changed settings start afresh; kept while used (an LRU with an idle expiry).
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { PsaCall, PsaConnection, PsaResult } from '../adapter.js'

export function fingerprint(conn: PsaConnection<unknown>): string {
  return createHash('sha256')
    .update(`${conn.partnerId}\n${conn.kind}\n${stable(conn.settings)}`)
    .digest('base64url')
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export class ConnectionPool<S, T extends object> {
  private readonly states: LRUCache<string, T>

  constructor(private readonly make: (conn: PsaConnection<S>) => T) {
    this.states = new LRUCache({ max: 10_000, ttl: 60 * 60 * 1000, updateAgeOnGet: true })
  }

  of(conn: PsaConnection<S>): T {
    const key = fingerprint(conn)
    let state = this.states.get(key)
    if (!state) {
      state = this.make(conn)
      this.states.set(key, state)
    }
    return state
  }
}

/**
 * A PSA answer fetched once and kept for `ttlMs`; concurrent callers share one fetch; failures are not
 * kept. The fetch runs on a budget of its own, not the first caller's: a caller that gives up (its
 * alert's budget ran out) does not cut short a discovery or a list the next attempt will need.
 */
export class CachedResult<T> {
  private value: { at: number; value: T } | null = null
  private pending: Promise<PsaResult<T>> | null = null

  constructor(private readonly ttlMs: number) {}

  /** The value held, whatever its age, without fetching (null before the first success). */
  peek(): T | null {
    return this.value?.value ?? null
  }

  async get(
    fetch: (call: PsaCall) => Promise<PsaResult<T>>,
    caller: PsaCall,
    fresh = false,
  ): Promise<PsaResult<T>> {
    if (!fresh && this.value && Date.now() - this.value.at < this.ttlMs)
      return { ok: true, value: this.value.value }
    this.pending ??= fetch({ signal: AbortSignal.timeout(fetchBudgetMs) })
      .then((result) => {
        if (result.ok) this.value = { at: Date.now(), value: result.value }
        return result
      })
      .finally(() => {
        this.pending = null
      })
    return waitOrGiveUp(this.pending, caller.signal)
  }
}

/** How long a shared fetch (discovery, a list) may take, whoever asked first. */
const fetchBudgetMs = 60_000

/** The promise's value, or a timeout failure as soon as the caller's signal fires. */
export function waitOrGiveUp<T>(p: Promise<PsaResult<T>>, signal: AbortSignal): Promise<PsaResult<T>> {
  const failure: PsaResult<T> = {
    ok: false,
    failure: { kind: 'timeout', retryable: true, message: 'no answer within the time budget' },
  }
  if (signal.aborted) return Promise.resolve(failure)
  return new Promise((resolve) => {
    const onAbort = () => resolve(failure)
    signal.addEventListener('abort', onAbort, { once: true })
    p.then(resolve, () => resolve(failure)).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** The map's cached result for `key`, made on first use. */
export function cachedIn<K, T>(map: Map<K, CachedResult<T>>, key: K, ttlMs: number): CachedResult<T> {
  let cached = map.get(key)
  if (!cached) {
    cached = new CachedResult<T>(ttlMs)
    map.set(key, cached)
  }
  return cached
}
