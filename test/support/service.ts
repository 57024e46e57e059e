// Starts the real service on loopback (port 0) over a fresh database, and talks to it over HTTP.
// The backend is SQLite by default; a suite can ask for PostgreSQL where TEST_POSTGRES_URL is set.
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'

import pg from 'pg'
import { boot } from '../../src/main/boot.js'
import type { Services } from '../../src/main/services.js'
import { copyOrder } from '../../src/ops/data-move/copy.js'
import type { Clock } from '../../src/platform/clock.js'
import { loadConfig } from '../../src/platform/config.js'
import type { Database } from '../../src/platform/db/schema.js'
import { dropPrefix } from '../../src/platform/redis/connect.js'
import { postgresTemplate, sqliteTemplate } from './templates.js'
import { waitFor } from './wait.js'

/** `postgres+redis`: PostgreSQL with REDIS_URL, the scale-out configuration (docs/deploy.md). */
export type Backend = 'sqlite' | 'postgres' | 'postgres+redis'

/**
 * Which configurations a suite runs on. There are two kinds of suite, and one way to write either:
 * `for (const backend of backends(…)) describe(`… (${backend})`, …)`.
 *
 * - `backends('matrix')`: every configuration this run has — SQLite always, PostgreSQL when
 *   TEST_POSTGRES_URL names a server, PostgreSQL + Redis when TEST_REDIS_URL does too. For a suite whose
 *   behaviour depends on the database or on several processes: transactions, locks and races, the job
 *   queue and its leases, conflicts and uniqueness, ordering and paging, text matching (case, LIKE),
 *   NUL, migrations, crashes and restarts, what Redis shares between processes (rate limits, caches,
 *   group slots). In CI none may be missing: a configuration is never skipped silently.
 * - `backends('databases')`: SQLite, and PostgreSQL when TEST_POSTGRES_URL names a server. For a suite
 *   whose behaviour depends on the database alone, not on the queue's transport or on what processes
 *   share: paging and order, text matching, NUL, dates, grouped counts, one transaction's
 *   all-or-nothing, sealed columns. PostgreSQL + Redis runs the same SQL as PostgreSQL.
 * - `backends()`: SQLite alone. For a suite whose behaviour does not depend on the database: HTTP
 *   shapes and validation, authorization, decisions, what reaches an outside system (a PSA simulator,
 *   a vendor's endpoint). The same code runs on PostgreSQL in the matrix suites.
 *
 * docs/development.md#test-map lists which suites are which, and why.
 *
 * While working on one configuration, TEST_BACKEND=sqlite|postgres|postgres+redis (outside CI) runs
 * either kind of suite on that one alone, when its server is set:
 * `TEST_BACKEND=postgres+redis npm test -- <file>`.
 */
export function backends(runs: 'matrix' | 'databases' | 'sqlite' = 'sqlite'): Backend[] {
  const pg = process.env.TEST_POSTGRES_URL
  const redis = process.env.TEST_REDIS_URL
  if (process.env.CI === 'true' && (!pg || !redis))
    throw new Error('CI runs every configuration: TEST_POSTGRES_URL and TEST_REDIS_URL must both be set')
  const all: Backend[] = [
    'sqlite',
    ...(pg ? (['postgres'] as const) : []),
    ...(pg && redis ? (['postgres+redis'] as const) : []),
  ]
  const only = process.env.TEST_BACKEND
  if (only && process.env.CI !== 'true') return all.filter((b) => b === only)
  if (runs === 'databases') return all.filter((b) => b !== 'postgres+redis')
  return runs === 'matrix' ? all : ['sqlite']
}

/** A Redis key prefix of its own per service (or `existing`), its keys deleted by drop(). */
export function redisPrefix(existing?: string): { prefix: string; drop: () => Promise<void> } {
  const prefix = existing ?? `abtest-${randomBytes(6).toString('hex')}`
  return {
    prefix,
    drop: () => dropPrefix(process.env.TEST_REDIS_URL!, prefix),
  }
}

export interface Response<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface RequestOptions {
  token?: string
  body?: unknown
  /** Sent as is, instead of JSON-encoding `body`. */
  /** The body as it is sent: text, or bytes (e.g. not UTF-8). */
  raw?: string | Buffer
  headers?: Record<string, string>
}

export interface TestService {
  url: string
  adminToken: string
  services: Services
  backend: Backend
  /**
   * What a second service needs to be another process of this installation: its database, secret
   * key, operator token and (with Redis) its Redis prefix. See StartOptions.share.
   */
  installation: Record<string, string>
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>
  /**
   * Row counts of every table, to prove a refused request changed nothing. Taken once the
   * background work of earlier requests (jobs, deliveries to active endpoints) is done.
   */
  counts(): Promise<Record<string, number>>
  /**
   * Every row of every table (each row as sorted JSON, rows sorted), taken like counts(): a refused
   * request that changed a row, not only one that added one, shows up as a difference.
   */
  snapshot(): Promise<Record<string, string[]>>
  /**
   * How many rows the service's database connection has written since it opened (SQLite's
   * total_changes(), rows of statements rolled back included), taken like counts(): the same number
   * twice means nothing was written between them, so a caller comparing snapshots can skip the
   * second. Null on PostgreSQL, which keeps no such count for a connection pool.
   */
  writes(): Promise<number | null>
  close(): Promise<void>
}

export interface StartOptions {
  backend?: Backend
  clock?: Clock
  env?: Record<string, string>
  logger?: FastifyBaseLogger
  /**
   * Another process of that service's installation (docs/decisions/scale-out/what-is-shared.md): the same database, SECRET_KEY,
   * ADMIN_TOKEN and Redis prefix, with its own HTTP port, caches and limiter stand-ins. Its close()
   * leaves the database and Redis keys to the first service's: close it first.
   */
  share?: TestService
  /** The same as `share` (the webhook tests' name for it). */
  shareWith?: TestService
  /** Hears every SQL statement the service runs (the cost-per-alert counts). */
  onStatement?: (sql: string) => void
}

/** Tables a snapshot reads beside those counted: what start-up and the sandbox PSA keep. */
const snapshotOnly: readonly (keyof Database)[] = ['settings', 'counters']
/** Every other table, counted: the data move's list, which the compiler holds to schema.ts. */
const tables = copyOrder.filter((t) => !snapshotOnly.includes(t))

/**
 * A fresh database per service, dropped afterwards: suites never see each other's rows. Empty, or
 * with `migrated` a copy of the migrated template (templates.ts).
 */
export async function postgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_POSTGRES_URL!
  const name = `alertbridge_test_${randomBytes(6).toString('hex')}`
  const template = options.migrated ? ` template ${await postgresTemplate()}` : ''
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: base })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  await run(`create database ${name}${template}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) }
}

export async function startService(options: StartOptions = {}): Promise<TestService> {
  const sharing = options.share ?? options.shareWith
  const backend = sharing?.backend ?? options.backend ?? 'sqlite'
  const shared = sharing?.installation
  const adminToken = shared?.ADMIN_TOKEN ?? `test-admin-${randomBytes(24).toString('hex')}`
  let cleanup: () => Promise<void>
  let databaseUrl: string
  const redisEnv: Record<string, string> = {}
  if (shared) {
    if (backend === 'sqlite') throw new Error('an SQLite database has one process: share needs PostgreSQL')
    databaseUrl = shared.DATABASE_URL!
    if (shared.REDIS_PREFIX) {
      redisEnv.REDIS_URL = shared.REDIS_URL!
      redisEnv.REDIS_PREFIX = shared.REDIS_PREFIX
    }
    cleanup = async () => {}
  } else if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'alertbridge-test-'))
    copyFileSync(await sqliteTemplate(), join(dir, 'alertbridge.db'))
    databaseUrl = `sqlite:${join(dir, 'alertbridge.db')}`
    cleanup = async () => rmSync(dir, { recursive: true, force: true })
  } else {
    const database = await postgresDatabase({ migrated: true })
    databaseUrl = database.url
    cleanup = database.drop
    if (backend === 'postgres+redis') {
      const redis = redisPrefix()
      redisEnv.REDIS_URL = process.env.TEST_REDIS_URL!
      redisEnv.REDIS_PREFIX = redis.prefix
      cleanup = async () => {
        await database.drop()
        await redis.drop()
      }
    }
  }
  const installation: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ADMIN_TOKEN: adminToken,
    SECRET_KEY: shared?.SECRET_KEY ?? randomBytes(32).toString('base64'),
    ...redisEnv,
  }
  const config = loadConfig({
    ...installation,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PSA_TIMEOUT_MS: '2000',
    // The cheapest password hash the service accepts: tests sign in often, on two shared cores.
    PASSWORD_HASH_COST: '14',
    // State changes still coalesce into one state_snapshot, a moment ahead rather than 3 s: counts() and
    // snapshot() wait for that work in flight, and a suite would otherwise wait 3 s at each of them.
    // A suite that tests the coalescing sets its own window.
    SNAPSHOT_COALESCE_MS: '100',
    ...options.env,
  })
  const { app, services } = await boot(config, {
    clock: options.clock,
    logger: options.logger,
    onStatement: options.onStatement,
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

  const service: TestService = {
    url,
    adminToken,
    services,
    backend,
    installation,
    request: requester(url),
    async counts() {
      await settled(services)
      // A coalesced state_snapshot scheduled a moment ahead is work in flight too (a loaded machine
      // stretches a setup past the coalescing window, and its second snapshot runs mid-test).
      await dueSoonDone(services, services.config.snapshotCoalesceMs + 1000)
      const out: Record<string, number> = {}
      for (const table of tables) {
        const row = await services.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
        out[table] = Number(row.n)
      }
      return out
    },
    async snapshot() {
      await settled(services)
      await dueSoonDone(services, services.config.snapshotCoalesceMs + 1000)
      const all = [...tables, ...snapshotOnly]
      const rows = await Promise.all(
        all.map(async (table) => {
          const read = await services.db.kysely.selectFrom(table).selectAll().execute()
          return read
            .map((row) =>
              JSON.stringify(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
            )
            .sort()
        }),
      )
      return Object.fromEntries(all.map((table, i) => [table, rows[i] ?? []]))
    },
    async writes() {
      const sqlite = services.db.sqlite
      if (!sqlite) return null
      await settled(services)
      await dueSoonDone(services, services.config.snapshotCoalesceMs + 1000)
      return (sqlite.prepare('select total_changes() as n').get() as { n: number }).n
    },
    async close() {
      await app.close()
      await cleanup()
    },
  }
  return service
}

/** Waits until no job and no delivery to an active endpoint (of a vendor not disabled) is running or due. */
async function settled(services: Services, timeoutMs = 15_000): Promise<void> {
  if (services.config.role === 'api') return // nothing runs in the background
  let left = ''
  await waitFor(
    async () => {
      // Running (leased) or due by the service's clock; a job due later (a manual clock) is not in flight.
      const now = services.clock().toISOString()
      const { jobs } = await services.db.kysely
        .selectFrom('jobs')
        .where((eb) => eb.or([eb('lease_token', 'is not', null), eb('run_at', '<=', now)]))
        .select((eb) => eb.fn.countAll<number>().as('jobs'))
        .executeTakeFirstOrThrow()
      const { deliveries } = await services.db.kysely
        .selectFrom('webhook_deliveries as d')
        .innerJoin('vendors as v', 'v.id', 'd.vendor_id')
        .where('d.status', '=', 'pending')
        .where('v.webhook_state', '=', 'active')
        .where('v.disabled_at', 'is', null)
        .where('d.run_at', '<=', now)
        .select((eb) => eb.fn.countAll<number>().as('deliveries'))
        .executeTakeFirstOrThrow()
      left = `${jobs} jobs, ${deliveries} deliveries`
      return Number(jobs) === 0 && Number(deliveries) === 0
    },
    { what: () => `background work to settle (${left} left)`, timeoutMs },
  )
}

/**
 * Waits for the jobs due within `soonMs` by the service's clock (a state_snapshot being coalesced,
 * say) to have run, so that two snapshots taken around a request do not differ by that work. Only
 * while the clock moves: a manual clock that stands still runs nothing, and nothing is waited for.
 */
async function dueSoonDone(services: Services, soonMs: number, timeoutMs = 15_000): Promise<void> {
  if (services.config.role === 'api') return
  let before: number | undefined
  let left = 0
  await waitFor(
    async () => {
      const now = services.clock().getTime()
      if (before !== undefined) {
        if (now === before) return true // the clock stood still since the last look: nothing more runs
        await settled(services)
      }
      before = now
      const horizon = new Date(services.clock().getTime() + soonMs).toISOString()
      // A job claimed since settled() looked is running: its run_at is its lease's end, not soon.
      const { jobs } = await services.db.kysely
        .selectFrom('jobs')
        .where('failed_at', 'is', null)
        .where((eb) => eb.or([eb('lease_token', 'is not', null), eb('run_at', '<=', horizon)]))
        .select((eb) => eb.fn.countAll<number>().as('jobs'))
        .executeTakeFirstOrThrow()
      left = Number(jobs)
      return left === 0
    },
    { what: () => `${left} jobs due soon to run`, timeoutMs, intervalMs: 50 },
  )
}

/** Talks JSON to a service at `url` (in this process or a child). */
export function requester(url: string): TestService['request'] {
  return async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.token) headers.authorization = `Bearer ${o.token}`
    let body: string | Buffer | undefined = o.raw
    if (body === undefined && o.body !== undefined) body = JSON.stringify(o.body)
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json'
    }
    const res = await fetch(`${url}${path}`, { method, headers, body })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as any, text }
  }
}

/** A clock the test moves by hand. */
export function manualClock(
  start = new Date('2026-11-22T10:00:00.000Z'),
): Clock & { advance(ms: number): void } {
  let now = start.getTime()
  const clock = (() => new Date(now)) as Clock & { advance(ms: number): void }
  clock.advance = (ms: number) => {
    now += ms
  }
  return clock
}
