// Operator API: rotating a tenant's credentials with an overlap window (docs/operations.md, "Rotating
// a tenant's credentials, disabling a tenant"). Each credential has `POST …/rotate` (a new value, shown
// once; the replaced one keeps working for `overlapSeconds`) and `POST …/end-overlap` (the replaced
// one stops now). The vendor rotates its own secrets through
// the vendor API and the partner its API key through the partner API as well.
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, type OperationDoc, operation } from '../../platform/http/openapi/operation-doc.js'
import { emptyBodyAsObject } from '../../platform/http/optional-body.js'
import { failures, IdParams } from '../../platform/http/schemas.js'
import type { CredentialRotation, RotatingCredential } from '../../tenants/index.js'
import { type AuthHooks, actorOf, overlapSeconds, RotateBody, RotationView } from '../../tenants/index.js'

const shownOnce =
  'The new value is answered once; the replaced one keeps working overlapSeconds (default 24 h).'

const credentials: {
  path: string
  credential: RotatingCredential
  field: string
  what: string
  /** The rotate and end-overlap calls in the OpenAPI document. */
  operations: { rotate: OperationDoc; endOverlap: OperationDoc }
}[] = [
  {
    path: '/api/admin/vendors/:id/client-secret',
    credential: 'clientSecret',
    field: 'clientSecret',
    what: "a vendor's client secret (alerts and POST /api/oauth/token)",
    operations: {
      rotate: {
        id: 'rotateVendorClientSecret',
        description: `${shownOnce} ${callers.operatorChange}`,
        body: { overlapSeconds: 86400 },
      },
      endOverlap: {
        id: 'endVendorClientSecretOverlap',
        description: callers.operatorChange,
      },
    },
  },
  {
    path: '/api/admin/vendors/:id/webhook-secret',
    credential: 'webhookSecret',
    field: 'webhookSecret',
    what: "a vendor's webhook signing secret (during the window deliveries carry both signatures)",
    operations: {
      rotate: {
        id: 'rotateVendorWebhookSecret',
        description: `${shownOnce} ${callers.operatorChange}`,
        body: { overlapSeconds: 86400 },
      },
      endOverlap: {
        id: 'endVendorWebhookSecretOverlap',
        description: callers.operatorChange,
      },
    },
  },
  {
    path: '/api/admin/integrations/:id/organization-oem-token',
    credential: 'orgToken',
    field: 'organizationOemToken',
    what: "an integration's organizationOemToken",
    operations: {
      rotate: {
        id: 'rotateIntegrationOrgToken',
        description: `${shownOnce} ${callers.operatorChange}`,
        body: { overlapSeconds: 86400 },
      },
      endOverlap: {
        id: 'endIntegrationOrgTokenOverlap',
        description: callers.operatorChange,
      },
    },
  },
  {
    path: '/api/admin/partners/:id/api-key',
    credential: 'apiKey',
    field: 'apiKey',
    what: "a partner's API key",
    operations: {
      rotate: {
        id: 'rotatePartnerApiKey',
        description: `${shownOnce} ${callers.operatorChange}`,
        body: { overlapSeconds: 86400 },
      },
      endOverlap: { id: 'endPartnerApiKeyOverlap', description: callers.operatorChange },
    },
  },
]

export interface AdminRotationRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  credentials: Pick<CredentialRotation, 'rotate' | 'endOverlap'>
}

export function registerAdminRotations(app: App, s: AdminRotationRoutesDeps): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }

  for (const c of credentials) {
    const Rotated = Type.Object({
      [c.field]: Type.String({ description: 'the new value, shown once' }),
      ...RotationView.properties,
    })
    app.post(
      `${c.path}/rotate`,
      {
        ...base,
        preValidation: emptyBodyAsObject,
        schema: {
          ...meta,
          summary: `Rotate ${c.what}`,
          ...operation(c.operations.rotate),
          params: IdParams,
          body: RotateBody,
          response: { 200: Rotated, ...failures(400, 401, 404) },
        },
      },
      async (request) => {
        const overlap = request.body.overlapSeconds ?? overlapSeconds.default
        const { value, rotation } = orRefuse(
          await s.credentials.rotate(c.credential, request.params.id, overlap, actorOf(request)),
        )
        return { [c.field]: value, ...rotation }
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
          params: IdParams,
          response: { 200: RotationView, ...failures(401, 404) },
        },
      },
      async (request) =>
        orRefuse(await s.credentials.endOverlap(c.credential, request.params.id, actorOf(request))),
    )
  }
}
