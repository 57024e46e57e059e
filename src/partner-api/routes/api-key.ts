// The partner rotates its own API key (docs/partner-api.md, "The API key"): with the current key only
// (a key a rotation replaced keeps working until its window ends, but cannot rotate), or from a portal
// admin's session. The new key is shown once; the replaced one works for `overlapSeconds` (default 24 h) or
// until end-overlap.
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { emptyBodyAsObject } from '../../platform/http/optional-body.js'
import { failures } from '../../platform/http/schemas.js'
import type { CredentialRotation } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  overlapSeconds,
  partnerPrincipal,
  RotateBody,
  RotationView,
} from '../../tenants/index.js'

const Rotated = Type.Object({
  apiKey: Type.String({ description: 'the new API key, shown once' }),
  ...RotationView.properties,
})

export interface PartnerApiKeyRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  credentials: Pick<CredentialRotation, 'rotate' | 'endOverlap' | 'state'>
}

export function registerPartnerApiKey(app: App, s: PartnerApiKeyRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }

  /** The partner, if it called with its current key or a portal admin's session. */
  const withCurrentKey = (request: Parameters<typeof partnerPrincipal>[0]): string => {
    const p = partnerPrincipal(request)
    if (p.key === 'previous') {
      throw new ApiError(
        'FORBIDDEN',
        'This API key was replaced by a rotation; it works until its window ends, but only the current key manages keys.',
      )
    }
    return p.partnerId
  }

  app.get(
    '/api/partner/api-key',
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'When your API key was last rotated, until when the replaced one works, and which one you used',
        ...operation({ id: 'getApiKeyRotation', description: `Times only. ${callers.partner}` }),
        response: {
          200: Type.Object({
            ...RotationView.properties,
            usedKey: Type.Enum(['current', 'previous', 'session'], {
              description: 'the key this request was made with (session: a portal session, no key)',
            }),
          }),
          ...failures(401, 403),
        },
      },
    },
    async (request) => {
      const p = partnerPrincipal(request)
      return { ...(await s.credentials.state('apiKey', p.partnerId)), usedKey: p.key }
    },
  )

  app.post(
    '/api/partner/api-key/rotate',
    {
      ...base,
      preValidation: emptyBodyAsObject,
      schema: {
        ...meta,
        summary: 'Rotate your API key',
        ...operation({
          id: 'rotateApiKey',
          description: `Answers the new key once; the replaced one works overlapSeconds more. ${callers.portalAdmin}`,
          body: { overlapSeconds: 86400 },
        }),
        body: RotateBody,
        response: { 200: Rotated, ...failures(400, 401, 403) },
      },
    },
    async (request) => {
      const partnerId = withCurrentKey(request)
      const overlap = request.body.overlapSeconds ?? overlapSeconds.default
      const { value, rotation } = orRefuse(
        await s.credentials.rotate('apiKey', partnerId, overlap, actorOf(request)),
      )
      return { apiKey: value, ...rotation }
    },
  )

  app.post(
    '/api/partner/api-key/end-overlap',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'End the overlap window now: the API key the last rotation replaced stops working',
        ...operation({
          id: 'endApiKeyOverlap',
          description: `Once every client uses the new key. ${callers.portalAdmin}`,
        }),
        response: { 200: RotationView, ...failures(401, 403) },
      },
    },
    async (request) =>
      orRefuse(await s.credentials.endOverlap('apiKey', withCurrentKey(request), actorOf(request))),
  )
}
