// The partner portal's users and sessions (docs/partner-api.md#portal-users-and-sessions): roles, what each
// may do, when a session ends, and the guard that keeps a partner with an admin. Pure: the session service
// and the auth hook load the facts and act on the answers.
import { createHmac, hash, timingSafeEqual } from 'node:crypto'
import type { ErrorCode } from '../../platform/core/errors.js'

export const portalRoles = ['admin', 'viewer'] as const
export type PortalRole = (typeof portalRoles)[number]

export interface PortalUser {
  id: string
  partnerId: string
  email: string
  name: string | null
  role: PortalRole
  /** Set once the invite was accepted; a user without one cannot sign in. */
  hasPassword: boolean
  invite: { expiresAt: string } | null
  disabledAt: string | null
  lastSignInAt: string | null
  createdAt: string
  updatedAt: string
}

/** An email as stored and looked up: trimmed and lower-cased (one person, one spelling). */
export const normalEmail = (email: string): string => email.trim().toLowerCase()

/** Methods that change nothing: they need no CSRF token and are open to viewers. */
export const safeMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

export interface SessionLimits {
  /** A session unused this long ends. */
  idleMs: number
  /** A session ends this long after sign-in, however busy. */
  absoluteMs: number
}

export interface SessionTimes {
  expiresAt: string
  lastSeenAt: string
}

/** Whether a session is still alive at `now`. */
export function sessionAlive(s: SessionTimes, limits: SessionLimits, now: Date): boolean {
  const t = now.getTime()
  return t < Date.parse(s.expiresAt) && t < Date.parse(s.lastSeenAt) + limits.idleMs
}

/** Last-seen is written at most this often: the idle limit is kept to within it. */
export const touchEveryMs = 60_000

export const needsTouch = (s: SessionTimes, now: Date): boolean =>
  now.getTime() - Date.parse(s.lastSeenAt) >= touchEveryMs

/**
 * A session's CSRF token: an HMAC of its cookie's value, so it is bound to the session, needs no
 * storage, and tells nothing about the cookie (which scripts cannot read: it is httpOnly).
 */
export const csrfTokenOf = (cookieValue: string): string =>
  createHmac('sha256', cookieValue).update('alertbridge portal csrf').digest('base64url')

/** Constant-time equality of two strings of any length (each is hashed first, so lengths do not leak). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'))
}

export type Access = { ok: true } | { ok: false; code: ErrorCode; detail: string }

/**
 * What a portal session may do with one request: reads always; a change needs the session's CSRF
 * token in `x-csrf-token`, and an admin, unless the route changes nothing (`viewerAllowed`: a dry
 * run, a connection test, signing out).
 */
export function sessionAccess(r: {
  method: string
  role: PortalRole
  csrfToken: string
  csrfHeader: string | undefined
  viewerAllowed: boolean
}): Access {
  if (safeMethods.has(r.method)) return { ok: true }
  if (r.csrfHeader === undefined || !sameSecret(r.csrfHeader, r.csrfToken)) {
    return {
      ok: false,
      code: 'FORBIDDEN',
      detail:
        'A change made with the portal session needs the header x-csrf-token with the csrfToken of the session.',
    }
  }
  if (r.role !== 'admin' && !r.viewerAllowed) {
    return {
      ok: false,
      code: 'FORBIDDEN',
      detail: 'A viewer can read but not change anything; ask an admin.',
    }
  }
  return { ok: true }
}

/** An admin that counts for the last-admin guard: not disabled. */
const countsAsAdmin = (u: Pick<PortalUser, 'role' | 'disabledAt'>) =>
  u.role === 'admin' && u.disabledAt === null

/**
 * Whether a change to one user leaves its partner with an admin. `after` is the user as the change
 * leaves it, or null when the user is removed; `admins` are the partner's admins that count now.
 */
export function keepsAnAdmin(
  before: Pick<PortalUser, 'id' | 'role' | 'disabledAt'>,
  after: Pick<PortalUser, 'role' | 'disabledAt'> | null,
  admins: readonly Pick<PortalUser, 'id'>[],
): boolean {
  if (!countsAsAdmin(before) || (after !== null && countsAsAdmin(after))) return true
  return admins.some((a) => a.id !== before.id)
}
