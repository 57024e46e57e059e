// Per-vendor alert rate limit (docs/decision-table.md#rate-limited), a fixed one-minute window per vendor,
// counted once for the installation: in Redis when there is one (every process the same count), else in
// memory.
import { RateLimiterRes } from 'rate-limiter-flexible'
import { type Limiter, type LimiterFactory, memoryLimiters } from '../../platform/redis/limiters.js'

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  resetSeconds: number
}

export class VendorRateLimiter {
  /** One per limit; in Redis they share the vendor's key, so a changed limit keeps the minute's count. */
  private readonly limiters = new Map<number, Limiter>()

  constructor(
    private readonly defaultPerMinute: number,
    private readonly make: LimiterFactory = memoryLimiters,
  ) {}

  async consume(vendorId: string, perMinute: number | null): Promise<RateDecision> {
    const limit = perMinute ?? this.defaultPerMinute
    let limiter = this.limiters.get(limit)
    if (!limiter) {
      limiter = this.make({ keyPrefix: 'alerts', points: limit, duration: 60 })
      this.limiters.set(limit, limiter)
    }
    try {
      const res = await limiter.consume(vendorId)
      return {
        allowed: true,
        limit,
        remaining: res.remainingPoints,
        resetSeconds: Math.ceil(res.msBeforeNext / 1000),
      }
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection
      return {
        allowed: false,
        limit,
        remaining: 0,
        resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
      }
    }
  }
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), plus Retry-After when refused. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-policy': `"alerts";q=${d.limit};w=60`,
    ratelimit: `"alerts";r=${d.remaining};t=${d.resetSeconds}`,
  }
  if (!d.allowed) headers['retry-after'] = String(d.resetSeconds)
  return headers
}
