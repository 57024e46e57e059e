// Usage counts pushed to SuperOps client-contract quantities (BASELINE), through the service, against
// the simulator.

import { simUsage } from '../support/psa/sim-usage.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'
import { API_TOKEN, SUBDOMAIN, startSuperOpsSim } from '../support/sims/superops/server.js'

usageThroughService('SuperOps', async () => {
  const sim = await startSuperOpsSim()
  return simUsage(sim, {
    psa: { kind: 'superops', baseUrl: sim.endpoint, subdomain: SUBDOMAIN, apiToken: API_TOKEN },
    companyId: '1001',
    quantity: (lineId) => sim.state.contracts.find((c) => c.contractId === lineId)?.quantity ?? null,
  })
})
