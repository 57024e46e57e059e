// Liveness and readiness for load balancers and orchestrators. /healthz: the process answers.
// /readyz: every dependency the process needs answers now, each reported by name; otherwise 503 in the
// failure shape, naming the ones that failed and why. Today the one dependency is the database (an
// SQLite file is read afresh, not from the connection's cache, so a file overwritten or deleted under
// the running process is noticed); with REDIS_URL, Redis is the second.
import Type from 'typebox'
import type { ErrorCode } from '../../platform/core/errors.js'
import type { Db } from '../../platform/db/connect.js'
import { DatabaseUnavailable } from '../../platform/db/failures.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError } from '../../platform/http/errors.js'
import { operation } from '../../platform/http/openapi/operation-doc.js'
import { failures } from '../../platform/http/schemas.js'
import type { RedisHandle } from '../../platform/redis/connect.js'
import { RedisUnavailable } from '../../platform/redis/connect.js'

const Health = Type.Object({ status: Type.Literal('ok') })

const Checks = Type.Record(Type.String(), Type.Union([Type.Literal('ok'), Type.Literal('failed')]), {
  description: 'each dependency by name (`database`, `redis`), ok or failed',
})
const Ready = Type.Object({ status: Type.Literal('ok'), checks: Checks })

/** A readiness probe that waits longer than this is answered 503. */
const readyTimeoutMs = 2000

/** One thing the process cannot serve without, checked at each /readyz. */
export interface Dependency {
  name: string
  /** Throws when the dependency cannot be used now; gives up after `timeoutMs`. */
  check(timeoutMs: number): Promise<void>
  /** The error code and the sentence for the failure the check threw. */
  failure(err: unknown): { code: ErrorCode; detail: string }
}

/** What the process depends on, in the order /readyz reports them. */
export function dependenciesOf(s: HealthDeps): Dependency[] {
  const redis = s.redis
  return [
    {
      name: 'database',
      check: (timeoutMs) => s.db.check({ timeoutMs }),
      failure: (err) => ({
        code: 'DATABASE_UNAVAILABLE',
        detail: `The database cannot be read: ${
          err instanceof DatabaseUnavailable ? err.message : 'the check failed unexpectedly'
        }.`,
      }),
    },
    ...(redis
      ? [
          {
            name: 'redis',
            check: (timeoutMs: number) => redis.check(timeoutMs),
            failure: (err: unknown) => ({
              code: 'REDIS_UNAVAILABLE' as const,
              detail: `${err instanceof RedisUnavailable ? err.message : 'The Redis check failed unexpectedly'}.`,
            }),
          },
        ]
      : []),
  ]
}

export interface HealthDeps {
  db: Pick<Db, 'check'>
  redis: Pick<RedisHandle, 'check'> | null
}

export function registerHealth(app: App, s: HealthDeps): void {
  const dependencies = dependenciesOf(s)
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['ops'],
        summary: 'The process is alive',
        ...operation({
          id: 'getHealth',
          description: 'For liveness probes: answers while the process runs; no auth.',
        }),
        response: { 200: Health },
      },
    },
    async () => ({
      status: 'ok' as const,
    }),
  )
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['ops'],
        summary: 'Every dependency (the database, and Redis when REDIS_URL is set) can be used now',
        ...operation({ id: 'getReadiness' }),
        description:
          '200 names each dependency checked. 503 (DATABASE_UNAVAILABLE when the database failed, ' +
          'REDIS_UNAVAILABLE when only Redis did) ' +
          'says in `detail` which failed and why, and carries the same `checks`.',
        response: { 200: Ready, ...failures(503) },
      },
    },
    async (request) => {
      const outcomes = await Promise.all(
        dependencies.map(async (d) => {
          try {
            await d.check(readyTimeoutMs)
            return { dependency: d, err: null }
          } catch (err) {
            request.log.error({ err, dependency: d.name }, `${d.name} not ready`)
            return { dependency: d, err: err as unknown }
          }
        }),
      )
      const checks = Object.fromEntries(
        outcomes.map((o) => [o.dependency.name, o.err === null ? ('ok' as const) : ('failed' as const)]),
      )
      const failed = outcomes.flatMap((o) => (o.err === null ? [] : [o.dependency.failure(o.err)]))
      const first = failed[0]
      if (first) throw new ApiError(first.code, failed.map((f) => f.detail).join(' '), { fields: { checks } })
      return { status: 'ok' as const, checks }
    },
  )
}
