// Repeated failed sign-ins to the portal are refused for a while
// (docs/decisions/portal/sign-in-throttle.md), counted two ways: per email (someone guessing one user's
// password) and per client address (someone trying many emails). A window of 15 minutes starts with the
// first failure; past the limit, sign-ins are refused with 429 and Retry-After until it ends, without
// looking at the password. A success clears its email's count. Counts are the installation's, like the
// vendors' alert rate limit: in Redis when there is one, so failures are counted once whichever process a
// sign-in reaches, else in this process's memory.
import { RateLimiterRes } from 'rate-limiter-flexible'
import { type Limiter, type LimiterFactory, memoryLimiters } from '../redis/limiters.js'

export const throttleWindowSeconds = 15 * 60

export class SignInThrottle {
  private readonly byEmail: Limiter
  private readonly byAddress: Limiter

  constructor(
    limits: { failuresPerEmail: number; failuresPerIp: number },
    make: LimiterFactory = memoryLimiters,
  ) {
    this.byEmail = make({
      keyPrefix: 'sign-in-email',
      points: limits.failuresPerEmail,
      duration: throttleWindowSeconds,
    })
    this.byAddress = make({
      keyPrefix: 'sign-in-ip',
      points: limits.failuresPerIp,
      duration: throttleWindowSeconds,
    })
  }

  /** Seconds until this email and address may try again; 0 when they may now. */
  async retryAfter(email: string, address: string): Promise<number> {
    const waits = await Promise.all([wait(this.byEmail, email), wait(this.byAddress, address)])
    return Math.max(...waits)
  }

  async failed(email: string, address: string): Promise<void> {
    await Promise.all([spend(this.byEmail, email), spend(this.byAddress, address)])
  }

  async succeeded(email: string): Promise<void> {
    await this.byEmail.delete(email)
  }
}

async function wait(limiter: Limiter, key: string): Promise<number> {
  const res = await limiter.get(key)
  if (!res || res.consumedPoints < limiter.points) return 0
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000))
}

async function spend(limiter: Limiter, key: string): Promise<void> {
  try {
    await limiter.consume(key)
  } catch (rejection) {
    // Already past the limit: the key stays refused until its window ends.
    if (!(rejection instanceof RateLimiterRes)) throw rejection
  }
}
