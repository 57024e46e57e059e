// The dynamic catalogue's cache, one slot per integration (15 minutes: docs/contract.md#vendor-endpoints,
// docs/decisions/catalogue/cache.md). Single-flight: concurrent misses share one vendor call.
// Stale-if-error: a failed call keeps the last good list, however old, and the next call waits
// `retryAfterErrorMs`. Budget: a caller waits at most `budgetMs` for a call; after that it gets the stale
// list (or nothing: the caller uses the static one) while the call goes on and fills the slot when it ends.
// Freshness is measured on the injected clock; the budget is real time (it bounds a request's latency). A
// hit does no I/O.
import { performance } from 'node:perf_hooks'
import type { Clock } from '../../platform/clock.js'
import type { ProductGroups } from '../../platform/core/types.js'
import { toProductGroups } from './product-groups.js'

export interface CachedList {
  groups: Record<string, string[]>
  catalogue: ProductGroups
  /** Clock time (ms) of the call that brought it. */
  fetchedAt: number
}

export type FetchResult = { ok: true; groups: Record<string, string[]> } | { ok: false; reason: string }

/** Why a lookup got no fresh list. */
export type MissReason = 'error' | 'timeout'

export type Lookup =
  | { kind: 'fresh'; list: CachedList }
  | { kind: 'stale'; list: CachedList; why: MissReason; reason: string }
  | { kind: 'none'; why: MissReason; reason: string }

export interface CacheEvents {
  /**
   * A vendor call ended. `stored`: its result went into the slot (false when the slot was forgotten
   * meanwhile); `previous` is the list the slot held before.
   */
  fetched(key: string, result: FetchResult, previous: CachedList | null, stored: boolean): void
  /** A lookup stopped waiting: the budget ran out. */
  timedOut(key: string): void
}

interface Slot {
  /** What the list was fetched from (URL, mapping); a different source starts a new slot. */
  source: string
  list: CachedList | null
  inflight: { result: Promise<FetchResult>; startedAt: number } | null
  /** After a failed call: no new call before this clock time. */
  retryAt: number | null
  lastError: string | null
}

/** docs/contract.md#vendor-endpoints: a partner's list is served from cache for 15 minutes. */
const ttlMs = 15 * 60 * 1000
/** docs/contract.md#vendor-endpoints: the vendor's endpoint should answer within 500 ms; callers wait no
 * longer. */
const budgetMs = 500
/** After a failed call, no new call for this long (a vendor that is down is not called per alert). */
const retryAfterErrorMs = 30_000

export class ProductGroupCache {
  private readonly slots = new Map<string, Slot>()

  constructor(
    private readonly clock: Clock,
    private readonly events: CacheEvents,
  ) {}

  /** The fresh list, or null. Synchronous and free of I/O: the alert path's hit. */
  hit(key: string, source: string): CachedList | null {
    const slot = this.slots.get(key)
    if (!slot || slot.source !== source || !slot.list) return null
    return this.clock().getTime() - slot.list.fetchedAt < ttlMs ? slot.list : null
  }

  /** Whatever list the slot holds, fresh or stale, without calling anyone. */
  peek(key: string, source: string): CachedList | null {
    const slot = this.slots.get(key)
    return slot && slot.source === source ? slot.list : null
  }

  /** The fresh list; on a miss, one shared call to `fetch`, waited for at most the budget. */
  async lookup(key: string, source: string, fetch: () => Promise<FetchResult>): Promise<Lookup> {
    const fresh = this.hit(key, source)
    if (fresh) return { kind: 'fresh', list: fresh }
    const slot = this.slot(key, source)
    if (!slot.inflight && slot.retryAt !== null && this.clock().getTime() < slot.retryAt) {
      return this.fallback(slot, 'error', `the last call failed (${slot.lastError}); next try later`)
    }
    const call = this.start(key, slot, fetch)
    const waited = performance.now() - call.startedAt
    const result = await withBudget(call.result, budgetMs - waited)
    if (result === null) {
      this.events.timedOut(key)
      return this.fallback(slot, 'timeout', `no answer within ${budgetMs} ms`)
    }
    if (result.ok) return { kind: 'fresh', list: slot.list ?? this.listOf(result.groups) }
    return this.fallback(slot, 'error', result.reason)
  }

  /** Starts a call unless one is running or the list is fresh; for readers that must not wait. */
  refresh(key: string, source: string, fetch: () => Promise<FetchResult>): void {
    if (this.hit(key, source)) return
    const slot = this.slot(key, source)
    if (!slot.inflight && slot.retryAt !== null && this.clock().getTime() < slot.retryAt) return
    this.start(key, slot, fetch)
  }

  /** Drops an integration's list (its credentials changed); a call in flight no longer fills it. */
  forget(key: string): void {
    this.slots.delete(key)
  }

  forgetAll(): void {
    this.slots.clear()
  }

  private slot(key: string, source: string): Slot {
    let slot = this.slots.get(key)
    if (!slot || slot.source !== source) {
      slot = { source, list: null, inflight: null, retryAt: null, lastError: null }
      this.slots.set(key, slot)
    }
    return slot
  }

  private start(key: string, slot: Slot, fetch: () => Promise<FetchResult>): NonNullable<Slot['inflight']> {
    if (slot.inflight) return slot.inflight
    const result = fetch()
      .catch((err): FetchResult => ({ ok: false, reason: err instanceof Error ? err.message : String(err) }))
      .then((r) => {
        const current = this.slots.get(key) === slot
        const previous = slot.list
        slot.inflight = null
        if (!current) {
          // forgotten meanwhile: the answer was for credentials that no longer apply
        } else if (r.ok) {
          slot.list = this.listOf(r.groups)
          slot.retryAt = null
          slot.lastError = null
        } else {
          slot.retryAt = this.clock().getTime() + retryAfterErrorMs
          slot.lastError = r.reason
        }
        this.events.fetched(key, r, previous, current)
        return r
      })
    slot.inflight = { result, startedAt: performance.now() }
    return slot.inflight
  }

  private listOf(groups: Record<string, string[]>): CachedList {
    return { groups, catalogue: toProductGroups(groups), fetchedAt: this.clock().getTime() }
  }

  private fallback(slot: Slot, why: MissReason, reason: string): Lookup {
    return slot.list ? { kind: 'stale', list: slot.list, why, reason } : { kind: 'none', why, reason }
  }
}

/** The promise's value, or null once `ms` have passed. */
async function withBudget<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  if (ms <= 0) return null
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}
