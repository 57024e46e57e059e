// Syncro's request limit as the adapter keeps it (docs/psa/syncro.md, "Limits"). Syncro allows 180
// requests a minute per client IP address, not per token or connection: every partner whose calls leave
// through one alertbridge address shares those 180. So the budget is counted per Syncro service and
// egress (EGRESS_NAME), shared by every connection of this process and, where Redis counts
// (PsaKindOptions.limiters), by every process with that egress name. A spent budget is a throttled,
// retryable failure that says how long to wait.
//
// A 429 all the same (other software calling Syncro from the address, or a process that counts in its
// own memory) pauses every connection of this process to that Syncro service for the wait Syncro asked.
// Syncro normally says none: the wait is then a minute, and what is left of the shared minute is spent,
// so that the other processes counting in Redis stop too. (Where Syncro does send a Retry-After, only
// this process waits that long; another process meets its own 429 and waits as it is told.)
import { type Limiter, type LimiterFactory, memoryLimiters } from '../../platform/redis/limiters.js'
import type { PsaFailure } from '../adapter.js'
import type { SharedBudget } from '../core/limiter.js'

/** Syncro's published limit: 180 requests a minute per client address. */
export const syncroPerMinute = 180

/**
 * The Syncro service a root belongs to, which the address limit is counted for. Syncro's docs state
 * the limit per IP address, not per account: every account's host under syncromsp.com is one Syncro
 * (and one budget). Any other root (a proxy, a simulator) is its own host.
 */
export function serviceOf(root: string): string {
  if (!URL.canParse(root)) return root || 'none'
  const host = new URL(root).host.toLowerCase()
  return /(^|\.)syncromsp\.com$/.test(host) ? 'syncromsp.com' : host
}

/** How long a connection waits after a 429, for every connection to the same Syncro. */
class Pause {
  until = 0
  asked = false
}

export class SyncroLimits {
  private readonly limiter: Limiter
  private readonly pauses = new Map<string, Pause>()
  private readonly egress: string

  constructor(
    o: { limiters?: LimiterFactory; egress?: string; perMinute?: number },
    private readonly now: () => number = Date.now,
  ) {
    this.limiter = (o.limiters ?? memoryLimiters)({
      keyPrefix: 'psa-syncro',
      points: o.perMinute ?? syncroPerMinute,
      duration: 60,
    })
    this.egress = o.egress ?? 'default'
  }

  /** The shared budget a connection to `root` spends from. */
  budget(root: string): SharedBudget {
    return {
      limiter: this.limiter,
      key: this.key(root),
      label: `Syncro's ${this.limiter.points} requests a minute from this address`,
    }
  }

  /** Why a call to `root` may not go now (a 429 paused it), or null. */
  refusal(root: string): PsaFailure | null {
    const p = this.pauses.get(serviceOf(root))
    const wait = p ? p.until - this.now() : 0
    if (!p || wait <= 0) return null
    return {
      kind: 'rate-limited',
      retryable: true,
      retryAfterMs: wait,
      ...(p.asked ? { throttled: true } : {}),
      message: `Syncro asked to slow down; calls resume in ${Math.ceil(wait / 1000)} s`,
    }
  }

  /**
   * Syncro answered 429: no call to it from this process for `ms`; without a wait asked (`asked`
   * false: the minute is guessed), the shared minute is spent for every process.
   */
  refused(root: string, ms: number, asked: boolean): void {
    const service = serviceOf(root)
    let p = this.pauses.get(service)
    if (!p) {
      p = new Pause()
      this.pauses.set(service, p)
    }
    const until = this.now() + ms
    if (until >= p.until) {
      p.until = until
      p.asked = asked
    }
    // A refused consume is counted all the same: the rest of the window is gone for every process.
    if (!asked) this.limiter.consume(this.key(root), this.limiter.points).catch(() => {})
  }

  private key(root: string): string {
    return `${serviceOf(root)}|${this.egress}`
  }
}
