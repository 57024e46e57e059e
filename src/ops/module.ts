// The operations module, built once by the composition root (src/main/services.ts): health and /metrics,
// the sealed values by key with their re-sealing after a SECRET_KEY rotation, and retention
// (docs/operations.md). The runtime (src/main/runtime.ts) starts and stops the background parts.
import type { ModuleParts } from '../platform/composition/module.js'
import type { Platform } from '../platform/composition/platform.js'
import { registerMetrics } from './metrics.js'
import { Resealer, registerSealedMetrics } from './reseal.js'
import { Retention } from './retention.js'
import { registerHealth } from './routes/health.js'
import { SealedValues } from './sealed-values.js'

export interface OpsModule extends ModuleParts {
  /** Re-seals what SECRET_KEY_PREVIOUS sealed, in the worker's background. */
  resealer: Resealer
  /** Prunes rows past their retention age (docs/operations.md); the runtime schedules it. */
  retention: Retention
}

export function opsModule(p: Platform): OpsModule {
  const { db, box, metrics, log, store, clock, config, redis } = p
  const sealed = new SealedValues(db.kysely)
  registerSealedMetrics(metrics, sealed, box)
  return {
    resealer: new Resealer({ sealed, settings: store.settings, ring: box, log, registry: metrics }),
    retention: new Retention({ store, queue: p.jobs, clock, log, metrics, ...config.retention }),
    // A worker process serves these two only (src/main/app.ts).
    routes: [(app) => registerHealth(app, { db, redis }), (app) => registerMetrics(app, { metrics })],
    jobs: [],
  }
}
