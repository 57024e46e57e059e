// Where PSAs push ticket changes (docs/psa/sync.md, "Where pushes arrive"): one URL per partner's PSA
// connection, its token unguessable. The body is JSON (anything else is a 415) of at most 1 MiB (a PSA
// sends whole tickets), kept as the bytes that arrived for the PSA's signature; answers are quick (the
// tickets are read back by a job), and a refused push is a 401 in the contract's failure shape that
// changes nothing. The token never reaches a log line (src/psa-sync/secrets.ts, redactPushTokens).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { operation } from '../../platform/http/openapi/operation-doc.js'
import { failures } from '../../platform/http/schemas.js'
import type { PsaSync } from '../service.js'

/** The largest push body (docs/psa/sync.md#where-pushes-arrive); its 413 names it. */
export const pushBodyLimitBytes = 1024 * 1024
/** Autotask's deactivation call says nothing alertbridge reads. */
const deactivationBodyLimitBytes = 16 * 1024

const Token = Type.Object({
  token: Type.String({ minLength: 20, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
})
const meta = { tags: ['psa push'] }

export interface PsaPushRoutesDeps {
  psaSync: Pick<PsaSync, 'receive' | 'deactivated'>
}

export function registerPsaPush(app: App, s: PsaPushRoutesDeps): void {
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>()
    // JSON only, as bytes (the signature is over them); every other content type is a 415.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    )

    scope.post(
      '/api/psa-push/:token',
      {
        bodyLimit: pushBodyLimitBytes,
        schema: {
          ...meta,
          summary:
            'A PSA pushes a ticket change (ConnectWise callback, Autotask webhook, HaloPSA or Kaseya BMS webhook)',
          ...operation({
            id: 'receivePsaPush',
            description:
              'Called by the PSA, at the secret URL alertbridge registered with it (docs/psa/sync.md); not for API clients. The body is the PSA’s own: JSON (415 otherwise) of at most 1 MiB, naming at most 1,000 tickets (413 beyond either).',
          }),
          params: Token,
          response: { 200: Type.Object({ received: Type.Integer() }), ...failures(401, 413, 415, 429) },
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
        bodyLimit: deactivationBodyLimitBytes,
        schema: {
          ...meta,
          summary: 'The PSA deactivated its push to this URL (Autotask’s DeactivationUrl)',
          ...operation({
            id: 'receivePsaPushDeactivated',
            description:
              'Called by Autotask when it stops pushing. Believed only once Autotask reads the webhook back inactive (409 while it reads active); alertbridge then polls until the partner registers the push again. For any other PSA a 404 (docs/psa/sync.md).',
          }),
          params: Token,
          response: { 204: Type.Null(), ...failures(401, 404, 409, 413, 415, 429, 502) },
        },
      },
      async (request, reply) => {
        orRefuse(await s.psaSync.deactivated(request.params.token))
        return reply.code(204).send(null)
      },
    )
  })
}
