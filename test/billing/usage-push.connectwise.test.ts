// Usage counts pushed to ConnectWise agreement additions, through the service, against the simulator.

import { simUsage } from '../support/psa/sim-usage.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'
import { startConnectWiseSim } from '../support/sims/connectwise/server.js'

usageThroughService('ConnectWise', async () => {
  const sim = await startConnectWiseSim()
  return simUsage(sim, {
    psa: {
      kind: 'connectwise',
      baseUrl: sim.url,
      companyId: 'acme',
      publicKey: 'pub-key',
      privateKey: 'priv-key',
      clientId: '00000000-0000-4000-8000-000000000001',
    },
    companyId: '1',
    quantity(lineId) {
      const [agreementId, additionId] = lineId.split(':').map(Number)
      const agreement = sim.state.agreements.find((g) => g.id === agreementId)
      return agreement?.additions.find((a) => a.id === additionId)?.quantity ?? null
    },
  })
})
