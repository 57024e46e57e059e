// Usage counts pushed to HaloPSA recurring-invoice lines, through the service, against the simulator.

import { simUsage } from '../support/psa/sim-usage.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'
import { startHaloPsaSim } from '../support/sims/halopsa/server.js'

usageThroughService('HaloPSA', async () => {
  const credentials = { clientId: 'svc-client', clientSecret: 'svc-secret', tenant: 'acme' }
  const sim = await startHaloPsaSim(credentials)
  return simUsage(sim, {
    psa: { kind: 'halopsa', baseUrl: sim.url, ...credentials },
    companyId: String(sim.state.clients[0]!.id),
    quantity(lineId) {
      const [header, line] = lineId.split(':')
      const invoice = sim.state.recurringInvoices.find((x) => String(x.id) === header)
      return invoice?.lines.find((l) => String(l.id) === line)?.qty_order ?? null
    },
  })
})
