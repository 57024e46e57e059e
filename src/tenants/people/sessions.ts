// Signing in to the partner portal and the sessions that follow. A session is a random
// cookie value (stored as its SHA-256) with a CSRF token derived from it, alive until it has been
// idle too long or reached its absolute end. Failed sign-ins are slowed down (sign-in-throttle.ts) and
// answered the same whether the email or the password was wrong; a wrong email spends a hash's time.
// A user sees their sessions (browser, address, when) and ends one or all others; changing the password
// ends every other session.
import type { Clock } from '../../platform/clock.js'
import { done, ok, type Result, refuse } from '../../platform/core/result.js'
import type { Store } from '../../platform/db/store.js'
import { type PasswordHasher, weakPasswordReason } from '../../platform/security/passwords.js'
import { digest, newSecret } from '../../platform/security/secrets.js'
import type { PortalSessionCheck } from '../auth.js'
import { disabledDetail } from '../credentials/credentials.js'
import {
  csrfTokenOf,
  needsTouch,
  normalEmail,
  type PortalUser,
  type SessionLimits,
  sessionAlive,
} from './portal.js'
import type { UserSession } from './repository.js'
import type { Attempt, SignInThrottle } from './sign-in-throttle.js'

export interface StartedSession {
  /** The cookie's value: shown to the browser once, stored only as a digest. */
  cookieValue: string
  csrfToken: string
  maxAgeSeconds: number
  user: PortalUser
}

/** Sessions that ended are deleted a few at a time whenever someone signs in. */
const pruneOnSignIn = 100

/** Where a session is signed in from: the client address and the browser's User-Agent. */
export interface SignInFrom {
  address: string
  userAgent?: string | undefined
}

/** One of the user's sessions as they see it; `id` names it without being the stored digest. */
export interface SessionSummary extends Omit<UserSession, 'id'> {
  id: string
  current: boolean
}

/** The public name of a stored session: its digest, not the stored id itself. */
export const sessionHandle = (storedId: string): string => digest(`session:${storedId}`).slice(0, 32)

function throttled(attempt: Extract<Attempt, { refused: true }>) {
  const wait = attempt.retryAfter
  const from =
    attempt.why === 'pair'
      ? 'Too many failed sign-ins for this email from your address'
      : 'Too many failed sign-ins from your address'
  return refuse('RATE_LIMITED', `${from}; try again in ${wait} second${wait === 1 ? '' : 's'}.`, {
    headers: { 'retry-after': String(wait) },
  })
}

export class PortalSessions {
  constructor(
    private readonly d: {
      store: Store
      clock: Clock
      passwords: PasswordHasher
      throttle: SignInThrottle
      limits: SessionLimits
    },
  ) {}

  async signIn(email: string, password: string, from: SignInFrom): Promise<Result<StartedSession>> {
    const { store, passwords, throttle } = this.d
    const key = normalEmail(email)
    // Set by the check, which the throttle runs only when this address may try.
    let found = null as Awaited<ReturnType<Store['portalUsers']['findByEmail']>>
    const attempt = await throttle.attempt(key, from.address, async () => {
      found = await store.portalUsers.findByEmail(key)
      const matches = await passwords.verify(password, found?.passwordHash ?? null)
      return found !== null && matches
    })
    if (attempt.refused) return throttled(attempt)
    if (!attempt.passed || !found) return refuse('INVALID_CREDENTIALS', 'The email or the password is wrong.')
    const { user, passwordHash } = found
    const may = await this.mayStart(user)
    if (!may.ok) return may
    // A hash made at an older cost is replaced now that the password is known.
    const rehash = passwordHash && passwords.outdated(passwordHash) ? await passwords.hash(password) : null
    return ok(await this.start(user, rehash, from))
  }

  /** Refuses a user who may not have a session: disabled, or of a disabled partner. */
  async mayStart(user: PortalUser): Promise<Result<void>> {
    if (user.disabledAt !== null)
      return refuse('FORBIDDEN', 'This user is disabled; ask an admin of your organisation.')
    const partner = await this.d.store.partners.findById(user.partnerId)
    if (partner?.disabled)
      return refuse('TENANT_DISABLED', disabledDetail('partner', partner.disabled, 'own'))
    return done
  }

  /** A new session for the user (signed in, or just accepted an invite); `passwordHash` replaces its hash. */
  async start(
    user: PortalUser,
    passwordHash: string | null = null,
    from: SignInFrom | null = null,
  ): Promise<StartedSession> {
    const { store, clock, limits } = this.d
    const cookieValue = newSecret('portalSession')
    const now = clock()
    const nowIso = now.toISOString()
    await store.transaction(async (tx) => {
      await tx.portalUsers.pruneSessions(
        nowIso,
        new Date(now.getTime() - limits.idleMs).toISOString(),
        pruneOnSignIn,
      )
      await tx.portalUsers.insertSession({
        id: digest(cookieValue),
        userId: user.id,
        expiresAt: new Date(now.getTime() + limits.absoluteMs).toISOString(),
        now: nowIso,
        userAgent: from?.userAgent?.slice(0, 256) || null,
        address: from?.address ?? null,
      })
      await tx.portalUsers.update(
        user.id,
        { lastSignInAt: nowIso, ...(passwordHash ? { passwordHash } : {}) },
        nowIso,
      )
    })
    return {
      cookieValue,
      csrfToken: csrfTokenOf(cookieValue),
      maxAgeSeconds: Math.floor(limits.absoluteMs / 1000),
      user: { ...user, lastSignInAt: nowIso },
    }
  }

  /** What a session cookie is worth now. Reads only: an ended session is pruned at a later sign-in. */
  async check(cookieValue: string): Promise<PortalSessionCheck> {
    if (cookieValue.length === 0 || cookieValue.length > 128) return { ok: false }
    const s = await this.d.store.portalUsers.session(digest(cookieValue))
    const now = this.d.clock()
    if (!s || !sessionAlive(s, this.d.limits, now) || s.user.disabledAt !== null) return { ok: false }
    return {
      ok: true,
      session: {
        sessionId: s.id,
        user: s.user,
        csrfToken: csrfTokenOf(cookieValue),
        touch: needsTouch(s, now),
      },
      partnerDisabled: s.partnerDisabled,
    }
  }

  async touch(sessionId: string): Promise<void> {
    await this.d.store.portalUsers.touchSession(sessionId, this.d.clock().toISOString())
  }

  async signOut(sessionId: string): Promise<void> {
    await this.d.store.portalUsers.deleteSession(sessionId)
  }

  /** The user's live sessions, the current one flagged, the most recently seen first. */
  async list(userId: string, currentId: string): Promise<SessionSummary[]> {
    const now = this.d.clock()
    const all = await this.d.store.portalUsers.sessionsOf(userId)
    return all
      .filter((s) => s.id === currentId || sessionAlive(s, this.d.limits, now))
      .map((s) => ({ ...s, id: sessionHandle(s.id), current: s.id === currentId }))
  }

  /** Ends one of the user's sessions, named by its handle; answers whether it was the current one. */
  async end(userId: string, handle: string, currentId: string): Promise<Result<{ current: boolean }>> {
    const all = await this.d.store.portalUsers.sessionsOf(userId)
    const found = all.find((s) => sessionHandle(s.id) === handle)
    if (!found) return refuse('NOT_FOUND', 'No such session of yours: it has ended already.')
    await this.d.store.portalUsers.deleteSession(found.id)
    return ok({ current: found.id === currentId })
  }

  /** Ends every session of the user but the current one; answers how many ended. */
  async endOthers(userId: string, currentId: string): Promise<number> {
    return this.d.store.portalUsers.deleteSessionsOfExcept(userId, currentId)
  }

  /**
   * Changes the signed-in user's password: the current one must be right (a wrong one counts as a
   * failed sign-in from this address), the new one strong enough. Every other session ends.
   */
  async changePassword(
    session: { sessionId: string; user: PortalUser },
    change: { currentPassword: string; newPassword: string },
    from: SignInFrom,
  ): Promise<Result<{ endedSessions: number }>> {
    const { store, passwords, throttle, clock } = this.d
    const { user } = session
    const partner = await store.partners.findById(user.partnerId)
    const weak = weakPasswordReason(change.newPassword, {
      email: user.email,
      name: user.name,
      partnerName: partner?.name,
    })
    if (weak) return refuse('VALIDATION_FAILED', weak)
    const attempt = await throttle.attempt(user.email, from.address, async () => {
      const found = await store.portalUsers.findByEmail(user.email)
      return passwords.verify(change.currentPassword, found?.passwordHash ?? null)
    })
    if (attempt.refused) return throttled(attempt)
    if (!attempt.passed) return refuse('INVALID_CREDENTIALS', 'The current password is wrong.')
    if (change.newPassword === change.currentPassword)
      return refuse('VALIDATION_FAILED', 'The new password is the current one: choose another.')
    const passwordHash = await passwords.hash(change.newPassword)
    const endedSessions = await store.transaction(async (tx) => {
      await tx.portalUsers.update(user.id, { passwordHash }, clock().toISOString())
      return tx.portalUsers.deleteSessionsOfExcept(user.id, session.sessionId)
    })
    return ok({ endedSessions })
  }
}
