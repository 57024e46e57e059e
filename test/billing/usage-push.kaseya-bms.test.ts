// Usage counts pushed to Kaseya BMS recurring services, through the service, against the simulator.

import { simUsage } from '../support/psa/sim-usage.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'
import { startKaseyaBmsSim } from '../support/sims/kaseya-bms/server.js'

usageThroughService('Kaseya BMS', async () => {
  const sim = await startKaseyaBmsSim()
  return simUsage(sim, {
    psa: {
      kind: 'kaseya-bms',
      baseUrl: sim.url,
      tenant: 'Acme MSP',
      username: 'api@acme-msp.example',
      password: 'bms-password',
    },
    companyId: '1001',
    quantity(lineId) {
      const [contractId, serviceId] = lineId.split(':')
      const contract = sim.state.contracts.find((c) => String(c.id) === contractId)
      return contract?.services.find((s) => String(s.serviceId) === serviceId)?.units ?? null
    },
  })
})
