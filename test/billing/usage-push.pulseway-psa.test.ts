// Usage counts pushed to Pulseway PSA's recurring contract services (the Kaseya v2 engine's, an
// inference for Pulseway: docs/psa/pulseway-psa.md, "Usage push"), through the service, against the
// simulator.

import { simUsage } from '../support/psa/sim-usage.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'
import { startPulsewayPsaSim } from '../support/sims/pulseway-psa/server.js'

usageThroughService('Pulseway PSA', async () => {
  const sim = await startPulsewayPsaSim()
  return simUsage(sim, {
    psa: {
      kind: 'pulseway-psa',
      baseUrl: sim.url,
      tenant: 'Acme MSP',
      username: 'api@acme-msp.example',
      password: 'pulseway-password',
    },
    companyId: '1001',
    quantity(lineId) {
      const [contractId, serviceId] = lineId.split(':')
      const contract = sim.state.contracts.find((c) => String(c.id) === contractId)
      return contract?.services.find((s) => String(s.serviceId) === serviceId)?.units ?? null
    },
  })
})
