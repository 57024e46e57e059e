// Slots of a group shared by every process (a kind's `perGroup` cap: 4 deliveries in flight to one
// vendor endpoint, one usage push per service and account at a time, a partner's alerts at once),
// leased in Redis with redis-semaphore under `<prefix>:group:<group>`. A slot is taken for one job
// run; its lease is the job's (the runner says how long: 30 s) and is renewed while the job runs, so a
// slot whose holder died comes back by itself within one lease, with nothing to clean up.
import type { FastifyBaseLogger } from 'fastify'
import type { RedisHandle } from './connect.js'
import { redisSemaphore } from './packages.js'

export interface Slot {
  release(): Promise<void>
}

export interface GroupSlots {
  /** One of the group's `limit` slots, kept while it is held, or false when all are taken. */
  take(group: string, limit: number): Promise<Slot | false>
}

/**
 * redis-semaphore's counting semaphore under the key it is given: the library prefixes `semaphore:`,
 * which would put the key outside the installation's REDIS_PREFIX (connect.ts: every key starts with
 * it). A renewal that fails because Redis cannot be asked keeps the slot rather than throwing from the
 * library's timer (an unhandled rejection); if the lease did run out meanwhile, the next renewal that
 * reaches Redis reports the slot lost.
 */
type SemaphoreOf = InstanceType<ReturnType<typeof redisSemaphore>['Semaphore']>
type SemaphoreArgs = ConstructorParameters<ReturnType<typeof redisSemaphore>['Semaphore']>
let Prefixed: (new (...args: SemaphoreArgs) => SemaphoreOf) | null = null

/** The class, made on first use (the package loads with it: packages.ts). */
function prefixedSemaphore(): new (...args: SemaphoreArgs) => SemaphoreOf {
  Prefixed ??= class PrefixedSemaphore extends redisSemaphore().Semaphore {
    constructor(...args: SemaphoreArgs) {
      super(...args)
      this._key = args[1]
    }

    protected override async _refresh(): Promise<boolean> {
      try {
        return await super._refresh()
      } catch {
        return true
      }
    }
  }
  return Prefixed
}

export function redisGroupSlots(
  redis: Pick<RedisHandle, 'client' | 'key'>,
  o: { log: FastifyBaseLogger; leaseMs: number; renewEveryMs: number },
): GroupSlots {
  return {
    async take(group, limit) {
      const semaphore = new (prefixedSemaphore())(redis.client, redis.key('group', group), limit, {
        lockTimeout: o.leaseMs,
        acquireAttemptsLimit: 1,
        refreshInterval: o.renewEveryMs,
        // Only when a renewal reached Redis and found the lease gone (Redis emptied, or unreachable for
        // longer than the lease): the job goes on, and the group may pass its cap by one until it ends.
        onLockLost: (err) => o.log.warn({ err, group }, 'a group slot was lost while its job ran'),
      })
      if (!(await semaphore.tryAcquire())) return false
      return { release: () => semaphore.release() }
    },
  }
}
