// Signing in to the partner portal and the sessions that follow. A session is a random
// cookie value (stored as its SHA-256) with a CSRF token derived from it, alive until it has been
// idle too long or reached its absolute end. Failed sign-ins are throttled (sign-in-throttle.ts) and
// answered the same whether the email or the password was wrong; a wrong email spends a hash's time.
import type { Clock } from '../clock.js'
import type { Store } from '../db/store.js'
import { disabledDetail } from '../domain/credentials.js'
import {
  csrfTokenOf,
  needsTouch,
  normalEmail,
  type PortalUser,
  type SessionLimits,
  sessionAlive,
} from '../domain/portal.js'
import { done, ok, type Result, refuse } from '../domain/result.js'
import type { PortalSessionCheck } from '../http/auth.js'
import type { PasswordHasher } from '../security/passwords.js'
import { digest, newSecret } from '../security/secrets.js'
import type { SignInThrottle } from './sign-in-throttle.js'

export interface StartedSession {
  /** The cookie's value: shown to the browser once, stored only as a digest. */
  cookieValue: string
  csrfToken: string
  maxAgeSeconds: number
  user: PortalUser
}

/** Sessions that ended are deleted a few at a time whenever someone signs in. */
const pruneOnSignIn = 100

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

  async signIn(email: string, password: string, address: string): Promise<Result<StartedSession>> {
    const { store, passwords, throttle } = this.d
    const key = normalEmail(email)
    const wait = await throttle.retryAfter(key, address)
    if (wait > 0) {
      return refuse('RATE_LIMITED', `Too many failed sign-ins; try again in ${wait} seconds.`, {
        headers: { 'retry-after': String(wait) },
      })
    }
    const found = await store.portalUsers.findByEmail(key)
    const matches = await passwords.verify(password, found?.passwordHash ?? null)
    if (!found || !matches) {
      await throttle.failed(key, address)
      return refuse('INVALID_CREDENTIALS', 'The email or the password is wrong.')
    }
    await throttle.succeeded(key)
    const { user, passwordHash } = found
    const may = await this.mayStart(user)
    if (!may.ok) return may
    // A hash made at an older cost is replaced now that the password is known.
    const rehash = passwordHash && passwords.outdated(passwordHash) ? await passwords.hash(password) : null
    return ok(await this.start(user, rehash))
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
  async start(user: PortalUser, passwordHash: string | null = null): Promise<StartedSession> {
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
}
