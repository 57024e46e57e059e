// Every environment variable the service reads: its type, default and description, in one TypeBox
// schema (docs/operations.md#configuration lists them). config.ts validates the environment against
// it at boot and turns it into the typed Config the rest of the service receives.
import Type from 'typebox'
import { defaultRetentionDays, type RetentionKind } from './retention-ages.js'

const Bool = Type.Boolean({ default: false })
const SecondsList = (options: { description: string; default?: string }) =>
  Type.String({ pattern: '^\\s*\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*\\s*$', ...options })
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
  CONFIGURATION_CACHE_MS: Type.Integer({
    // Not 0: a lifetime of 0 would keep the copies until a notice, which PostgreSQL alone never sends.
    minimum: 1,
    maximum: 60000,
    default: 1000,
    description:
      "how long the accept path keeps a copy of an integration's configuration when no change notice clears it first",
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
  JOB_LEASE_SECONDS: Type.Integer({
    minimum: 3,
    maximum: 600,
    default: 30,
    description:
      'how long a claimed job stays hidden unless its runner renews it (every third of it): a dead worker’s jobs run again within this',
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
  DEMO_WEBHOOK_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 2048,
      description: "with DEMO: the demo vendor's webhook URL (--webhook-url)",
    }),
  ),
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
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/]+(/[^\\s]*)?$',
      description:
        'the address PSAs reach this service at, for their pushes (two-way sync, docs/psa/sync.md); without it the address it listens on',
    }),
  ),
  PSA_POLL_INTERVAL_MS: Type.Integer({
    minimum: 100,
    maximum: 86_400_000,
    default: 300_000,
    description: 'how often each open ticket is read back from a PSA that does not push (two-way sync)',
  }),
  PSA_POLL_PUSH_INTERVAL_MS: Type.Integer({
    minimum: 100,
    maximum: 86_400_000,
    default: 1_800_000,
    description: 'the same, where the PSA pushes: the poll only catches what a push lost',
  }),
  PSA_POLL_PAGE_SIZE: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  PSA_PUSH_COALESCE_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 1000,
    description: 'pushes for a connection within this time are read back together',
  }),
  PSA_PUSH_RATE_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 6000,
    description: 'pushes a minute one PSA connection may send before 429',
  }),
  EGRESS_NAME: Type.String({
    pattern: '^[A-Za-z0-9_.:-]{1,64}$',
    default: 'default',
    description:
      'the outbound address this process calls PSAs from: processes with the same name share the limits a PSA counts per client address (Syncro: 180 requests a minute)',
  }),
  // Bounded growth (docs/decisions/bounded-growth/retention-ages.md): retention ages in days (`0` or `off`: kept for ever) and token limits.
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
  // The partner portal's sessions and sign-in (docs/partner-api.md#portal-users-and-sessions).
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
    description:
      'failed sign-ins of one address for one email answered at once; each further one makes that address wait twice as long (1 s… 15 min, 429)',
  }),
  SIGN_IN_FAILURES_PER_IP: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 50,
    description:
      'failed sign-ins from one address, any email, within an hour before it is refused (429) until the hour ends',
  }),
  DRY_RUNS_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 30,
    description: 'rule tester dry runs a minute per portal user or partner API key before 429',
  }),
  PARTNER_TEST_ALERTS_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 10,
    description:
      "test alerts a minute per integration (the partner's and the operator's together) before 429",
  }),
  TRUST_PROXY: Type.String({
    pattern: '^\\s*(true|false|[0-9A-Fa-f.:/]+(\\s*,\\s*[0-9A-Fa-f.:/]+)*)\\s*$',
    default: 'false',
    description:
      "true, false or the proxies' addresses (IPs or CIDRs, comma-separated) whose X-Forwarded-For and X-Forwarded-Proto are believed",
  }),
})
