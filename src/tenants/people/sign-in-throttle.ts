// Failed sign-ins to the portal slow down whoever fails, never the account's owner
// (docs/decisions/portal/sign-in-slowdown.md). Two counts:
// - per address AND email (a pair): the first `failuresPerEmail` failures are answered at once; each
//   further one makes that pair wait twice as long before its next try (1 s, 2 s, 4 s… up to 15 minutes).
//   A success clears the pair. Failures from address A hold back only A: the owner signing in from B,
//   where nobody failed, is never refused, so knowing an email is not enough to lock its owner out.
// - per address across emails (`failuresPerIp` within an hour): past it, that address is refused until
//   the hour ends, which stops one address spraying a common password over many emails. A success gives
//   its attempt back, so an office behind one address is not held back by its colleagues signing in.
// A pair's attempts are checked one at a time (a lease in the same store), and an address's attempt is
// counted before its password is checked, so attempts sent together cannot slip past either count.
// While a pair or an address must wait, the answer is 429 with Retry-After and the password is not
// looked at. Counts are the installation's, like the vendors' alert rate limit: in Redis when there is
// one, else in this process's memory.
import { RateLimiterRes } from 'rate-limiter-flexible'
import { type Limiter, type LimiterFactory, memoryLimiters } from '../../platform/redis/limiters.js'

/** The longest a pair waits. */
export const maxWaitSeconds = 15 * 60
/** How long a pair's failures are remembered after its first one (without a success). */
const pairMemorySeconds = 24 * 3600
/** The window of an address's failures across emails. */
export const addressWindowSeconds = 3600
/** How long a pair's attempt may hold its lease when its process stops before giving it back. */
const busyLeaseSeconds = 30

/** Seconds a pair waits after its `failures`-th failure when `free` are answered at once. */
export function waitAfter(failures: number, free: number): number {
  const beyond = failures - free
  return beyond <= 0 ? 0 : Math.min(maxWaitSeconds, 2 ** Math.min(beyond - 1, 20))
}

export type Attempt =
  /** Refused without looking at the password: try again in this many seconds. */
  | { refused: true; retryAfter: number; why: 'pair' | 'address' }
  /** The password was checked: whether it was right. */
  | { refused: false; passed: boolean }

export class SignInThrottle {
  private readonly pairFailures: Limiter
  private readonly pairWait: Limiter
  private readonly pairBusy: Limiter
  private readonly byAddress: Limiter
  private readonly free: number

  constructor(
    limits: { failuresPerEmail: number; failuresPerIp: number },
    make: LimiterFactory = memoryLimiters,
  ) {
    this.free = limits.failuresPerEmail
    // Points far above any count: this one only counts, it never refuses by itself.
    this.pairFailures = make({ keyPrefix: 'sign-in-pair', points: 1_000_000, duration: pairMemorySeconds })
    this.pairWait = make({ keyPrefix: 'sign-in-wait', points: 1, duration: maxWaitSeconds })
    // One attempt of a pair at a time: a lease taken before the password is checked, given back after
    // (or left to lapse if the process stops meanwhile).
    this.pairBusy = make({ keyPrefix: 'sign-in-busy', points: 1, duration: busyLeaseSeconds })
    this.byAddress = make({
      keyPrefix: 'sign-in-ip',
      points: limits.failuresPerIp,
      duration: addressWindowSeconds,
    })
  }

  /**
   * Checks a password for `email` from `address` under the throttle: refuses while the pair or the
   * address must wait (or another attempt of the pair is being checked), else counts the attempt, runs
   * `check`, and then makes the pair wait when it failed or clears the pair when it passed.
   */
  async attempt(email: string, address: string, check: () => Promise<boolean>): Promise<Attempt> {
    const pair = `${address} ${email}`
    const wait = await waiting(this.pairWait, pair)
    if (wait > 0) return { refused: true, retryAfter: wait, why: 'pair' }
    if (!(await take(this.pairBusy, pair))) return { refused: true, retryAfter: 1, why: 'pair' }
    try {
      const [failures, fromAddress] = await Promise.all([
        count(this.pairFailures, pair),
        count(this.byAddress, address),
      ])
      if (fromAddress.count > this.byAddress.points) {
        await this.pairFailures.reward(pair, 1)
        return { refused: true, retryAfter: fromAddress.retryAfter, why: 'address' }
      }
      const passed = await check()
      if (passed) {
        await Promise.all([this.pairFailures.delete(pair), this.byAddress.reward(address, 1)])
      } else {
        const next = waitAfter(failures.count, this.free)
        if (next > 0) await this.pairWait.block(pair, next)
      }
      return { refused: false, passed }
    } finally {
      await this.pairBusy.delete(pair)
    }
  }
}

/** Seconds before the key may try again; 0 when it may now. */
async function waiting(limiter: Limiter, key: string): Promise<number> {
  const res = await limiter.get(key)
  if (!res || res.consumedPoints <= limiter.points) return 0
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000))
}

/** Takes the key's one point; false when it is taken already. */
async function take(limiter: Limiter, key: string): Promise<boolean> {
  try {
    await limiter.consume(key)
    return true
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return false
    throw rejection
  }
}

/** Counts one more attempt: how many the key has now, and when its window ends. */
async function count(limiter: Limiter, key: string): Promise<{ count: number; retryAfter: number }> {
  let res: RateLimiterRes
  try {
    res = await limiter.consume(key)
  } catch (rejection) {
    // Past the limit: still counted.
    if (!(rejection instanceof RateLimiterRes)) throw rejection
    res = rejection
  }
  return { count: res.consumedPoints, retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) }
}
