// "The configuration changed": the notice that lets every process drop its cached copies
// (docs/decisions/scale-out/configuration-notices.md). A process that changes configuration publishes after
// the change committed; its own copies are cleared at once, before publish returns, as they always were.
// With Redis the notice goes out on the installation's channel (`prefix:config-changed`) and every other
// process clears its copies when it arrives, within milliseconds; without Redis there is one process
// (SQLite) or no other process hears (PostgreSQL alone), and the caches' own short lifetimes are what other
// processes rely on.
//
// Redis pub/sub delivers a message only to those subscribed when it is published: a notice published while
// this process's subscriber connection was down is lost. So each time the subscription is (re)made,
// subscribers hear `all` and forget everything they cached: a gap costs one fresh read of each thing, never
// a stale answer kept. A notice that could not be published at all (the publisher lost Redis) is covered by
// the caches' lifetimes, which stay short (docs/decisions/scale-out/missed-notice.md).
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import type { RedisHandle } from './connect.js'

/** What changed: any configuration the accept path caches, or one integration's vendor credentials. */
export type Notice = { kind: 'configuration' } | { kind: 'catalogue'; integrationId: string }

/** A notice, or `all`: notices may have been missed, forget every cached copy. */
export type Heard = Notice | { kind: 'all' }

export interface ConfigNotices {
  /** Tells every process that this changed; this process's subscribers hear it before this returns. */
  publish(notice: Notice): void
  /** Called for this process's notices, for other processes' as they arrive, and with `all`. */
  subscribe(handler: (heard: Heard) => void): void
  /** Resolves once other processes' notices are heard (at once without Redis); for tests and start-up. */
  listening(): Promise<void>
  close(): Promise<void>
}

/** Notices heard by this process only: one process, or several that rely on their caches' lifetimes. */
export function localNotices(): ConfigNotices {
  const handlers: ((heard: Heard) => void)[] = []
  return {
    publish: (notice) => {
      for (const h of handlers) h(notice)
    },
    subscribe: (handler) => {
      handlers.push(handler)
    },
    listening: async () => {},
    close: async () => {},
  }
}

interface Wire {
  /** The publishing process: it cleared its copies already and ignores its own message. */
  from: string
  notice: Notice
}

export function redisNotices(redis: RedisHandle, log: FastifyBaseLogger): ConfigNotices {
  const handlers: ((heard: Heard) => void)[] = []
  const self = randomUUID()
  const channel = redis.key('config-changed')
  // Subscribed by hand on every 'ready' (not ioredis's resubscription), so the moment the channel is
  // heard again is known, and `all` follows it.
  const subscriber: Redis = redis.duplicate({
    autoResubscribe: false,
    connectionName: `alertbridge-notices-${redis.prefix}`,
  })
  let heard: Promise<void>
  let markHeard: () => void = () => {}
  const resetHeard = () => {
    heard = new Promise((resolve) => {
      markHeard = resolve
    })
  }
  resetHeard()
  let wasDown = false
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => {
        if (wasDown) log.info('configuration notices: heard again; cached configuration forgotten')
        wasDown = false
        for (const h of handlers) h({ kind: 'all' })
        markHeard()
      },
      (err: unknown) => log.warn({ err }, 'configuration notices: could not subscribe'),
    )
  })
  subscriber.on('close', () => {
    if (!wasDown) log.warn('configuration notices: connection to Redis lost; notices may be missed meanwhile')
    wasDown = true
    resetHeard()
  })
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return
    let wire: Wire
    try {
      wire = JSON.parse(text) as Wire
    } catch {
      return
    }
    if (wire.from === self) return
    for (const h of handlers) h(wire.notice)
  })
  return {
    publish(notice) {
      for (const h of handlers) h(notice)
      const wire: Wire = { from: self, notice }
      redis.client
        .publish(channel, JSON.stringify(wire))
        .catch((err: unknown) =>
          log.warn(
            { err, notice },
            'configuration notices: could not publish; other processes rely on their caches expiring',
          ),
        )
    },
    subscribe(handler) {
      handlers.push(handler)
    },
    listening: () => heard,
    async close() {
      subscriber.removeAllListeners('ready')
      subscriber.removeAllListeners('close')
      // The handle's close() ends the connection with the others; unsubscribing first is tidier.
      if (subscriber.status === 'ready') await subscriber.unsubscribe(channel).catch(() => {})
    },
  }
}

/** The one choice of how notices travel: through Redis to every process (REDIS_URL), else within this one. */
export function noticesFor(redis: RedisHandle | null, log: FastifyBaseLogger): ConfigNotices {
  return redis ? redisNotices(redis, log) : localNotices()
}
