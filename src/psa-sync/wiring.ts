// Two-way sync's parts, built once for services.ts (docs/psa/sync.md): the service the routes and the
// provisioning call, and the job kinds the runtime runs.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../platform/clock.js'
import type { Config } from '../platform/config.js'
import type { Store } from '../platform/db/store.js'
import type { JobKindEntry, JobProducer } from '../platform/queue/port.js'
import type { LimiterFactory } from '../platform/redis/limiters.js'
import type { PsaRegistry } from '../psa/index.js'
import type { DeliveryJobs, WebhookOutbox } from '../webhooks/index.js'
import { PsaSyncApplier } from './apply.js'
import { PsaSyncWork } from './handlers.js'
import { PsaSyncJobs, psaSyncKinds } from './jobs.js'
import { PsaSync } from './service.js'

export function twoWaySync(d: {
  store: Store
  psa: PsaRegistry
  clock: Clock
  log: FastifyBaseLogger
  queue: JobProducer
  config: Config
  limiters: LimiterFactory
  outbox: WebhookOutbox
  deliveries: DeliveryJobs
}): { psaSync: PsaSync; kinds: JobKindEntry[] } {
  const { store, psa, clock, log, config } = d
  const jobs = new PsaSyncJobs(d.queue, clock)
  const common = {
    store,
    psa,
    clock,
    log,
    jobs,
    config: { ...config.psaSync, psaTimeoutMs: config.psaTimeoutMs },
  }
  const psaSync = new PsaSync({
    ...common,
    pushLimiter: d.limiters({
      keyPrefix: 'psa-push',
      points: config.psaSync.pushRatePerMinute,
      duration: 60,
    }),
    // Each believed only after a read of the PSA: three an hour keep a forged caller off its API budget.
    deactivationLimiter: d.limiters({ keyPrefix: 'psa-deactivated', points: 3, duration: 3600 }),
  })
  const work = new PsaSyncWork({
    ...common,
    applier: new PsaSyncApplier({ store, clock, log, outbox: d.outbox, deliveries: d.deliveries }),
    publicUrl: () => psaSync.publicUrl(),
  })
  return { psaSync, kinds: psaSyncKinds(work) }
}
