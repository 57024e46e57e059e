// Autotask through the service's HTTP API, against the Autotask simulator (baseUrl names the zone).
import type { AutotaskState } from '../sims/autotask/server.js'
import { startAutotaskSim } from '../sims/autotask/server.js'
import { throughService } from './through-service.js'

const credentials = {
  username: 'api-user@acme.example',
  secret: 'api-secret',
  integrationCode: 'TRACKING-ID-1',
}

throughService<AutotaskState>({
  name: 'Autotask',
  start: () => startAutotaskSim(),
  settings: (url) => ({ kind: 'autotask', baseUrl: `${url}/ATServicesRest/`, ...credentials }),
  badSettings: (url) => ({
    kind: 'autotask',
    baseUrl: `${url}/ATServicesRest/`,
    ...credentials,
    secret: 'wrong-secret',
  }),
  companyId: '0',
  board: 'Monitoring Alerts',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Autotask ticket ${id}`)
    return {
      closed: t.status === 5,
      notes: (sim.state.notes[id] ?? []).length,
      summary: t.title,
      ref: t.externalID,
    }
  },
  failureText: /Simulated failure/,
})
