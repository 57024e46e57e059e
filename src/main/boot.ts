// Starting the service: open and migrate the database, open the secret key's ring and the admin token,
// build the services and the app. Shared by server.ts and the tests.

import { dirname, join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import { backfillUpcoming } from '../alerts/index.js'
import { openKeyRing } from '../ops/index.js'
import { type Clock, systemClock } from '../platform/clock.js'
import type { Config } from '../platform/config.js'
import { openDatabase } from '../platform/db/connect.js'
import { migrateToLatest } from '../platform/db/migrate.js'
import type { App } from '../platform/http/app-types.js'
import { waitAtMost } from '../platform/queue/wakeup.js'
import { connectRedis, type RedisHandle } from '../platform/redis/connect.js'
import { digest, newSecret } from '../platform/security/secrets.js'
import { redactPushTokens } from '../psa-sync/index.js'
import { SettingsRepository } from '../tenants/index.js'
import { buildApp, redactPaths } from './app.js'
import { buildServices, type Services } from './services.js'

export interface Booted {
  app: App
  services: Services
  logger: FastifyBaseLogger
  /** Set only on the first start without ADMIN_TOKEN: the generated token, to print once. */
  newAdminToken: string | null
  /** Where embedded mode keeps its files; null with PostgreSQL or an in-memory database. */
  dataDir: string | null
}

/** The service's logger: secrets redacted by path, and push URLs' tokens out of every line written. */
export function createLogger(level: string, destination?: pino.DestinationStream): FastifyBaseLogger {
  const options = {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    hooks: { streamWrite: redactPushTokens },
  }
  return destination ? pino(options, destination) : pino(options)
}

export async function boot(
  config: Config,
  opts: {
    clock?: Clock
    logger?: FastifyBaseLogger
    /** Hears every SQL statement the service runs (openDatabase's onStatement): tests count them. */
    onStatement?: (sql: string) => void
  } = {},
): Promise<Booted> {
  const logger = opts.logger ?? createLogger(config.logLevel)
  const db = openDatabase(config.database, {
    onIdleError: (err) => logger.warn({ err }, 'a database connection failed; the pool replaces it'),
    onStatement: opts.onStatement,
  })
  let redis: RedisHandle | null = null
  try {
    // A damaged or unreachable database stops the start with a sentence saying so, before anything runs.
    await db.check({ thorough: true, timeoutMs: 30_000 })
    if (config.redis) {
      let reported = ''
      let connected = false
      redis = connectRedis(config.redis, {
        // Once per kind of failure, not once per reconnection attempt; a start that cannot reach Redis
        // says so in its one sentence instead.
        onError: (err) => {
          if (!connected || err.message === reported) return
          reported = err.message
          logger.warn({ err: { message: err.message } }, 'a Redis connection failed; reconnecting')
        },
      })
      // Unreachable at start: refuse, as for the database (RedisUnavailable says where, not the password).
      await redis.check(30_000)
      connected = true
    }
    const applied = await migrateToLatest(db)
    if (applied.length > 0) logger.info({ migrations: applied }, `migrated the database to ${applied.at(-1)}`)
    const dataDir =
      config.database.kind === 'sqlite' && config.database.path !== ':memory:'
        ? dirname(config.database.path)
        : null
    const key = await openKeyRing({
      kysely: db.kysely,
      secretKey: config.secretKey,
      secretKeyPrevious: config.secretKeyPrevious,
      keyFile: dataDir ? join(dataDir, 'secret.key') : null,
    })
    if (key.event === 'rotation-started')
      logger.info(
        { keyId: key.ring.currentKeyId, previousKeyId: key.ring.previousKeyId },
        'SECRET_KEY rotation: the database is now on SECRET_KEY; values sealed with SECRET_KEY_PREVIOUS are re-sealed in the background',
      )

    let newAdminToken: string | null = null
    let adminTokenDigest: string
    if (config.adminToken) {
      adminTokenDigest = digest(config.adminToken)
    } else {
      const settings = new SettingsRepository(db.kysely)
      const candidate = newSecret('admin')
      if (await settings.setIfAbsent('admin_token_digest', digest(candidate))) newAdminToken = candidate
      adminTokenDigest = (await settings.get('admin_token_digest'))!
    }

    const services = buildServices({
      config,
      db,
      box: key.ring,
      clock: opts.clock ?? systemClock,
      adminTokenDigest,
      log: logger,
      redis,
    })
    // Configuration notices heard before the first request: the subscription's first `all` (forget
    // every cached copy) then lands on empty caches, not on a copy a request just loaded.
    let heard = false
    await waitAtMost(
      [
        services.notices.listening().then(() => {
          heard = true
        }),
      ],
      10_000,
    )
    if (!heard)
      logger.warn('configuration notices are not heard yet; starting anyway (caches expire within a second)')
    // Maintenance windows saved before their occurrences ahead were stored get them now, before any alert.
    await backfillUpcoming({
      store: services.store,
      queue: services.queue,
      clock: services.clock,
      log: logger,
    })
    const app = await buildApp(services, logger)
    if (config.role !== 'api') {
      await services.runtime.start()
      // Every partner's push registered once and its poll running (docs/psa/sync.md).
      await services.psaSync.psaSync
        .scheduleAll()
        .catch((err) => logger.error({ err }, 'two-way sync: could not schedule the polls'))
    }
    app.addHook('onClose', async () => {
      // Requests have drained by now; let jobs and deliveries in flight finish, then close.
      await services.runtime.stop(10_000)
      await services.close()
      await redis?.close()
      await db.close()
    })
    return { app, services, logger, newAdminToken, dataDir }
  } catch (err) {
    await redis?.close()
    await db.close()
    throw err
  }
}
