// Liveness and readiness for load balancers and orchestrators.
import { sql } from 'kysely'
import Type from 'typebox'
import type { App } from '../http/app-types.js'
import { ApiError } from '../http/errors.js'
import type { Services } from '../services.js'

const Health = Type.Object({ status: Type.Literal('ok') })

export function registerHealth(app: App, s: Services): void {
  app.get(
    '/healthz',
    { schema: { tags: ['ops'], summary: 'The process is alive', response: { 200: Health } } },
    async () => ({
      status: 'ok' as const,
    }),
  )
  app.get(
    '/readyz',
    { schema: { tags: ['ops'], summary: 'The database answers', response: { 200: Health } } },
    async (request) => {
      try {
        await sql`select 1`.execute(s.db.kysely)
      } catch (err) {
        request.log.error({ err }, 'database not ready')
        throw new ApiError('INTERNAL', 'The database does not answer.')
      }
      return { status: 'ok' as const }
    },
  )
}
