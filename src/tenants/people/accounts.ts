// The portal's people, built once for services.ts: their sign-in sessions (with the sign-in throttle
// and the session limits of the configuration) and the users themselves, sharing one password hasher.
import type { Clock } from '../../platform/clock.js'
import type { Config } from '../../platform/config.js'
import type { Store } from '../../platform/db/store.js'
import type { LimiterFactory } from '../../platform/redis/limiters.js'
import { PasswordHasher } from '../../platform/security/passwords.js'
import { PortalSessions } from './sessions.js'
import { SignInThrottle } from './sign-in-throttle.js'
import { PortalUsers } from './users.js'

export function portalAccounts(d: {
  store: Store
  clock: Clock
  portal: Config['portal']
  limiters: LimiterFactory
}): { portalSessions: PortalSessions; portalUsers: PortalUsers } {
  const { store, clock, portal } = d
  const passwords = new PasswordHasher({ log2N: portal.passwordCost, r: 8, p: 1 })
  return {
    portalSessions: new PortalSessions({
      store,
      clock,
      passwords,
      throttle: new SignInThrottle(portal, d.limiters),
      limits: { idleMs: portal.sessionIdleMs, absoluteMs: portal.sessionMaxMs },
    }),
    portalUsers: new PortalUsers({ store, clock, passwords }),
  }
}
