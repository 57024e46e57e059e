// One PSA connection's limits, kept before the PSA has to refuse: at most `perEndpoint` calls in flight
// per endpoint (a bulkhead; more wait their turn, or give up when their signal fires), optional request
// budgets per window for the connection or for each endpoint (Autotask 10,000 an hour, Syncro 180 a
// minute, Kaseya BMS 1,500 an hour per endpoint), a pause after the PSA answered 429 (until its Retry-After), and a breaker
// that stops calling a PSA that keeps failing (network errors, timeouts, 5xx) for a growing while.
// While paused or broken, calls fail at once with a retryable failure that says when to try again, so
// a queued alert is deferred instead of spinning on a PSA that cannot answer.
import { type BulkheadPolicy, bulkhead, TaskCancelledError } from 'cockatiel'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import type { Limiter } from '../../platform/redis/limiters.js'
import type { PsaFailure, PsaResult } from '../adapter.js'
import type { SyncSpend } from '../calls.js'

export interface LimiterOptions {
  /** Calls in flight at once per endpoint (the whole connection is one endpoint unless the PSA counts per endpoint). */
  perEndpoint: number
  /** Requests allowed per rolling hour for the whole connection (Autotask: 10,000 per tenant). */
  hourlyBudget?: number
  /** Further budgets: `points` requests per `perSeconds`, for the whole connection or each endpoint. */
  budgets?: readonly Budget[]
  /**
   * Budgets this connection shares with others (every connection to one Syncro host from one egress
   * address, across processes where Redis counts): `limiter` holds the count under `key`.
   */
  shared?: readonly SharedBudget[]
  /** Consecutive failures that open the breaker, and its first and longest pause. */
  breaker?: { failures: number; firstPauseMs: number; maxPauseMs: number }
  now?: () => number
}

export interface Budget {
  points: number
  perSeconds: number
  /** 'endpoint': each endpoint (the `endpoint` a request names) has a budget of its own. */
  per: 'connection' | 'endpoint'
}

export interface SharedBudget {
  limiter: Limiter
  key: string
  /** What the budget is, for the message when it is spent ("Syncro's 180 requests a minute from this address"). */
  label: string
}

interface Counted extends Budget {
  limiter: RateLimiterMemory
}

/**
 * How full the fullest budget may be before two-way sync's reads hold back (docs/psa/sync.md#the-poll-and-the-budget):
 * the poll and pushed read-backs take at most half of every budget, so alerts always keep the other half
 * and whatever sync leaves; the poll's one read a round that keeps it from going silent goes until
 * notes would wait ("Near the limit" in docs/psa/README.md), so creates and closes keep the last 5%.
 */
export const syncCeilings: Readonly<Record<SyncSpend, number>> = { sync: 0.5, 'sync-due': 0.95 }

const defaultBreaker = { failures: 5, firstPauseMs: 5_000, maxPauseMs: 5 * 60_000 }

export class ConnectionLimiter {
  private readonly bulkheads = new Map<string, BulkheadPolicy>()
  /** The endpoints called so far: where a budget counts per endpoint, its share is the fullest one's. */
  private readonly endpoints = new Set<string>()
  private readonly budgets: Counted[]
  private readonly breaker: Required<LimiterOptions>['breaker']
  private readonly now: () => number
  private pausedUntil = 0
  /** The pause was asked for (a Retry-After, our own budget), not guessed after a bare 429. */
  private pauseAsked = false
  private failures = 0
  private openUntil = 0

  constructor(private readonly o: LimiterOptions) {
    const budgets: Budget[] = [
      ...(o.hourlyBudget ? [{ points: o.hourlyBudget, perSeconds: 3600, per: 'connection' as const }] : []),
      ...(o.budgets ?? []),
    ]
    this.budgets = budgets.map((b) => ({
      ...b,
      limiter: new RateLimiterMemory({ points: b.points, duration: b.perSeconds }),
    }))
    this.breaker = o.breaker ?? defaultBreaker
    this.now = o.now ?? Date.now
  }

  /** Runs one call within the limits; `call` answers with a value, never throws for the PSA's failures. */
  async run<T>(
    endpoint: string,
    signal: AbortSignal,
    call: () => Promise<PsaResult<T>>,
    spend?: SyncSpend,
  ): Promise<PsaResult<T>> {
    const refused = this.refusal()
    if (refused) return { ok: false, failure: refused }
    this.endpoints.add(endpoint)
    if (spend) {
      const held = await this.holdBack(spend, endpoint)
      if (held) return { ok: false, failure: held }
    }
    for (const b of this.budgets) {
      try {
        await b.limiter.consume(b.per === 'endpoint' ? endpoint : 'calls')
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection
        const scope = b.per === 'endpoint' ? ` for ${endpoint}` : ''
        return {
          ok: false,
          failure: {
            kind: 'rate-limited',
            retryable: true,
            retryAfterMs: rejection.msBeforeNext,
            throttled: true,
            message: `${budgetLabel(b)}${scope} is spent`,
          },
        }
      }
    }
    for (const b of this.o.shared ?? []) {
      try {
        await b.limiter.consume(b.key)
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection
        return {
          ok: false,
          failure: {
            kind: 'rate-limited',
            retryable: true,
            retryAfterMs: rejection.msBeforeNext,
            throttled: true,
            message: `${b.label} are spent`,
          },
        }
      }
    }
    // The bulkhead looks at the signal only when a slot frees; a caller whose budget runs out while it
    // waits is answered at once (its queued turn is then cancelled, and that rejection is expected). A
    // call that was running when the budget ran out counts as a failure of the PSA (it did not answer).
    let started = false
    const queued = this.bulkhead(endpoint).execute(() => {
      started = true
      return call()
    }, signal)
    queued.catch(() => {})
    let onAbort: (() => void) | undefined
    const gaveUp = new Promise<null>((resolve) => {
      onAbort = () => resolve(null)
      if (signal.aborted) resolve(null)
      else signal.addEventListener('abort', onAbort, { once: true })
    })
    let result: PsaResult<T> | null
    try {
      result = await Promise.race([queued, gaveUp])
    } catch (err) {
      if (!(err instanceof TaskCancelledError)) throw err
      result = null
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort)
    }
    if (result === null) {
      const failure: PsaFailure = {
        kind: 'timeout',
        retryable: true,
        message: 'no answer within the time budget',
      }
      if (started) this.observe({ ok: false, failure })
      return { ok: false, failure }
    }
    this.observe(result)
    return result
  }

  /**
   * No call of this connection for `ms`: the PSA asked for it (`asked`: a Retry-After, or our own
   * reading of its threshold), or a 429 without Retry-After suggests it.
   */
  pause(ms: number, asked = true): void {
    const until = this.now() + ms
    if (until < this.pausedUntil) return
    this.pausedUntil = until
    this.pauseAsked = asked
  }

  /** How much of the connection's hourly budget this process has used (null without one). */
  async budgetUsed(): Promise<number | null> {
    const hourly = this.budgets.find((b) => b.per === 'connection' && b.perSeconds === 3600)
    if (!hourly) return null
    const res = await hourly.limiter.get('calls')
    // Refused calls are counted by the limiter too; they were not spent on the PSA.
    return res ? Math.min(res.consumedPoints, hourly.points) : 0
  }

  /**
   * How full the connection's fullest budget is, 0 to 1 (0 without budgets): what the alert path asks
   * before a note, so that near a PSA's limit creates and closes go first and notes are batched
   * (docs/psa/README.md, "Near the limit"). Refused calls count as spent here (the limiter counts them).
   */
  async share(): Promise<number> {
    let fullest = 0
    for (const r of await this.readings([...this.endpoints]))
      fullest = Math.max(fullest, Math.min(1, (r.res?.consumedPoints ?? 0) / r.points))
    return fullest
  }

  /**
   * A sync read is not made while a budget it would spend from is at its ceiling: it waits (a
   * throttled failure) until the fullest such budget's window frees room, and spends nothing meanwhile.
   */
  private async holdBack(spend: SyncSpend, endpoint: string): Promise<PsaFailure | null> {
    const ceiling = syncCeilings[spend]
    let held: { waitMs: number; label: string } | null = null
    for (const { res, points, label } of await this.readings([endpoint])) {
      if (!res || res.consumedPoints < points * ceiling) continue
      if (!held || res.msBeforeNext > held.waitMs) held = { waitMs: res.msBeforeNext, label }
    }
    if (held === null) return null
    return {
      kind: 'rate-limited',
      retryable: true,
      retryAfterMs: Math.max(1, held.waitMs),
      throttled: true,
      message: `two-way sync leaves the rest of ${held.label} to alerts (${Math.round(ceiling * 100)}% used)`,
    }
  }

  /** Every budget's count as it stands (an endpoint budget's for each of `endpoints`), and its name. */
  private async readings(
    endpoints: readonly string[],
  ): Promise<{ res: RateLimiterRes | null; points: number; label: string }[]> {
    const out: { res: RateLimiterRes | null; points: number; label: string }[] = []
    for (const b of this.budgets)
      for (const key of b.per === 'endpoint' ? endpoints : ['calls'])
        out.push({ res: await b.limiter.get(key), points: b.points, label: budgetLabel(b) })
    for (const b of this.o.shared ?? [])
      out.push({
        res: await b.limiter.get(b.key).catch(() => null),
        points: b.limiter.points,
        label: b.label,
      })
    return out.filter((r) => r.points > 0)
  }

  private refusal(): PsaFailure | null {
    const now = this.now()
    if (this.pausedUntil > now) {
      const wait = this.pausedUntil - now
      return {
        kind: 'rate-limited',
        retryable: true,
        retryAfterMs: wait,
        ...(this.pauseAsked ? { throttled: true } : {}),
        message: `the PSA asked to slow down; calls resume in ${Math.ceil(wait / 1000)} s`,
      }
    }
    if (this.openUntil > now) {
      const wait = this.openUntil - now
      return {
        kind: 'unavailable',
        retryable: true,
        retryAfterMs: wait,
        message: `the PSA failed ${this.failures} times in a row; calls resume in ${Math.ceil(wait / 1000)} s`,
      }
    }
    return null
  }

  private observe(result: PsaResult<unknown>): void {
    const f = result.ok ? null : result.failure
    // Asked to wait (429, or 503 with Retry-After): the connection pauses; that is not a failure.
    if (f && (f.kind === 'rate-limited' || f.throttled)) {
      if (f.retryAfterMs) this.pause(f.retryAfterMs, f.throttled === true)
      return
    }
    if (!f?.retryable) {
      this.failures = 0
      return
    }
    this.failures++
    const over = this.failures - this.breaker.failures
    if (over >= 0) {
      const pause = Math.min(this.breaker.maxPauseMs, this.breaker.firstPauseMs * 2 ** over)
      this.openUntil = this.now() + pause
    }
  }

  private bulkhead(endpoint: string): BulkheadPolicy {
    let b = this.bulkheads.get(endpoint)
    if (!b) {
      b = bulkhead(this.o.perEndpoint, Number.POSITIVE_INFINITY)
      this.bulkheads.set(endpoint, b)
    }
    return b
  }
}

const budgetLabel = (b: Budget) => `the budget of ${b.points} requests per ${window(b.perSeconds)}`

const window = (seconds: number) =>
  seconds === 3600 ? 'hour' : seconds === 60 ? 'minute' : seconds === 1 ? 'second' : `${seconds} s`
