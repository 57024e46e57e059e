// Where PSAs push ticket changes (docs/psa/sync.md, "Where pushes arrive"): one URL per partner's PSA
// connection, its token unguessable. The body is kept as the bytes that arrived, for the PSA's
// signature; answers are quick (the tickets are read back by a job), and a refused push is a 401 in
// the contract's failure shape that changes nothing.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { orRefuse } from '../../http/errors.js'
import { failures } from '../../http/schemas.js'
import type { PsaSync } from '../service.js'

const Token = Type.Object({
  token: Type.String({ minLength: 20, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
})
const meta = { tags: ['psa push'] }

export function registerPsaPush(app: App, s: { psaSync: PsaSync }): void {
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>()
    // Whatever the PSA sends (JSON, a form), as bytes.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    )

    scope.post(
      '/api/psa-push/:token',
      {
        schema: {
          ...meta,
          summary:
            'A PSA pushes a ticket change (ConnectWise callback, Autotask webhook, HaloPSA or Kaseya BMS webhook)',
          params: Token,
          response: { 200: Type.Object({ received: Type.Integer() }), ...failures(401, 429) },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
        return orRefuse(await s.psaSync.receive(request.params.token, request.headers, raw))
      },
    )

    scope.post(
      '/api/psa-push/:token/deactivated',
      {
        schema: {
          ...meta,
          summary: 'The PSA deactivated its push to this URL (Autotask’s DeactivationUrl)',
          params: Token,
          response: { 204: Type.Null(), ...failures(401) },
        },
      },
      async (request, reply) => {
        orRefuse(await s.psaSync.deactivated(request.params.token))
        return reply.code(204).send(null)
      },
    )
  })
}
