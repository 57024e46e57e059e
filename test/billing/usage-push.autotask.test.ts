// Usage counts pushed to Autotask contract services (as unit adjustments), through the service.

import { simUsage } from '../support/psa/sim-usage.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'
import { backends } from '../support/service.js'
import { unitsOn } from '../support/sims/autotask/billing.js'
import { startAutotaskSim } from '../support/sims/autotask/server.js'

usageThroughService(
  'Autotask',
  async () => {
    const sim = await startAutotaskSim()
    return simUsage(sim, {
      psa: {
        kind: 'autotask',
        baseUrl: `${sim.url}/ATServicesRest/`,
        username: 'api-user@acme.example',
        secret: 'api-secret',
        integrationCode: 'TRACKING-ID-1',
      },
      companyId: String(sim.state.companies[1]!.id),
      quantity: (lineId) => unitsOn(sim.state, Number(lineId.split(':')[1])),
    })
  },
  // The one PSA whose usage push is proven on every configuration (usage-through-service.ts).
  backends('matrix'),
)
