// Bearer authentication for the three kinds of caller (DESIGN §1). Each route group adds the hook
// of its caller kind; handlers read the principal with the typed getters below.
import type { FastifyRequest } from 'fastify'
import type { Integration } from '../db/repositories/integrations.js'
import type { Store } from '../db/store.js'
import { digest, matchesDigest } from '../security/secrets.js'
import type { TokenService } from '../vendor/token-service.js'
import { ApiError } from './errors.js'

export type Principal =
  | { kind: 'admin' }
  | { kind: 'partner'; partnerId: string }
  | { kind: 'vendor'; vendorId: string; integrationId: string | null; tokenId: string }

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
  }
}

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (!match?.[1]) throw new ApiError('UNAUTHENTICATED', 'Send Authorization: Bearer <token>.')
  return match[1]
}

export interface AuthHooks {
  admin(request: FastifyRequest): Promise<void>
  partner(request: FastifyRequest): Promise<void>
  vendor(request: FastifyRequest): Promise<void>
}

export function authHooks(deps: { store: Store; tokens: TokenService; adminTokenDigest: string }): AuthHooks {
  return {
    async admin(request) {
      if (!matchesDigest(bearer(request), deps.adminTokenDigest)) {
        throw new ApiError('INVALID_CREDENTIALS', 'The admin token is wrong.')
      }
      request.principal = { kind: 'admin' }
    },
    async partner(request) {
      const key = bearer(request)
      const partner = await deps.store.partners.findByApiKeyDigest(digest(key))
      if (!partner || !matchesDigest(key, partner.digest))
        throw new ApiError('INVALID_CREDENTIALS', 'The partner API key is wrong.')
      request.principal = { kind: 'partner', partnerId: partner.id }
    },
    async vendor(request) {
      const check = await deps.tokens.verify(bearer(request))
      if (!check.ok) throw new ApiError(check.code, check.detail)
      request.principal = {
        kind: 'vendor',
        vendorId: check.vendorId,
        integrationId: check.integrationId,
        tokenId: check.tokenId,
      }
    },
  }
}

export function partnerId(request: FastifyRequest): string {
  const p = request.principal
  if (p?.kind !== 'partner') throw new ApiError('UNAUTHENTICATED', 'Send a partner API key.')
  return p.partnerId
}

export function vendorPrincipal(request: FastifyRequest): Extract<Principal, { kind: 'vendor' }> {
  const p = request.principal
  if (p?.kind !== 'vendor') throw new ApiError('UNAUTHENTICATED', 'Send a vendor access token.')
  return p
}

/**
 * The integration a vendor call acts on: the one the token is bound to (organization_oem_token at
 * token time), or, for an unbound token, the one named explicitly. Never another vendor's.
 */
export async function vendorIntegration(
  store: Store,
  request: FastifyRequest,
  explicitId: string | undefined,
): Promise<Integration> {
  const p = vendorPrincipal(request)
  const id = p.integrationId ?? explicitId
  if (!id) {
    throw new ApiError(
      'VALIDATION_FAILED',
      'This token is not bound to an integration: pass integrationId, or request the token with organization_oem_token.',
    )
  }
  if (p.integrationId && explicitId && explicitId !== p.integrationId) {
    throw new ApiError(
      'FORBIDDEN',
      `This token is bound to integration '${p.integrationId}', not '${explicitId}'.`,
    )
  }
  const integration = await store.integrations.findById(id)
  if (!integration || integration.vendorId !== p.vendorId) {
    throw new ApiError('INTEGRATION_NOT_FOUND', `Integration '${id}' is not an integration of this vendor.`)
  }
  return integration
}
