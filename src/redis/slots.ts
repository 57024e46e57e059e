// Slots of a group shared by every process (a kind's `perGroup` cap: one usage push per service and
// account at a time, a partner's alerts at once), leased in Redis with redis-semaphore: a slot whose
// holder died comes back by itself when its lease ends.
import { Semaphore } from 'redis-semaphore'
import type { RedisHandle } from './connect.js'

export interface Slot {
  release(): Promise<void>
}

export interface GroupSlots {
  /** One of the group's `limit` slots for up to `leaseMs`, or false when all are taken. */
  take(group: string, limit: number, leaseMs: number): Promise<Slot | false>
}

export function redisGroupSlots(redis: Pick<RedisHandle, 'client' | 'key'>): GroupSlots {
  return {
    async take(group, limit, leaseMs) {
      const semaphore = new Semaphore(redis.client, redis.key('group', group), limit, {
        lockTimeout: leaseMs,
        acquireAttemptsLimit: 1,
        // The lease covers the job's own lease: nothing to refresh, and no timer per job.
        refreshInterval: 0,
      })
      if (!(await semaphore.tryAcquire())) return false
      return { release: () => semaphore.release() }
    },
  }
}
