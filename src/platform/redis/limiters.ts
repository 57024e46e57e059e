// Rate limiters counted once for the installation (docs/decisions/scale-out/shared-limiters.md). The
// composition root picks the store: without Redis each limiter counts in this process's memory (one
// process: the count is the installation's); with Redis every process counts in the same Redis keys, so a
// vendor limited to 600 alerts a minute gets 600 across all api processes, not 600 per process.
//
// Redis unreachable (down, restarting, slower than `commandTimeoutMs`): the limiter counts in this
// process's memory instead (rate-limiter-flexible's insuranceLimiter) and logs it, at most once per
// `logEveryMs`. A limit is then enforced per process for as long as Redis is away, as it was before
// Redis: an alert is never refused, delayed or lost because the limiter's store is away.
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import type { RedisHandle } from './connect.js'

export interface LimiterSpec {
  /** What is counted (`alerts`, `sign-in-email`…): keys of different limiters never mix. */
  keyPrefix: string
  points: number
  /** The window, in seconds. */
  duration: number
}

/** What the users need of a limiter: consume, get, delete, block, reward and its points. */
export type Limiter = Pick<RateLimiterAbstract, 'consume' | 'get' | 'delete' | 'block' | 'reward' | 'points'>

/** Builds a limiter in the installation's store. */
export type LimiterFactory = (spec: LimiterSpec) => Limiter

/** Each limiter in this process's memory: one process, or tests of one class. */
export const memoryLimiters: LimiterFactory = (spec) => new RateLimiterMemory(spec)

/** A Redis command that has no answer within this long counts in memory instead. */
const commandTimeoutMs = 500
const logEveryMs = 10_000

/**
 * Each limiter in Redis under `prefix:limit:<keyPrefix>:<key>`, with an in-memory stand-in while
 * Redis cannot answer. The limiters share one connection of their own, which fails a command at once
 * when it is not connected (no offline queue, no retries) and after `commandTimeoutMs` when Redis is
 * slow: the shared command connection waits for a reconnection instead (BullMQ needs that), which
 * would hold an alert request for as long as Redis is away.
 */
export function redisLimiters(redis: RedisHandle, log: FastifyBaseLogger): LimiterFactory {
  // Made now, with the services, so it is up by the time the first request is served; before it is
  // (and whenever it is not), limiters count in memory.
  const connection: Redis = redis.duplicate({
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectionName: 'alertbridge-limits',
  })
  let loggedAt = Number.NEGATIVE_INFINITY
  const fellBack = (keyPrefix: string) => {
    const now = Date.now()
    if (now - loggedAt < logEveryMs) return
    loggedAt = now
    log.warn(
      { limiter: keyPrefix },
      'rate limits: Redis cannot be reached, counting in this process until it can (limits are per process meanwhile)',
    )
  }
  return (spec) => {
    return new RateLimiterRedis({
      storeClient: connection,
      useRedisPackage: false,
      rejectIfRedisNotReady: true,
      keyPrefix: redis.key('limit', spec.keyPrefix),
      points: spec.points,
      duration: spec.duration,
      insuranceLimiter: new Insurance(spec, () => fellBack(spec.keyPrefix)),
    })
  }
}

/** The in-memory stand-in: says when it is used, which is only when Redis failed. */
class Insurance extends RateLimiterMemory {
  constructor(
    spec: LimiterSpec,
    private readonly used: () => void,
  ) {
    super(spec)
  }

  override consume(key: string | number, points?: number, options?: object): Promise<RateLimiterRes> {
    this.used()
    return super.consume(key, points, options)
  }

  override get(key: string | number, options?: object): Promise<RateLimiterRes | null> {
    this.used()
    return super.get(key, options)
  }

  override delete(key: string | number, options?: object): Promise<boolean> {
    this.used()
    return super.delete(key, options)
  }

  override block(key: string | number, secDuration: number, options?: object): Promise<RateLimiterRes> {
    this.used()
    return super.block(key, secDuration, options)
  }
}

/** The one choice of where limits are counted: in Redis for every process (REDIS_URL), else here. */
export function limitersFor(redis: RedisHandle | null, log: FastifyBaseLogger): LimiterFactory {
  return redis ? redisLimiters(redis, log) : memoryLimiters
}

/**
 * A limit of `points` calls a `duration` per key (a user, an integration), counted in the
 * installation's store; the caller refuses what is past it (429 with Retry-After: platform/core/result.ts).
 */
export class KeyedLimit {
  private readonly limiter: Limiter

  constructor(
    make: LimiterFactory,
    readonly spec: LimiterSpec,
  ) {
    this.limiter = make(spec)
  }

  /** Counts one call of `key`: null when it may go on, else the seconds before it may. */
  async take(key: string): Promise<number | null> {
    try {
      await this.limiter.consume(key)
      return null
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))
    }
  }
}
