// Liveness and readiness for load balancers and orchestrators. /healthz: the process answers.
// /readyz: the database can be read now (an SQLite file is read afresh, not from the connection's
// cache, so a file overwritten or deleted under the running process is noticed); otherwise 503 with
// the reason in the failure shape.
import Type from 'typebox'
import type { Db } from '../db/connect.js'
import { DatabaseUnavailable } from '../db/failures.js'
import type { App } from '../http/app-types.js'
import { ApiError } from '../http/errors.js'
import { failures } from '../http/schemas.js'

const Health = Type.Object({ status: Type.Literal('ok') })

/** A readiness probe that waits longer than this is answered 503. */
const readyTimeoutMs = 2000

export function registerHealth(app: App, s: { db: Pick<Db, 'check'> }): void {
  app.get(
    '/healthz',
    { schema: { tags: ['ops'], summary: 'The process is alive', response: { 200: Health } } },
    async () => ({
      status: 'ok' as const,
    }),
  )
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['ops'],
        summary: 'The database can be read',
        description: '503 (DATABASE_UNAVAILABLE) says why it cannot.',
        response: { 200: Health, ...failures(503) },
      },
    },
    async (request) => {
      try {
        await s.db.check({ timeoutMs: readyTimeoutMs })
      } catch (err) {
        const reason = err instanceof DatabaseUnavailable ? err.message : 'the check failed unexpectedly'
        request.log.error({ err }, 'database not ready')
        throw new ApiError('DATABASE_UNAVAILABLE', `The database cannot be read: ${reason}.`)
      }
      return { status: 'ok' as const }
    },
  )
}
