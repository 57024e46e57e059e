// Bearer authentication for the three kinds of caller (README.md#who-does-what), and the partner portal's
// session cookie (docs/partner-api.md#portal-users-and-sessions), which every partner route takes as well
// as the API key. Each route group adds the hook of its caller kind; handlers read the principal with the
// typed getters below. What a partner key, a portal session or a vendor token is worth is asked of the
// capabilities that own them (wired in services.ts).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorCode } from '../platform/core/errors.js'
import { ApiError } from '../platform/http/errors.js'
import { matchesDigest, operatorIdOf } from '../platform/security/secrets.js'
import type { Actor } from './audit/operator-audit.js'
import { disabledDetail } from './credentials/credentials.js'
import type { PartnerKeyOwner } from './partner.js'
import { clearedSessionCookie, readCookie, sessionCookieName } from './people/cookies.js'
import { type PortalUser, sessionAccess } from './people/portal.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A partner route with an unsafe method that changes nothing (a dry run, a connection test,
     * signing out): a viewer's portal session may call it.
     */
    viewerAllowed?: boolean
  }
}

/** A signed-in portal user, as a request made with the session cookie carries it. */
export interface PortalSessionInfo {
  sessionId: string
  user: PortalUser
  csrfToken: string
  /** Its last-seen time is due to be written once the request succeeds. */
  touch: boolean
}

export type Principal =
  /** operatorId: a stable, non-secret name of the admin credential used (for the audit log). */
  | { kind: 'admin'; operatorId: string }
  /**
   * key: the partner's current API key, the one a rotation replaced (in its overlap window), or a
   * portal session (then `session` says whose).
   */
  | {
      kind: 'partner'
      partnerId: string
      key: PartnerKeyOwner['key'] | 'session'
      session: PortalSessionInfo | null
    }
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
  /** The partner's API key (Bearer) or, without an Authorization header, the portal session cookie. */
  partner(request: FastifyRequest): Promise<void>
  vendor(request: FastifyRequest): Promise<void>
  /** After a successful request made with a portal session: keeps the session from going idle. */
  touchSession(request: FastifyRequest, reply: FastifyReply): Promise<void>
}

/** What a portal session cookie is worth: its user, or nothing (unknown, ended, user disabled). */
export type PortalSessionCheck =
  | {
      ok: true
      session: PortalSessionInfo
      partnerDisabled: { at: string; reason: string | null } | null
    }
  | { ok: false }

/** What a vendor access token is worth: its vendor and binding, or why it is refused. */
export type VendorTokenCheck =
  | { ok: true; vendorId: string; integrationId: string | null; tokenId: string }
  | { ok: false; code: ErrorCode; detail: string }

export interface Authenticators {
  adminTokenDigest: string
  /** The partner whose API key this is, or null. */
  partnerOfKey(key: string): Promise<PartnerKeyOwner | null>
  vendorToken(token: string): Promise<VendorTokenCheck>
  portalSession(cookieValue: string): Promise<PortalSessionCheck>
  touchPortalSession(sessionId: string): Promise<void>
}

export function authHooks(deps: Authenticators): AuthHooks {
  const operatorId = operatorIdOf(deps.adminTokenDigest)

  /** A request made with the portal's cookie: a live session, and for a change its CSRF token and role. */
  async function portalSession(request: FastifyRequest, cookie: string): Promise<void> {
    const check = await deps.portalSession(cookie)
    if (!check.ok) {
      throw new ApiError('UNAUTHENTICATED', 'The portal session has ended; sign in again.', {
        headers: { 'set-cookie': clearedSessionCookie(request) },
      })
    }
    if (check.partnerDisabled)
      throw new ApiError('TENANT_DISABLED', disabledDetail('partner', check.partnerDisabled, 'own'))
    const { session } = check
    const csrf = request.headers['x-csrf-token']
    const access = sessionAccess({
      method: request.method,
      role: session.user.role,
      csrfToken: session.csrfToken,
      csrfHeader: typeof csrf === 'string' ? csrf : undefined,
      viewerAllowed: request.routeOptions.config?.viewerAllowed === true,
    })
    if (!access.ok) throw new ApiError(access.code, access.detail)
    request.principal = { kind: 'partner', partnerId: session.user.partnerId, key: 'session', session }
  }

  return {
    async admin(request) {
      if (!matchesDigest(bearer(request), deps.adminTokenDigest)) {
        throw new ApiError('INVALID_CREDENTIALS', 'The admin token is wrong.')
      }
      request.principal = { kind: 'admin', operatorId }
    },
    async partner(request) {
      const cookie = readCookie(request.headers.cookie, sessionCookieName)
      if (request.headers.authorization === undefined && cookie !== undefined) {
        await portalSession(request, cookie)
        return
      }
      if (request.headers.authorization === undefined) {
        throw new ApiError(
          'UNAUTHENTICATED',
          'Send Authorization: Bearer <partner API key>, or sign in to the portal (POST /api/partner/session).',
        )
      }
      const owner = await deps.partnerOfKey(bearer(request))
      if (!owner) throw new ApiError('INVALID_CREDENTIALS', 'The partner API key is wrong.')
      if (owner.disabled)
        throw new ApiError('TENANT_DISABLED', disabledDetail('partner', owner.disabled, 'own'))
      request.principal = { kind: 'partner', partnerId: owner.partnerId, key: owner.key, session: null }
    },
    async touchSession(request, reply) {
      const p = request.principal
      if (p?.kind !== 'partner' || !p.session?.touch || reply.statusCode >= 400) return
      await deps.touchPortalSession(p.session.sessionId)
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

/** The portal session the request was made with; an API key has none (401). */
export function portalSessionOf(request: FastifyRequest): PortalSessionInfo {
  const session = partnerPrincipal(request).session
  if (!session) throw new ApiError('UNAUTHENTICATED', 'This needs a portal session; the API key has none.')
  return session
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
      // A portal user is named by its own id: who in the partner's staff made the change.
      return {
        kind: 'partner',
        id: p.session ? `user:${p.session.user.id}` : `partner:${p.partnerId}`,
        requestId: request.id,
      }
    default:
      throw new ApiError('UNAUTHENTICATED', 'Send credentials.')
  }
}

export function vendorPrincipal(request: FastifyRequest): Extract<Principal, { kind: 'vendor' }> {
  const p = request.principal
  if (p?.kind !== 'vendor') throw new ApiError('UNAUTHENTICATED', 'Send a vendor access token.')
  return p
}
