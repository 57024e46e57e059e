// The partner mints the organizationOemToken it hands to its vendor (docs/partner-api.md, "The
// organization token"; docs/decisions/credentials/organization-token-by-operator.md): only its digest is
// stored, so it cannot be read back; the partner rotates it and gets a new value, shown once, as a PSA
// shows an integration key. The replaced token (the one the operator's POST /api/admin/integrations
// answered, or an earlier rotation's) keeps working for `overlapSeconds` (default 24 h; 0: at once).
// With the current API key only, or a portal admin's session, as for the partner's own API key.
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { callers, operation } from '../../platform/http/openapi/operation-doc.js'
import { emptyBodyAsObject } from '../../platform/http/optional-body.js'
import { failures, IdParams } from '../../platform/http/schemas.js'
import type { CredentialRotation } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  overlapSeconds,
  partnerPrincipal,
  RotateBody,
  RotationView,
} from '../../tenants/index.js'
import type { PartnerSetup } from '../setup.js'

const Rotated = Type.Object({
  organizationOemToken: Type.String({
    description: 'the new token, shown once: give it to the vendor for this integration',
  }),
  ...RotationView.properties,
})

export interface PartnerOrgTokenRoutesDeps {
  auth: Pick<AuthHooks, 'partner'>
  credentials: Pick<CredentialRotation, 'rotate' | 'endOverlap' | 'state'>
  partnerSetup: Pick<PartnerSetup, 'integration'>
}

export function registerPartnerOrgToken(app: App, s: PartnerOrgTokenRoutesDeps): void {
  const base = { onRequest: s.auth.partner }
  const meta = { tags: ['partner'], security: [{ partnerKey: [] }] }
  const path = '/api/partner/integrations/:id/organization-oem-token'

  /** The integration, if it is the caller's; a replaced API key reads but does not mint tokens. */
  const own = async (request: Parameters<typeof partnerPrincipal>[0], id: string, minting: boolean) => {
    const p = partnerPrincipal(request)
    if (minting && p.key === 'previous') {
      throw new ApiError(
        'FORBIDDEN',
        'This API key was replaced by a rotation; it works until its window ends, but only the current key manages credentials.',
      )
    }
    return orRefuse(await s.partnerSetup.integration(p.partnerId, id))
  }

  app.get(
    path,
    {
      ...base,
      schema: {
        ...meta,
        summary:
          "When this integration's organizationOemToken was last rotated and until when the replaced one works",
        ...operation({
          id: 'getOrgTokenRotation',
          description: `Times only; the token itself is shown once, when minted. ${callers.partner}`,
        }),
        params: IdParams,
        response: { 200: RotationView, ...failures(401, 404) },
      },
    },
    async (request) => {
      const integration = await own(request, request.params.id, false)
      return s.credentials.state('orgToken', integration.id)
    },
  )

  app.post(
    `${path}/rotate`,
    {
      ...base,
      preValidation: emptyBodyAsObject,
      schema: {
        ...meta,
        summary: 'Mint a new organizationOemToken for this integration, to give to its vendor',
        ...operation({
          id: 'rotateOrgToken',
          description: `Answers the new organizationOemToken once: hand it to the vendor (it goes in the alert body and, optionally, the token request). The replaced one works overlapSeconds more. ${callers.partner}`,
          body: { overlapSeconds: 86400 },
        }),
        params: IdParams,
        body: RotateBody,
        response: { 200: Rotated, ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const integration = await own(request, request.params.id, true)
      const overlap = request.body.overlapSeconds ?? overlapSeconds.default
      const { value, rotation } = orRefuse(
        await s.credentials.rotate('orgToken', integration.id, overlap, actorOf(request)),
      )
      return { organizationOemToken: value, ...rotation }
    },
  )

  app.post(
    `${path}/end-overlap`,
    {
      ...base,
      schema: {
        ...meta,
        summary:
          'End the overlap window now: the organizationOemToken the last rotation replaced stops working',
        ...operation({
          id: 'endOrgTokenOverlap',
          description: `Once the vendor uses the new token. ${callers.partner}`,
        }),
        params: IdParams,
        response: { 200: RotationView, ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const integration = await own(request, request.params.id, true)
      return orRefuse(await s.credentials.endOverlap('orgToken', integration.id, actorOf(request)))
    },
  )
}
