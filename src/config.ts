// The one place that reads the environment. Every variable is declared here, validated at boot,
// and handed to the rest of the service as a typed object.
import Type, { type Static } from 'typebox'
import { Value } from 'typebox/value'

const Bool = Type.Boolean({ default: false })
const SecondsList = (options: { description: string; default?: string }) =>
  Type.String({ pattern: '^\\s*\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*\\s*$', ...options })
const seconds = (list: string): number[] => list.split(',').map((s) => Number(s.trim()))

export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on' }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'address to listen on' }),
  DATABASE_URL: Type.String({
    pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
    default: 'sqlite:./data/alertbridge.db',
    description: 'sqlite:<path> or postgres://…',
  }),
  REDIS_URL: Type.Optional(
    Type.String({ pattern: '^rediss?://.+$', description: 'redis://… (queue, rate limits)' }),
  ),
  ROLE: Type.Union([Type.Literal('api'), Type.Literal('worker'), Type.Literal('all')], { default: 'all' }),
  ADMIN_TOKEN: Type.Optional(
    Type.String({ minLength: 32, description: 'operator token (at least 32 characters)' }),
  ),
  SECRET_KEY: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9+/_=-]{43,}$', description: '32 random bytes, base64 or base64url' }),
  ),
  ALLOW_PRIVATE_NETWORK: Bool,
  WEBHOOK_RETRY_SCHEDULE: Type.Optional(SecondsList({ description: 'seconds, comma-separated' })),
  PSA_RETRY_SCHEDULE: SecondsList({
    default: '5,30,120,600',
    description: 'seconds between retries of a queued alert whose PSA call failed, comma-separated',
  }),
  SNAPSHOT_COALESCE_MS: Type.Integer({
    minimum: 0,
    maximum: 600000,
    default: 3000,
    description: 'state changes within this time go out as one state_snapshot',
  }),
  WORKER_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 8,
    description: 'alert jobs at once',
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
})

export type Env = Static<typeof EnvSchema>

export interface Config {
  port: number
  host: string
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }
  redisUrl: string | undefined
  role: 'api' | 'worker' | 'all'
  adminToken: string | undefined
  secretKey: string | undefined
  allowPrivateNetwork: boolean
  webhookRetryScheduleSeconds: number[] | undefined
  psaRetryScheduleSeconds: number[]
  workerConcurrency: number
  snapshotCoalesceMs: number
  logLevel: string
  demo: boolean
  accessTokenTtlSeconds: number
  defaultAlertRateLimitPerMinute: number
  psaTimeoutMs: number
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
    const given = name && raw[name] !== undefined ? ` (got ${JSON.stringify(raw[name])})` : ''
    return `${name || 'environment'}: ${e.message}${given}`
  })
  if (problems.length > 0) throw new ConfigError(problems)
  const env = converted as Env

  const database = env.DATABASE_URL.startsWith('sqlite:')
    ? ({ kind: 'sqlite', path: env.DATABASE_URL.slice('sqlite:'.length) } as const)
    : ({ kind: 'postgres', url: env.DATABASE_URL } as const)
  if (env.REDIS_URL) {
    // Refused rather than ignored: an operator who sets it expects a shared queue and shared limits.
    throw new ConfigError([
      'REDIS_URL: the Redis (BullMQ) queue is not in this build yet; unset it to use the queue in the database',
    ])
  }
  if (database.kind === 'postgres' && !env.SECRET_KEY) {
    throw new ConfigError(['SECRET_KEY: required with PostgreSQL (32 random bytes, base64)'])
  }
  return {
    port: env.PORT,
    host: env.HOST,
    database,
    redisUrl: env.REDIS_URL,
    role: env.ROLE,
    adminToken: env.ADMIN_TOKEN,
    secretKey: env.SECRET_KEY,
    allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK,
    webhookRetryScheduleSeconds: env.WEBHOOK_RETRY_SCHEDULE ? seconds(env.WEBHOOK_RETRY_SCHEDULE) : undefined,
    psaRetryScheduleSeconds: seconds(env.PSA_RETRY_SCHEDULE),
    workerConcurrency: env.WORKER_CONCURRENCY,
    snapshotCoalesceMs: env.SNAPSHOT_COALESCE_MS,
    logLevel: env.LOG_LEVEL,
    demo: env.DEMO,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    defaultAlertRateLimitPerMinute: env.ALERT_RATE_LIMIT_PER_MINUTE,
    psaTimeoutMs: env.PSA_TIMEOUT_MS,
  }
}
