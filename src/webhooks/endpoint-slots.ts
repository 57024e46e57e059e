// Request slots per vendor endpoint (DESIGN §4: at most 4 deliveries in flight to one endpoint). The
// dispatcher takes a slot before an attempt and gives it back once the answer is in. Without Redis the
// slots are counted in this process, which is then the only one sending; with Redis they are leases in
// a sorted set per endpoint (redis-semaphore), shared by every process of the installation, and a
// process that dies without giving its slots back loses them when their lease ends.
import type { FastifyBaseLogger } from 'fastify'
import { Semaphore } from 'redis-semaphore'
import type { RedisHandle } from '../redis/connect.js'

/** One request slot of one endpoint, held until released. */
export interface Slot {
  readonly vendorId: string
}

export interface EndpointSlots {
  /**
   * True when other processes take slots from the same pool: a slot they free wakes nothing here, so
   * a delivery refused a slot is offered one again on a timer.
   */
  readonly shared: boolean
  /** A free slot of the endpoint, or null when all are taken. Throws when the store cannot be asked. */
  tryAcquire(vendorId: string): Promise<Slot | null>
  /** Gives the slot back; releasing one twice is harmless. */
  release(slot: Slot): Promise<void>
}

/** The slots of this process alone (the embedded database, or PostgreSQL without Redis). */
export class LocalEndpointSlots implements EndpointSlots {
  readonly shared = false
  private readonly taken = new Map<string, number>()
  private readonly held = new WeakSet<Slot>()

  constructor(private readonly limit: number) {}

  async tryAcquire(vendorId: string): Promise<Slot | null> {
    const n = this.taken.get(vendorId) ?? 0
    if (n >= this.limit) return null
    this.taken.set(vendorId, n + 1)
    const slot: Slot = { vendorId }
    this.held.add(slot)
    return slot
  }

  async release(slot: Slot): Promise<void> {
    if (!this.held.delete(slot)) return
    const n = (this.taken.get(slot.vendorId) ?? 0) - 1
    if (n <= 0) this.taken.delete(slot.vendorId)
    else this.taken.set(slot.vendorId, n)
  }
}

/**
 * redis-semaphore's counting semaphore under the key it is given: the library prefixes `semaphore:`,
 * which would put the key outside the installation's REDIS_PREFIX (connect.ts: every key starts with
 * it). A refresh that fails because Redis cannot be asked keeps the slot rather than throwing from the
 * library's timer (an unhandled rejection); if the lease did run out meanwhile, the next refresh that
 * reaches Redis reports the slot lost.
 */
class PrefixedSemaphore extends Semaphore {
  constructor(...args: ConstructorParameters<typeof Semaphore>) {
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

export interface RedisEndpointSlotsOptions {
  limit: number
  /** A slot not refreshed for this long is free again: how long a dead process's slots stay taken. */
  lockTimeoutMs: number
  /** How often a held slot's lease is renewed (0: never; then a slot lasts lockTimeoutMs at most). */
  refreshMs: number
  /** An acquire that Redis has not answered in this time counts as Redis unreachable. */
  acquireTimeoutMs: number
  log: FastifyBaseLogger
}

/** The slots of every process of the installation, leased in Redis (`<prefix>:endpoint:<vendorId>`). */
export class RedisEndpointSlots implements EndpointSlots {
  readonly shared = true
  private readonly held = new WeakMap<Slot, PrefixedSemaphore>()

  constructor(
    private readonly redis: Pick<RedisHandle, 'client' | 'key'>,
    private readonly o: RedisEndpointSlotsOptions,
  ) {}

  async tryAcquire(vendorId: string): Promise<Slot | null> {
    const { log } = this.o
    const semaphore = new PrefixedSemaphore(
      this.redis.client,
      this.redis.key('endpoint', vendorId),
      this.o.limit,
      {
        lockTimeout: this.o.lockTimeoutMs,
        acquireAttemptsLimit: 1,
        acquireTimeout: this.o.acquireTimeoutMs,
        refreshInterval: this.o.refreshMs,
        // Only when a refresh reached Redis and found the lease gone (Redis emptied, or unreachable for
        // longer than the lease): the attempt goes on; the limit may be passed by one until it ends.
        onLockLost: (err) => log.warn({ err, vendorId }, 'an endpoint slot lease was lost during an attempt'),
      },
    )
    // The shared connection queues commands while Redis is away (connect.ts); an answer that never
    // comes must not hold the delivery, and a slot granted after we stopped waiting is given back.
    let timer: NodeJS.Timeout | undefined
    let gaveUp = false
    const acquired = semaphore.tryAcquire()
    try {
      const ok = await Promise.race([
        acquired,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            gaveUp = true
            reject(
              new Error(`Redis did not answer an endpoint slot request within ${this.o.acquireTimeoutMs} ms`),
            )
          }, this.o.acquireTimeoutMs)
        }),
      ])
      if (!ok) return null
      const slot: Slot = { vendorId }
      this.held.set(slot, semaphore)
      return slot
    } finally {
      clearTimeout(timer)
      if (gaveUp) {
        acquired.then((ok) => (ok ? semaphore.release() : undefined)).catch(() => {}) // not given back: its lease runs out
      }
    }
  }

  async release(slot: Slot): Promise<void> {
    const semaphore = this.held.get(slot)
    this.held.delete(slot)
    await semaphore?.release()
  }
}
