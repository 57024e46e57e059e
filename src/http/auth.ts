// Bearer authentication for the three kinds of caller (DESIGN §1). Each route group adds the hook
// of its caller kind; handlers read the principal with the typed getters below. What a partner key
// or a vendor token is worth is asked of the capabilities that own them (wired in services.ts).
import type { FastifyRequest } from 'fastify'
import { disabledDetail } from '../domain/credentials.js'
import type { ErrorCode } from '../domain/errors.js'
import type { Actor } from '../domain/operator-audit.js'
import type { PartnerKeyOwner } from '../domain/partner.js'
import { matchesDigest, operatorIdOf } from '../security/secrets.js'
import { ApiError } from './errors.js'

export type Principal =
  /** operatorId: a stable, non-secret name of the admin credential used (for the audit log). */
  | { kind: 'admin'; operatorId: string }
  /** key: the partner's current API key, or the one a rotation replaced (in its overlap window). */
  | { kind: 'partner'; partnerId: string; key: PartnerKeyOwner['key'] }
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

/** What a vendor access token is worth: its vendor and binding, or why it is refused. */
export type VendorTokenCheck =
  | { ok: true; vendorId: string; integrationId: string | null; tokenId: string }
  | { ok: false; code: ErrorCode; detail: string }

export interface Authenticators {
  adminTokenDigest: string
  /** The partner whose API key this is, or null. */
  partnerOfKey(key: string): Promise<PartnerKeyOwner | null>
  vendorToken(token: string): Promise<VendorTokenCheck>
}

export function authHooks(deps: Authenticators): AuthHooks {
  const operatorId = operatorIdOf(deps.adminTokenDigest)
  return {
    async admin(request) {
      if (!matchesDigest(bearer(request), deps.adminTokenDigest)) {
        throw new ApiError('INVALID_CREDENTIALS', 'The admin token is wrong.')
      }
      request.principal = { kind: 'admin', operatorId }
    },
    async partner(request) {
      const owner = await deps.partnerOfKey(bearer(request))
      if (!owner) throw new ApiError('INVALID_CREDENTIALS', 'The partner API key is wrong.')
      if (owner.disabled)
        throw new ApiError('TENANT_DISABLED', disabledDetail('partner', owner.disabled, 'own'))
      request.principal = { kind: 'partner', partnerId: owner.partnerId, key: owner.key }
    },
    async vendor(request) {
      const check = await deps.vendorToken(bearer(request))
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

export function partnerPrincipal(request: FastifyRequest): Extract<Principal, { kind: 'partner' }> {
  const p = request.principal
  if (p?.kind !== 'partner') throw new ApiError('UNAUTHENTICATED', 'Send a partner API key.')
  return p
}

/** Who made this request, for the audit log: the operator credential, the vendor's token or the partner. */
export function actorOf(request: FastifyRequest): Actor {
  const p = request.principal
  switch (p?.kind) {
    case 'admin':
      return { kind: 'operator', id: p.operatorId, requestId: request.id }
    case 'vendor':
      return { kind: 'vendor', id: `token:${p.tokenId}`, requestId: request.id }
    case 'partner':
      return { kind: 'partner', id: `partner:${p.partnerId}`, requestId: request.id }
    default:
      throw new ApiError('UNAUTHENTICATED', 'Send credentials.')
  }
}

export function vendorPrincipal(request: FastifyRequest): Extract<Principal, { kind: 'vendor' }> {
  const p = request.principal
  if (p?.kind !== 'vendor') throw new ApiError('UNAUTHENTICATED', 'Send a vendor access token.')
  return p
}
