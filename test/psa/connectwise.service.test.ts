// ConnectWise PSA through the service's HTTP API, against the ConnectWise simulator (which holds more
// tickets than one page of its ticket list before the first alert).
import type { ConnectWiseState } from '../sims/connectwise/server.js'
import { connectWiseCalls, startConnectWiseSim } from '../sims/connectwise/server.js'
import { throughService } from './through-service.js'

const keys = {
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'priv-key',
  clientId: '00000000-0000-4000-8000-000000000001',
}

throughService<ConnectWiseState>({
  name: 'ConnectWise',
  start: () => startConnectWiseSim(),
  settings: (url) => ({ kind: 'connectwise', baseUrl: url, ...keys }),
  badSettings: (url) => ({ kind: 'connectwise', baseUrl: url, ...keys, privateKey: 'wrong-secret' }),
  companyId: '1',
  board: 'Service Desk',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no ConnectWise ticket ${id}`)
    return {
      closed: t.closedFlag,
      notes: t.notes.map((n) => n.text),
      summary: t.summary,
      ref: t.externalXRef,
    }
  },
  calls: connectWiseCalls,
  failureText: /Simulated failure/,
})
