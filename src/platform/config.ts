// The one place that reads the environment. Every variable is declared in env.ts, validated here at
// boot, and handed to the rest of the service as a typed object.
import { isIP } from 'node:net'
import type { Static } from 'typebox'
import { Value } from 'typebox/value'
import { loopbackOrigin } from './core/loopback.js'
import { EnvSchema } from './env.js'
import { defaultRetentionDays, parseRetentionDays, type RetentionDays } from './retention-ages.js'

const seconds = (list: string): number[] => list.split(',').map((s) => Number(s.trim()))

export { EnvSchema }
export type Env = Static<typeof EnvSchema>

export interface Config {
  port: number
  host: string
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }
  /** Set with PostgreSQL for several processes: the queue, shared limits and invalidation go through it. */
  redis: { url: string; prefix: string } | null
  role: 'api' | 'worker' | 'all'
  adminToken: string | undefined
  secretKey: string | undefined
  secretKeyPrevious: string | undefined
  allowPrivateNetwork: boolean
  /**
   * Loopback origins outbound calls may reach although private addresses are refused: the demo's own
   * webhook URL when it is on loopback (src/platform/core/loopback.ts); empty otherwise.
   */
  loopbackOrigins: string[]
  webhookRetryScheduleSeconds: number[] | undefined
  psaRetryScheduleSeconds: number[]
  usageRetryScheduleSeconds: number[]
  workerConcurrency: number
  /** How long a claim hides a job unless renewed (JOB_LEASE_SECONDS; src/platform/queue/lease.ts). */
  jobLeaseMs: number
  queueBacklogLimit: number
  workerWritesWhileAccepting: number
  partnerConcurrency: number
  snapshotCoalesceMs: number
  /** CONFIGURATION_CACHE_MS: the lifetime of the accept path's copy of configuration (cached-reads.ts). */
  configurationCacheMs: number
  logLevel: string
  demo: boolean
  /** With demo: the demo vendor's webhook URL (DEMO_WEBHOOK_URL, --webhook-url); null: none. */
  demoWebhookUrl: string | null
  accessTokenTtlSeconds: number
  defaultAlertRateLimitPerMinute: number
  psaTimeoutMs: number
  /** EGRESS_NAME. */
  egressName: string
  /** SYNCRO_REQUESTS_PER_MINUTE. */
  syncroRequestsPerMinute: number
  /** Two-way sync (docs/psa/sync.md): PUBLIC_URL and the PSA_POLL_* and PSA_PUSH_* settings. */
  psaSync: {
    publicUrl: string | null
    pollIntervalMs: number
    pollPushIntervalMs: number
    pollPageSize: number
    pushCoalesceMs: number
    pushRatePerMinute: number
  }
  /** How long each kind of row is kept, how often and how much at a time it is pruned. */
  retention: { days: RetentionDays; intervalMs: number; batchSize: number }
  /** A vendor's access tokens, active at once and issued a minute. */
  accessTokenLimits: { maxActive: number; perMinute: number }
  /** The partner portal's sessions, password hash and sign-in throttle. */
  portal: {
    sessionIdleMs: number
    sessionMaxMs: number
    passwordCost: number
    failuresPerEmail: number
    failuresPerIp: number
  }
  /** DRY_RUNS_PER_MINUTE (per user or API key) and PARTNER_TEST_ALERTS_PER_MINUTE (per integration). */
  partnerLimits: { dryRunsPerMinute: number; testAlertsPerMinute: number }
  /** Fastify's trustProxy: which proxies' forwarded headers (client address, https) are believed. */
  trustProxy: boolean | string[]
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** Parses and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key]
    if (value !== undefined && value !== '') raw[key] = value
  }
  const withDefaults = Value.Default(EnvSchema, raw)
  const converted = Value.Convert(EnvSchema, withDefaults)
  const problems = [...Value.Errors(EnvSchema, converted)].map((e) => {
    const name = e.instancePath.replace(/^\//, '')
    const given = name && raw[name] !== undefined ? shown(name, String(raw[name])) : ''
    return `${name || 'environment'}: ${e.message}${given}`
  })
  if (problems.length > 0) throw new ConfigError(problems)
  const env = converted as Env

  const database = env.DATABASE_URL.startsWith('sqlite:')
    ? ({ kind: 'sqlite', path: env.DATABASE_URL.slice('sqlite:'.length) } as const)
    : ({ kind: 'postgres', url: env.DATABASE_URL } as const)
  if (env.REDIS_URL && database.kind === 'sqlite') {
    // Refused rather than ignored: Redis is for several processes, and an SQLite file has one.
    throw new ConfigError([
      'REDIS_URL: needs DATABASE_URL=postgres://…; the embedded database is for one process, which needs no Redis',
    ])
  }
  if (env.DEMO_WEBHOOK_URL && !env.DEMO) {
    // Refused rather than ignored: a webhook URL given for a demo that is not made would be lost silently.
    throw new ConfigError(["DEMO_WEBHOOK_URL: is the demo vendor's webhook URL; it needs DEMO=true (--demo)"])
  }
  if (database.kind === 'postgres' && !env.SECRET_KEY) {
    throw new ConfigError(['SECRET_KEY: required with PostgreSQL (32 random bytes, base64)'])
  }
  if (env.SECRET_KEY_PREVIOUS && env.SECRET_KEY_PREVIOUS === env.SECRET_KEY) {
    throw new ConfigError(['SECRET_KEY_PREVIOUS: is the same key as SECRET_KEY; unset it'])
  }
  return {
    port: env.PORT,
    host: env.HOST,
    database,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.REDIS_PREFIX } : null,
    role: env.ROLE,
    adminToken: env.ADMIN_TOKEN,
    secretKey: env.SECRET_KEY,
    secretKeyPrevious: env.SECRET_KEY_PREVIOUS,
    allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK,
    loopbackOrigins: demoLoopback(env),
    webhookRetryScheduleSeconds: env.WEBHOOK_RETRY_SCHEDULE ? seconds(env.WEBHOOK_RETRY_SCHEDULE) : undefined,
    psaRetryScheduleSeconds: seconds(env.PSA_RETRY_SCHEDULE),
    usageRetryScheduleSeconds: seconds(env.USAGE_RETRY_SCHEDULE),
    workerConcurrency: env.WORKER_CONCURRENCY,
    jobLeaseMs: env.JOB_LEASE_SECONDS * 1000,
    queueBacklogLimit: env.QUEUE_BACKLOG_LIMIT,
    workerWritesWhileAccepting: env.WORKER_WRITES_WHILE_ACCEPTING,
    partnerConcurrency: env.PARTNER_CONCURRENCY,
    snapshotCoalesceMs: env.SNAPSHOT_COALESCE_MS,
    configurationCacheMs: env.CONFIGURATION_CACHE_MS,
    logLevel: env.LOG_LEVEL,
    demo: env.DEMO,
    demoWebhookUrl: env.DEMO_WEBHOOK_URL ?? null,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    defaultAlertRateLimitPerMinute: env.ALERT_RATE_LIMIT_PER_MINUTE,
    psaTimeoutMs: env.PSA_TIMEOUT_MS,
    egressName: env.EGRESS_NAME,
    syncroRequestsPerMinute: env.SYNCRO_REQUESTS_PER_MINUTE,
    psaSync: {
      publicUrl: env.PUBLIC_URL ?? null,
      pollIntervalMs: env.PSA_POLL_INTERVAL_MS,
      pollPushIntervalMs: env.PSA_POLL_PUSH_INTERVAL_MS,
      pollPageSize: env.PSA_POLL_PAGE_SIZE,
      pushCoalesceMs: env.PSA_PUSH_COALESCE_MS,
      pushRatePerMinute: env.PSA_PUSH_RATE_PER_MINUTE,
    },
    retention: {
      days: {
        events: parseRetentionDays(env.RETENTION_EVENTS_DAYS),
        delivered_deliveries: parseRetentionDays(env.RETENTION_DELIVERED_DAYS),
        dead_deliveries: parseRetentionDays(env.RETENTION_DEAD_DELIVERIES_DAYS),
        dead_jobs: parseRetentionDays(env.RETENTION_DEAD_JOBS_DAYS),
        usage_counts: parseRetentionDays(env.RETENTION_USAGE_DAYS),
        access_tokens: parseRetentionDays(env.RETENTION_TOKENS_DAYS),
        psa_effects: parseRetentionDays(env.RETENTION_PSA_EFFECTS_DAYS),
        // The vendor API's promise (docs/vendor-api.md#idempotency-keys), not a variable.
        idempotency_keys: defaultRetentionDays.idempotency_keys,
        maintenance_windows: defaultRetentionDays.maintenance_windows,
      },
      intervalMs: env.RETENTION_INTERVAL_SECONDS * 1000,
      batchSize: env.RETENTION_BATCH_SIZE,
    },
    accessTokenLimits: {
      maxActive: env.ACCESS_TOKEN_MAX_ACTIVE,
      perMinute: env.ACCESS_TOKEN_ISSUE_PER_MINUTE,
    },
    portal: {
      sessionIdleMs: env.SESSION_IDLE_MINUTES * 60_000,
      sessionMaxMs: env.SESSION_MAX_HOURS * 3_600_000,
      passwordCost: env.PASSWORD_HASH_COST,
      failuresPerEmail: env.SIGN_IN_FAILURES_PER_EMAIL,
      failuresPerIp: env.SIGN_IN_FAILURES_PER_IP,
    },
    partnerLimits: {
      dryRunsPerMinute: env.DRY_RUNS_PER_MINUTE,
      testAlertsPerMinute: env.PARTNER_TEST_ALERTS_PER_MINUTE,
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
  }
}

function trustProxy(value: string): boolean | string[] {
  const v = value.trim()
  if (v === 'true' || v === 'false') return v === 'true'
  const list = v.split(',').map((a) => a.trim())
  for (const entry of list) {
    const [address = '', bits, ...rest] = entry.split('/')
    const version = isIP(address)
    const max = version === 4 ? 32 : 128
    if (
      version === 0 ||
      rest.length > 0 ||
      (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))
    )
      throw new ConfigError([`TRUST_PROXY: "${entry}" is not an IP address or CIDR range`])
  }
  return list
}

// Startup errors name a variable and what is wrong with it, never a secret's value.
const secretVariables = ['ADMIN_TOKEN', 'SECRET_KEY', 'SECRET_KEY_PREVIOUS']
const urlVariables = ['DATABASE_URL', 'REDIS_URL']

/** What a problem shows of the value given: nothing of a secret, a URL without its password. */
function shown(name: string, value: string): string {
  if (secretVariables.includes(name)) return ` (the value, ${value.length} characters, is not shown)`
  return ` (got ${JSON.stringify(urlVariables.includes(name) ? withoutPassword(value) : value)})`
}

/** A URL with whatever stands between `://` and the last `@` after it reduced to the user name. */
function withoutPassword(url: string): string {
  return url.replace(/^([^:/]+:\/\/)(.*)@/s, (_m, scheme: string, userinfo: string) => {
    const user = userinfo.split(':')[0] ?? ''
    return userinfo.includes(':') ? `${scheme}${user}:***@` : `${scheme}${user}@`
  })
}

/** Every secret value the environment holds, to blank out of anything printed at start. */
export function secretValuesIn(source: Record<string, string | undefined> = process.env): string[] {
  const values: string[] = []
  for (const name of secretVariables) if (source[name]) values.push(source[name])
  for (const name of urlVariables) {
    const url = source[name]
    if (!url) continue
    const userinfo = /^[^:/]+:\/\/(.*)@/s.exec(url)?.[1]
    const password = userinfo?.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : ''
    if (password) {
      values.push(password)
      try {
        values.push(decodeURIComponent(password))
      } catch {
        // not percent-encoded
      }
    }
  }
  return values.filter((v) => v.length >= 4)
}

/** The demo's webhook URL's origin when it is on loopback and private addresses are not allowed anyway. */
function demoLoopback(env: Env): string[] {
  if (!env.DEMO || !env.DEMO_WEBHOOK_URL || env.ALLOW_PRIVATE_NETWORK) return []
  const origin = loopbackOrigin(env.DEMO_WEBHOOK_URL)
  return origin === null ? [] : [origin]
}
