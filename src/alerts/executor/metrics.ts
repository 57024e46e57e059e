// The alert path at GET /metrics: PSA effects whose outcome is not recorded yet. Normally 0 between
// alerts; one that stays is a ticket made, noted or closed in a PSA whose outcome could not be recorded,
// waiting for the same call to be sent again (docs/operations.md).
import { Gauge, type Registry } from 'prom-client'
import type { Store } from '../../platform/db/store.js'

export function registerAlertMetrics(registry: Registry, store: Pick<Store, 'psaEffects'>): void {
  new Gauge({
    name: 'alertbridge_psa_effects_unrecorded',
    help: 'PSA effects (tickets created, notes added, tickets closed) whose outcome is not recorded yet',
    registers: [registry],
    async collect() {
      this.set(await store.psaEffects.countUnrecorded())
    },
  })
}
