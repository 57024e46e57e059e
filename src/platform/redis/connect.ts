// The Redis of a scale-out installation (REDIS_URL, with PostgreSQL): the job queue's transport (BullMQ),
// the rate limits every process shares, the per-endpoint and per-group slots, and the configuration-changed
// notices. PostgreSQL stays the source of truth: nothing here is the only copy of anything, so an emptied
// Redis loses no alert (docs/decisions/scale-out/postgres-keeps-every-job.md).
//
// One connection for commands, shared; a connection of its own for each thing that blocks or
// subscribes (BullMQ's worker, the notice subscriber), made with `duplicate()` and closed with the rest.
import type { Redis, RedisOptions } from 'ioredis'
import { ioredis } from './packages.js'

export interface RedisHandle {
  /** Every key of this installation starts with it (REDIS_PREFIX), so installations may share a Redis. */
  readonly prefix: string
  /** `prefix:part:part…`: a key of this installation. */
  key(...parts: string[]): string
  /** The shared connection for commands. */
  readonly client: Redis
  /** A new connection with the same settings, closed by close(); for blocking reads and subscriptions. */
  duplicate(options?: RedisOptions): Redis
  /** Throws when Redis does not answer a PING within `timeoutMs`. */
  check(timeoutMs: number): Promise<void>
  close(): Promise<void>
}

/** Redis cannot be used now; the message carries the host and port, never the password. */
export class RedisUnavailable extends Error {}

/** The parts of a Redis URL that are no secret. */
export function redisTarget(url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname}:${u.port || '6379'}`
  } catch {
    return 'the REDIS_URL address'
  }
}

export function connectRedis(
  config: { url: string; prefix: string },
  opts: { onError?: (err: Error) => void } = {},
): RedisHandle {
  const base: RedisOptions = {
    // BullMQ's workers need commands to wait for a reconnection rather than fail after N retries.
    maxRetriesPerRequest: null,
    enableAutoPipelining: true,
    connectionName: 'alertbridge',
    // Reconnect quickly, then every 2 s at most: a restarted Redis is back within seconds.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  }
  const connections: Redis[] = []
  const make = (extra: RedisOptions = {}) => {
    const r = new (ioredis().Redis)(config.url, { ...base, ...extra })
    // Without a listener ioredis prints every failed reconnection; the handler logs once per error.
    r.on('error', (err) => opts.onError?.(err))
    connections.push(r)
    return r
  }
  // Commands on the shared connection give up after 2 s rather than wait for a Redis that stopped
  // answering (a hand-over is then re-sent by the relay; a limit falls back to its process-local copy).
  const client = make({ commandTimeout: 2000 })
  const target = redisTarget(config.url)
  return {
    prefix: config.prefix,
    key: (...parts) => [config.prefix, ...parts].join(':'),
    client,
    duplicate: (extra) => make(extra),
    async check(timeoutMs) {
      let timer: NodeJS.Timeout | undefined
      let onError: ((err: Error) => void) | undefined
      try {
        await Promise.race([
          // Not connected: the first failed attempt answers, rather than a wait for the reconnections.
          client.status === 'ready'
            ? client.ping()
            : new Promise<void>((resolve, reject) => {
                onError = () => reject(new RedisUnavailable(`Redis at ${target} cannot be reached`))
                client.once('error', onError)
                client.ping().then(() => resolve(), reject)
              }),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new RedisUnavailable(`Redis at ${target} did not answer within ${timeoutMs} ms`)),
              timeoutMs,
            )
          }),
        ])
      } catch (err) {
        if (err instanceof RedisUnavailable) throw err
        throw new RedisUnavailable(`Redis at ${target} cannot be reached`)
      } finally {
        clearTimeout(timer)
        if (onError) client.off('error', onError)
      }
    },
    async close() {
      // QUIT waits for its answer, which a connection that is not up would wait for for ever.
      await Promise.allSettled(
        connections.map((r) =>
          r.status === 'ready' ? r.quit().catch(() => r.disconnect()) : Promise.resolve(r.disconnect()),
        ),
      )
    },
  }
}

/**
 * Deletes every key under `prefix:` (SCAN + UNLINK) on the Redis at `url`. Not used by the service:
 * the tools that give an installation a prefix of its own for a while (the test suites, the bench)
 * clear it with this afterwards.
 */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const redis = new (ioredis().Redis)(url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    for (;;) {
      let cursor = '0'
      const keys: string[] = []
      do {
        const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000)
        cursor = next
        keys.push(...batch)
      } while (cursor !== '0')
      if (keys.length === 0) break
      await redis.unlink(...keys)
    }
  } finally {
    redis.disconnect()
  }
}
