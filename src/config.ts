// The one place that reads the environment. Every variable is declared here, validated at boot,
// and handed to the rest of the service as a typed object.
import { isIP } from 'node:net'
import Type, { type Static } from 'typebox'
import { Value } from 'typebox/value'
import {
  defaultRetentionDays,
  parseRetentionDays,
  type RetentionDays,
  type RetentionKind,
} from './domain/retention.js'

const Bool = Type.Boolean({ default: false })
const SecondsList = (options: { description: string; default?: string }) =>
  Type.String({ pattern: '^\\s*\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*\\s*$', ...options })
const seconds = (list: string): number[] => list.split(',').map((s) => Number(s.trim()))
const Days = (kind: RetentionKind, what: string) =>
  Type.String({
    pattern: '^\\s*(\\d{1,6}|[oO][fF][fF])\\s*$',
    default: String(defaultRetentionDays[kind] ?? 'off'),
    description: `days to keep ${what}; 0 or off: for ever`,
  })

export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on' }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'address to listen on' }),
  DATABASE_URL: Type.String({
    pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
    default: 'sqlite:./data/alertbridge.db',
    description: 'sqlite:<path> or postgres://…',
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://.+$',
      description: 'redis://… (with PostgreSQL: the job queue, shared rate limits, invalidation)',
    }),
  ),
  REDIS_PREFIX: Type.String({
    pattern: '^[A-Za-z0-9_.-]{1,64}$',
    default: 'alertbridge',
    description: "the start of every Redis key of this installation's (two installations may share a Redis)",
  }),
  ROLE: Type.Union([Type.Literal('api'), Type.Literal('worker'), Type.Literal('all')], { default: 'all' }),
  ADMIN_TOKEN: Type.Optional(
    Type.String({ minLength: 32, description: 'operator token (at least 32 characters)' }),
  ),
  SECRET_KEY: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9+/_=-]{43,}$', description: '32 random bytes, base64 or base64url' }),
  ),
  SECRET_KEY_PREVIOUS: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9+/_=-]{43,}$',
      description:
        'during a rotation, the key being replaced: it still opens, and what it sealed is re-sealed',
    }),
  ),
  ALLOW_PRIVATE_NETWORK: Bool,
  WEBHOOK_RETRY_SCHEDULE: Type.Optional(SecondsList({ description: 'seconds, comma-separated' })),
  PSA_RETRY_SCHEDULE: SecondsList({
    default: '5,30,120,600',
    description: 'seconds between retries of a queued alert whose PSA call failed, comma-separated',
  }),
  USAGE_RETRY_SCHEDULE: SecondsList({
    default: '30,120,600,3600,21600',
    description: 'seconds between retries of a usage count the PSA failed to take, comma-separated',
  }),
  SNAPSHOT_COALESCE_MS: Type.Integer({
    minimum: 0,
    maximum: 600000,
    default: 3000,
    description: 'state changes within this time go out as one state_snapshot',
  }),
  WORKER_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: 64,
    description: 'jobs at once per process (most wait on a PSA); at least partners × PARTNER_CONCURRENCY',
  }),
  WORKER_WRITES_WHILE_ACCEPTING: Type.Integer({
    minimum: 1,
    maximum: 512,
    default: 8,
    description:
      'ROLE=all: background writes per commit while alerts are being accepted (64 otherwise); lower favours accepting, higher favours processing',
  }),
  QUEUE_BACKLOG_LIMIT: Type.Integer({
    minimum: 1,
    maximum: 1_000_000_000,
    default: 100_000,
    description:
      'queued jobs above which the worker warns in its log and /metrics (alertbridge_jobs_backlog_over_limit); intake goes on accepting',
  }),
  PARTNER_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description: "one partner's queued alerts at once, so that a slow PSA holds few of the worker's slots",
  }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  DEMO: Bool,
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 86400, default: 3600 }),
  ALERT_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 6000,
    description: 'alert rate limit of a vendor that has none of its own',
  }),
  PSA_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120000, default: 10000 }),
  SYNCRO_REQUESTS_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 180,
    description:
      "Syncro's per-address limit this installation keeps to: lower it where other software calls Syncro from the same address; raise it only if Syncro raised the limit",
  }),
  EGRESS_NAME: Type.String({
    pattern: '^[A-Za-z0-9_.:-]{1,64}$',
    default: 'default',
    description:
      'the outbound address this process calls PSAs from: processes with the same name share the limits a PSA counts per client address (Syncro: 180 requests a minute)',
  }),
  // Bounded growth (issue 10 §4): retention ages in days (`0` or `off`: kept for ever) and token limits.
  RETENTION_EVENTS_DAYS: Days(
    'events',
    "audit events (the partner's event list, metrics and ticket histories)",
  ),
  RETENTION_DELIVERED_DAYS: Days(
    'delivered_deliveries',
    'webhook deliveries that were delivered, with their attempts',
  ),
  RETENTION_DEAD_DELIVERIES_DAYS: Days('dead_deliveries', 'dead webhook deliveries (replayable until then)'),
  RETENTION_DEAD_JOBS_DAYS: Days('dead_jobs', 'dead jobs (their payload no longer fits their kind)'),
  RETENTION_USAGE_DAYS: Days(
    'usage_counts',
    'usage count history; the latest count of each pair is always kept',
  ),
  RETENTION_TOKENS_DAYS: Days('access_tokens', 'access tokens, counted from their expiry or revocation'),
  RETENTION_PSA_EFFECTS_DAYS: Days(
    'psa_effects',
    'PSA effects whose outcome was never recorded (a synchronous call answered 500 and never sent again)',
  ),
  RETENTION_INTERVAL_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 3600 }),
  RETENTION_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 10000, default: 500 }),
  ACCESS_TOKEN_MAX_ACTIVE: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 100,
    description: 'unexpired, unrevoked access tokens a vendor may hold at once',
  }),
  ACCESS_TOKEN_ISSUE_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 60,
    description: 'access tokens a vendor may request a minute',
  }),
  // The partner portal's sessions and sign-in (issue 13).
  SESSION_IDLE_MINUTES: Type.Integer({
    minimum: 1,
    maximum: 1440,
    default: 30,
    description: 'a portal session unused this long ends',
  }),
  SESSION_MAX_HOURS: Type.Integer({
    minimum: 1,
    maximum: 720,
    default: 12,
    description: 'a portal session ends this long after sign-in, however busy',
  }),
  PASSWORD_HASH_COST: Type.Integer({
    minimum: 14,
    maximum: 20,
    default: 17,
    description:
      "scrypt's cost as log2 N (r = 8, p = 1); 17 is OWASP's recommendation, each step doubles time and memory",
  }),
  SIGN_IN_FAILURES_PER_EMAIL: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 5,
    description: 'failed sign-ins for one email within 15 minutes before it is refused (429) for 15 minutes',
  }),
  SIGN_IN_FAILURES_PER_IP: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 50,
    description:
      'failed sign-ins from one address within 15 minutes before it is refused (429) for 15 minutes',
  }),
  TRUST_PROXY: Type.String({
    pattern: '^\\s*(true|false|[0-9A-Fa-f.:/]+(\\s*,\\s*[0-9A-Fa-f.:/]+)*)\\s*$',
    default: 'false',
    description:
      "true, false or the proxies' addresses (IPs or CIDRs, comma-separated) whose X-Forwarded-For and X-Forwarded-Proto are believed",
  }),
})

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
  webhookRetryScheduleSeconds: number[] | undefined
  psaRetryScheduleSeconds: number[]
  usageRetryScheduleSeconds: number[]
  workerConcurrency: number
  queueBacklogLimit: number
  workerWritesWhileAccepting: number
  partnerConcurrency: number
  snapshotCoalesceMs: number
  logLevel: string
  demo: boolean
  accessTokenTtlSeconds: number
  defaultAlertRateLimitPerMinute: number
  psaTimeoutMs: number
  /** EGRESS_NAME. */
  egressName: string
  /** SYNCRO_REQUESTS_PER_MINUTE. */
  syncroRequestsPerMinute: number
  /** Issue 10 §4: how long each kind of row is kept, how often and how much at a time it is pruned. */
  retention: { days: RetentionDays; intervalMs: number; batchSize: number }
  /** Issue 10 §4: a vendor's access tokens, active at once and issued a minute. */
  accessTokenLimits: { maxActive: number; perMinute: number }
  /** Issue 13: the partner portal's sessions, password hash and sign-in throttle. */
  portal: {
    sessionIdleMs: number
    sessionMaxMs: number
    passwordCost: number
    failuresPerEmail: number
    failuresPerIp: number
  }
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
    webhookRetryScheduleSeconds: env.WEBHOOK_RETRY_SCHEDULE ? seconds(env.WEBHOOK_RETRY_SCHEDULE) : undefined,
    psaRetryScheduleSeconds: seconds(env.PSA_RETRY_SCHEDULE),
    usageRetryScheduleSeconds: seconds(env.USAGE_RETRY_SCHEDULE),
    workerConcurrency: env.WORKER_CONCURRENCY,
    queueBacklogLimit: env.QUEUE_BACKLOG_LIMIT,
    workerWritesWhileAccepting: env.WORKER_WRITES_WHILE_ACCEPTING,
    partnerConcurrency: env.PARTNER_CONCURRENCY,
    snapshotCoalesceMs: env.SNAPSHOT_COALESCE_MS,
    logLevel: env.LOG_LEVEL,
    demo: env.DEMO,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    defaultAlertRateLimitPerMinute: env.ALERT_RATE_LIMIT_PER_MINUTE,
    psaTimeoutMs: env.PSA_TIMEOUT_MS,
    egressName: env.EGRESS_NAME,
    syncroRequestsPerMinute: env.SYNCRO_REQUESTS_PER_MINUTE,
    retention: {
      days: {
        events: parseRetentionDays(env.RETENTION_EVENTS_DAYS),
        delivered_deliveries: parseRetentionDays(env.RETENTION_DELIVERED_DAYS),
        dead_deliveries: parseRetentionDays(env.RETENTION_DEAD_DELIVERIES_DAYS),
        dead_jobs: parseRetentionDays(env.RETENTION_DEAD_JOBS_DAYS),
        usage_counts: parseRetentionDays(env.RETENTION_USAGE_DAYS),
        access_tokens: parseRetentionDays(env.RETENTION_TOKENS_DAYS),
        psa_effects: parseRetentionDays(env.RETENTION_PSA_EFFECTS_DAYS),
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
