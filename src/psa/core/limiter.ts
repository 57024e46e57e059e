// One PSA connection's limits, kept before the PSA has to refuse: at most `perEndpoint` calls in flight
// per endpoint (a bulkhead; more wait their turn, or give up when their signal fires), optional request
// budgets per window for the connection or for each endpoint (Autotask 10,000 an hour, Syncro 180 a
// minute, Kaseya BMS 1,500 an hour per endpoint), a pause after the PSA answered 429 (until its Retry-After), and a breaker
// that stops calling a PSA that keeps failing (network errors, timeouts, 5xx) for a growing while.
// While paused or broken, calls fail at once with a retryable failure that says when to try again, so
// a queued alert is deferred instead of spinning on a PSA that cannot answer.
import { type BulkheadPolicy, bulkhead, TaskCancelledError } from 'cockatiel'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import type { PsaFailure, PsaResult } from '../adapter.js'

export interface LimiterOptions {
  /** Calls in flight at once per endpoint (the whole connection is one endpoint unless the PSA counts per endpoint). */
  perEndpoint: number
  /** Requests allowed per rolling hour for the whole connection (Autotask: 10,000 per tenant). */
  hourlyBudget?: number
  /** Further budgets: `points` requests per `perSeconds`, for the whole connection or each endpoint. */
  budgets?: readonly Budget[]
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

interface Counted extends Budget {
  limiter: RateLimiterMemory
}

const defaultBreaker = { failures: 5, firstPauseMs: 5_000, maxPauseMs: 5 * 60_000 }

export class ConnectionLimiter {
  private readonly bulkheads = new Map<string, BulkheadPolicy>()
  private readonly budgets: Counted[]
  private readonly breaker: Required<LimiterOptions>['breaker']
  private readonly now: () => number
  private pausedUntil = 0
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
  ): Promise<PsaResult<T>> {
    const refused = this.refusal()
    if (refused) return { ok: false, failure: refused }
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
            message: `the budget of ${b.points} requests per ${window(b.perSeconds)}${scope} is spent`,
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

  /** The PSA asked for a pause (429 with Retry-After): no call of this connection before it ends. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms)
  }

  /** How much of the connection's hourly budget this process has used (null without one). */
  async budgetUsed(): Promise<number | null> {
    const hourly = this.budgets.find((b) => b.per === 'connection' && b.perSeconds === 3600)
    if (!hourly) return null
    const res = await hourly.limiter.get('calls')
    // Refused calls are counted by the limiter too; they were not spent on the PSA.
    return res ? Math.min(res.consumedPoints, hourly.points) : 0
  }

  private refusal(): PsaFailure | null {
    const now = this.now()
    if (this.pausedUntil > now) {
      const wait = this.pausedUntil - now
      return {
        kind: 'rate-limited',
        retryable: true,
        retryAfterMs: wait,
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
    if (result.ok || !result.failure.retryable || result.failure.kind === 'rate-limited') {
      if (!result.ok && result.failure.kind === 'rate-limited' && result.failure.retryAfterMs)
        this.pause(result.failure.retryAfterMs)
      if (result.ok || !result.failure.retryable) this.failures = 0
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

const window = (seconds: number) =>
  seconds === 3600 ? 'hour' : seconds === 60 ? 'minute' : seconds === 1 ? 'second' : `${seconds} s`
