// The vendor rotates its own secrets (docs/vendor-api.md, "Rotating credentials"; an extension of the
// contract, in the style of the vendor API): `Authorization: Bearer <access token>` as on every vendor
// call, and, because the call mints a long-lived credential, the current client secret in the body as
// well — an access token alone (valid an hour, possibly leaked from a log) cannot take the vendor over,
// and neither can a secret a rotation already replaced. The new value is shown once; the replaced one
// keeps working for `overlapSeconds` (default 24 h) or until end-overlap.
import Type from 'typebox'
import type { Clock } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import { ApiError, orRefuse } from '../../platform/http/errors.js'
import { callers, type OperationDoc, operation } from '../../platform/http/openapi/operation-doc.js'
import { failures } from '../../platform/http/schemas.js'
import { matchesDigest } from '../../platform/security/secrets.js'
import type { CredentialRotation, RotatingCredential } from '../../tenants/index.js'
import {
  type AuthHooks,
  actorOf,
  OverlapSeconds,
  overlapSeconds,
  RotationView,
  rotationView,
  vendorPrincipal,
} from '../../tenants/index.js'
import { rotation } from '../openapi.js'

const ClientSecret = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'your current client secret (not one a rotation replaced), proving the call is yours',
})

const secrets: {
  path: string
  credential: RotatingCredential
  field: string
  what: string
  /** The rotate and end-overlap calls in the OpenAPI document. */
  operations: { rotate: OperationDoc; endOverlap: OperationDoc }
}[] = [
  {
    path: '/api/vendor-api/credentials/client-secret',
    credential: 'clientSecret',
    field: 'clientSecret',
    what: 'your client secret',
    operations: {
      rotate: {
        id: 'rotateClientSecret',
        description: `Answers the new secret once; the replaced one keeps working overlapSeconds (default 24 h) so that every process can switch. ${callers.vendor}`,
        body: { clientSecret: 'ab_secret_redacted-example', overlapSeconds: 86400 },
      },
      endOverlap: {
        id: 'endClientSecretOverlap',
        description: `Once every process uses the new secret. ${callers.vendor}`,
        body: { clientSecret: 'ab_secret_redacted-example' },
      },
    },
  },
  {
    path: '/api/vendor-api/credentials/webhook-secret',
    credential: 'webhookSecret',
    field: 'webhookSecret',
    what: 'your webhook signing secret (during the window deliveries carry both signatures)',
    operations: {
      rotate: {
        id: 'rotateWebhookSecret',
        description: `Answers the new whsec_ secret once; until the overlap ends each delivery carries a signature by each secret, so a verifier with either passes. ${callers.vendor}`,
        body: { clientSecret: 'ab_secret_redacted-example', overlapSeconds: 86400 },
      },
      endOverlap: {
        id: 'endWebhookSecretOverlap',
        description: `Once your verifier has the new secret. ${callers.vendor}`,
        body: { clientSecret: 'ab_secret_redacted-example' },
      },
    },
  },
]

export interface VendorCredentialRoutesDeps {
  auth: Pick<AuthHooks, 'vendor'>
  store: Store
  clock: Clock
  credentials: Pick<CredentialRotation, 'rotate' | 'endOverlap'>
}

export function registerVendorCredentials(app: App, s: VendorCredentialRoutesDeps): void {
  const base = { onRequest: s.auth.vendor }
  const meta = { tags: ['vendor'], security: [{ vendorToken: [] }] }

  /** The calling vendor, once `clientSecret` proves the call: only its current secret does. */
  const provenVendor = async (request: Parameters<typeof vendorPrincipal>[0], clientSecret: string) => {
    const vendor = await s.store.vendors.findById(vendorPrincipal(request).vendorId)
    if (!vendor) throw new ApiError('INVALID_CREDENTIALS', 'The vendor of this token no longer exists.')
    if (matchesDigest(clientSecret, vendor.clientSecretDigest)) return vendor
    const previous = vendor.clientSecret.previousDigest
    if (previous !== null && matchesDigest(clientSecret, previous)) {
      throw new ApiError(
        'FORBIDDEN',
        'This client secret was replaced by a rotation; it still obtains tokens until its window ends, but only the current secret rotates credentials.',
      )
    }
    throw new ApiError('INVALID_CREDENTIALS', 'clientSecret is wrong.')
  }

  app.get(
    '/api/vendor-api/credentials',
    {
      ...base,
      schema: {
        ...meta,
        summary: 'When your secrets were last rotated and until when the replaced ones still work',
        ...operation({
          id: 'getCredentialRotations',
          description: `Rotation times only; no secret is ever shown again. ${callers.vendor}`,
          answers: { '200': { clientSecret: rotation, webhookSecret: rotation } },
        }),
        response: {
          200: Type.Object({ clientSecret: RotationView, webhookSecret: RotationView }),
          ...failures(401, 403),
        },
      },
    },
    async (request) => {
      const vendor = await s.store.vendors.findById(vendorPrincipal(request).vendorId)
      if (!vendor) throw new ApiError('INVALID_CREDENTIALS', 'The vendor of this token no longer exists.')
      const now = s.clock().toISOString()
      return {
        clientSecret: rotationView(vendor.clientSecret, now),
        webhookSecret: rotationView(vendor.webhookSecretRotation, now),
      }
    },
  )

  for (const c of secrets) {
    const Rotated = Type.Object({
      [c.field]: Type.String({ description: 'the new value, shown once' }),
      ...RotationView.properties,
    })
    app.post(
      `${c.path}/rotate`,
      {
        ...base,
        schema: {
          ...meta,
          summary: `Rotate ${c.what}`,
          ...operation(c.operations.rotate),
          body: Type.Object(
            { clientSecret: ClientSecret, overlapSeconds: Type.Optional(OverlapSeconds) },
            { additionalProperties: false },
          ),
          response: { 200: Rotated, ...failures(400, 401, 403) },
        },
      },
      async (request) => {
        const vendor = await provenVendor(request, request.body.clientSecret)
        const overlap = request.body.overlapSeconds ?? overlapSeconds.default
        const rotated = orRefuse(
          await s.credentials.rotate(c.credential, vendor.id, overlap, actorOf(request)),
        )
        return { [c.field]: rotated.value, ...rotated.rotation }
      },
    )
    app.post(
      `${c.path}/end-overlap`,
      {
        ...base,
        schema: {
          ...meta,
          summary: `End the overlap window of ${c.what} now: the replaced value stops working`,
          ...operation(c.operations.endOverlap),
          body: Type.Object({ clientSecret: ClientSecret }, { additionalProperties: false }),
          response: { 200: RotationView, ...failures(400, 401, 403) },
        },
      },
      async (request) => {
        const vendor = await provenVendor(request, request.body.clientSecret)
        return orRefuse(await s.credentials.endOverlap(c.credential, vendor.id, actorOf(request)))
      },
    )
  }
}
