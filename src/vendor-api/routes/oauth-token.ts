// POST /api/oauth/token (docs/contract.md#authentication): OAuth 2.0 client credentials, JSON or
// form-encoded, client credentials in the body or in HTTP Basic. Errors carry RFC 6749 codes as `error`.
import Type from 'typebox'
import { type Clock, iso } from '../../platform/clock.js'
import type { Store } from '../../platform/db/store.js'
import type { App } from '../../platform/http/app-types.js'
import type { FailureRenderer } from '../../platform/http/error-handler.js'
import { ApiError } from '../../platform/http/errors.js'
import { nulProblem } from '../../platform/http/ingress.js'
import { operation } from '../../platform/http/openapi/operation-doc.js'
import { digest } from '../../platform/security/secrets.js'
import { disabledDetail, generationOf, matchOrgToken, type TokenService } from '../../tenants/index.js'
import { integrationId } from '../openapi.js'

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

/** One part of `Authorization: Basic`, form-urlencoded as RFC 6749 §2.3.1 asks; null when it is not. */
function basicPart(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return null
  }
}

/**
 * The client credentials of an `Authorization: Basic` header, or null without one. Parts that are not
 * valid percent-encoding, or that hold a NUL, are refused as a malformed request (400 invalid_request),
 * like a body without them; nothing is looked up with them.
 */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const m = header ? /^Basic\s+(\S+)$/i.exec(header) : null
  if (!m?.[1]) return null
  const decoded = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  const id = basicPart(decoded.slice(0, colon))
  const secret = basicPart(decoded.slice(colon + 1))
  if (id === null || secret === null) {
    throw new ApiError(
      'invalid_request',
      `The ${id === null ? 'client id' : 'client secret'} in Authorization: Basic is not valid percent-encoding (RFC 6749 §2.3.1: form-urlencode each part).`,
    )
  }
  const nul =
    nulProblem('The client id in Authorization: Basic', id) ??
    nulProblem('The client secret in Authorization: Basic', secret)
  if (nul) throw new ApiError('invalid_request', nul)
  return { id, secret }
}

/** Our codes for a malformed request, as the RFC 6749 §5.2 code a client of the token endpoint expects. */
const asOAuthCode: Partial<Record<string, string>> = {
  INVALID_JSON: 'invalid_request',
  VALIDATION_FAILED: 'invalid_request',
  UNSUPPORTED_MEDIA_TYPE: 'invalid_request',
  BODY_TOO_LARGE: 'invalid_request',
}

/**
 * How the token endpoint renders a refusal: RFC 6749 §5.2's `error_description` beside our `detail`,
 * and `error` always one of its codes (a malformed request of any kind is `invalid_request`).
 */
export const oauthFailure: FailureRenderer = (f) => ({
  statusCode: f.status,
  message: 'failed',
  error: asOAuthCode[f.code] ?? f.code,
  error_description: f.detail,
  detail: f.detail,
  requestId: f.requestId,
})

export interface OAuthTokenRoutesDeps {
  store: Store
  clock: Clock
  tokens: Pick<TokenService, 'authenticateClient' | 'issue'>
}

export function registerOAuthToken(app: App, s: OAuthTokenRoutesDeps): void {
  app.post(
    '/api/oauth/token',
    {
      config: { failureShape: 'oauth' },
      schema: {
        tags: ['vendor'],
        summary: 'Get a bearer token (OAuth 2.0 client credentials)',
        ...operation({
          id: 'getToken',
          answers: {
            '200': {
              access_token: 'abt_9b1f-redacted-example',
              token_type: 'Bearer',
              expires_in: 3600,
              scope: 'vendor_manage',
              integration_id: integrationId,
            },
          },
          responses: { '200': 'A bearer token (Cache-Control: no-store).' },
        }),
        description:
          'A vendor may hold ACCESS_TOKEN_MAX_ACTIVE unexpired tokens and request ACCESS_TOKEN_ISSUE_PER_MINUTE a minute; past either, 429 with Retry-After.',
        body: TokenRequest,
        response: { 200: TokenResponse, 400: OAuthFailure, 401: OAuthFailure, 429: OAuthFailure },
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
      const client = await s.tokens.authenticateClient(clientId, clientSecret)
      if (!client) throw new ApiError('invalid_client', 'client_id or client_secret is wrong.')
      const { vendor } = client
      if (vendor.disabled)
        throw new ApiError('invalid_client', disabledDetail('vendor', vendor.disabled, 'own'))
      let binding: { integrationId: string; orgTokenVersion: number } | null = null
      if (b.organization_oem_token) {
        const presented = digest(b.organization_oem_token)
        const integration = await s.store.integrations.findByOrgTokenDigest(presented)
        const match =
          integration && integration.vendorId === vendor.id
            ? matchOrgToken(integration, presented, iso(s.clock))
            : 'none'
        if (!integration || match === 'none') {
          throw new ApiError('invalid_client', 'organization_oem_token is wrong.')
        }
        const state = await s.store.integrations.tenantState(integration.id)
        if (state?.partnerDisabled) {
          throw new ApiError(
            'invalid_client',
            disabledDetail('partner', state.partnerDisabled, 'integration'),
          )
        }
        binding = {
          integrationId: integration.id,
          orgTokenVersion: generationOf(match, integration.orgToken),
        }
      }
      const integrationId = binding?.integrationId ?? null
      const token = await s.tokens.issue(vendor.id, binding, client.secretVersion)
      if (token.kind === 'refused') {
        throw new ApiError('RATE_LIMITED', token.detail, {
          headers: { 'retry-after': String(token.retryAfterSeconds) },
        })
      }
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
