// Builds every service once, with plain constructors, and types the set as one context that route
// files and workers receive. No container, no decorators.
import type { FastifyBaseLogger } from 'fastify'
import { Provisioning } from './admin/provisioning.js'
import { AlertExecutor } from './alerts/executor.js'
import { AlertIntake } from './alerts/intake.js'
import { VendorRateLimiter } from './alerts/rate-limit.js'
import { Settlement } from './alerts/settlement.js'
import type { Clock } from './clock.js'
import type { Config } from './config.js'
import type { Db } from './db/connect.js'
import { Store } from './db/store.js'
import type { AuthHooks } from './http/auth.js'
import { authHooks } from './http/auth.js'
import { PartnerSetup } from './partner/setup.js'
import { PsaRegistry } from './psa/registry.js'
import type { CryptoBox } from './security/crypto-box.js'
import { VendorSetup } from './vendor/setup.js'
import { TokenService } from './vendor/token-service.js'

export interface Services {
  config: Config
  clock: Clock
  db: Db
  store: Store
  psa: PsaRegistry
  tokens: TokenService
  intake: AlertIntake
  executor: AlertExecutor
  provisioning: Provisioning
  partnerSetup: PartnerSetup
  vendorSetup: VendorSetup
  auth: AuthHooks
}

export function buildServices(deps: {
  config: Config
  db: Db
  box: CryptoBox
  clock: Clock
  adminTokenDigest: string
  log: FastifyBaseLogger
}): Services {
  const { config, db, box, clock, log } = deps
  const store = new Store(db.kysely, box)
  const psa = new PsaRegistry(store, clock)
  const tokens = new TokenService(store, clock, config.accessTokenTtlSeconds)
  const limiter = new VendorRateLimiter(config.defaultAlertRateLimitPerMinute)
  return {
    config,
    clock,
    db,
    store,
    psa,
    tokens,
    intake: new AlertIntake(store, tokens, limiter),
    executor: new AlertExecutor({
      store,
      psa,
      clock,
      log,
      settlement: new Settlement(),
      psaTimeoutMs: config.psaTimeoutMs,
    }),
    provisioning: new Provisioning(store, psa, clock),
    partnerSetup: new PartnerSetup(store, clock),
    vendorSetup: new VendorSetup(store, clock),
    auth: authHooks({ store, tokens, adminTokenDigest: deps.adminTokenDigest }),
  }
}
