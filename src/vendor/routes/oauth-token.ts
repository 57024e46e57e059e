// POST /api/oauth/token (DESIGN §5): OAuth 2.0 client credentials, JSON or form-encoded, client
// credentials in the body or in HTTP Basic. Errors carry RFC 6749 codes as `error`.
import Type from 'typebox'
import type { App } from '../../http/app-types.js'
import { ApiError } from '../../http/errors.js'
import { digest, matchesDigest } from '../../security/secrets.js'
import type { Services } from '../../services.js'

const Field = Type.Optional(Type.String({ maxLength: 512 }))

const TokenRequest = Type.Object({
  grant_type: Field,
  client_id: Field,
  client_secret: Field,
  scope: Field,
  organization_oem_token: Type.Optional(
    Type.String({ maxLength: 512, description: "binds the token to this organization's integration" }),
  ),
})

const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds' }),
  scope: Type.Literal('vendor_manage'),
  integration_id: Type.Union([Type.String(), Type.Null()], { description: 'the bound integration, if any' }),
})

const OAuthFailure = Type.Object({
  statusCode: Type.Integer(),
  message: Type.Literal('failed'),
  error: Type.String({ description: 'RFC 6749 error code' }),
  error_description: Type.String(),
  detail: Type.String(),
  requestId: Type.String(),
})

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const m = header ? /^Basic\s+(\S+)$/i.exec(header) : null
  if (!m?.[1]) return null
  const decoded = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0
    ? null
    : {
        id: decodeURIComponent(decoded.slice(0, colon)),
        secret: decodeURIComponent(decoded.slice(colon + 1)),
      }
}

export function registerOAuthToken(app: App, s: Services): void {
  app.post(
    '/api/oauth/token',
    {
      config: { failureShape: 'oauth' },
      schema: {
        tags: ['vendor'],
        summary: 'Get a bearer token (OAuth 2.0 client credentials)',
        body: TokenRequest,
        response: { 200: TokenResponse, 400: OAuthFailure, 401: OAuthFailure },
      },
    },
    async (request, reply) => {
      const b = request.body
      const basic = basicCredentials(request.headers.authorization)
      const clientId = b.client_id ?? basic?.id
      const clientSecret = b.client_secret ?? basic?.secret
      if (!b.grant_type) throw new ApiError('invalid_request', 'grant_type is required.')
      if (b.grant_type !== 'client_credentials') {
        throw new ApiError('unsupported_grant_type', "Only grant_type 'client_credentials' is supported.")
      }
      if (!clientId || !clientSecret)
        throw new ApiError('invalid_request', 'client_id and client_secret are required.')
      if (b.scope !== undefined && b.scope !== 'vendor_manage') {
        throw new ApiError('invalid_scope', "The only scope is 'vendor_manage'.")
      }
      const vendor = await s.tokens.authenticateClient(clientId, clientSecret)
      if (!vendor) throw new ApiError('invalid_client', 'client_id or client_secret is wrong.')
      let integrationId: string | null = null
      if (b.organization_oem_token) {
        const integration = await s.store.integrations.findByOrgTokenDigest(digest(b.organization_oem_token))
        if (
          !integration ||
          integration.vendorId !== vendor.id ||
          !matchesDigest(b.organization_oem_token, integration.orgTokenDigest)
        ) {
          throw new ApiError('invalid_client', 'organization_oem_token is wrong.')
        }
        integrationId = integration.id
      }
      const token = await s.tokens.issue(vendor.id, integrationId)
      reply.header('cache-control', 'no-store')
      return {
        access_token: token.accessToken,
        token_type: 'Bearer' as const,
        expires_in: token.expiresIn,
        scope: 'vendor_manage' as const,
        integration_id: integrationId,
      }
    },
  )
}
