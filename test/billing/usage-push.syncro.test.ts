// Usage counts pushed to Syncro invoice-schedule line items, through the service, against the simulator.

import { simUsage } from '../support/psa/sim-usage.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'
import { startSyncroSim } from '../support/sims/syncro/server.js'

usageThroughService('Syncro', async () => {
  const sim = await startSyncroSim({ perMinute: 100_000 })
  return simUsage(sim, {
    psa: { kind: 'syncro', baseUrl: sim.url, apiToken: 'syncro-api-token' },
    companyId: '1001',
    quantity(lineId) {
      const [scheduleId, itemId] = lineId.split(':').map(Number)
      const schedule = sim.state.schedules.find((s) => s.id === scheduleId)
      return schedule?.line_items.find((l) => l.id === itemId)?.quantity ?? null
    },
  })
})
