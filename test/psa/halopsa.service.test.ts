// HaloPSA through the service's HTTP API, against the HaloPSA simulator (a hosted instance with a tenant).
import type { HaloState } from '../sims/halopsa/server.js'
import { haloCalls, startHaloPsaSim } from '../sims/halopsa/server.js'
import { throughService } from './through-service.js'

const credentials = { clientId: 'svc-client', clientSecret: 'svc-secret', tenant: 'acme' }

throughService<HaloState>({
  name: 'HaloPSA',
  start: () => startHaloPsaSim(credentials),
  settings: (url) => ({ kind: 'halopsa', baseUrl: url, ...credentials }),
  badSettings: (url) => ({ kind: 'halopsa', baseUrl: url, ...credentials, clientSecret: 'wrong-secret' }),
  companyId: '12',
  board: 'Security Operations',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no HaloPSA ticket ${id}`)
    return {
      closed: sim.state.closedStatusIds.includes(t.status_id),
      notes: sim.state.actions.filter((a) => a.ticket_id === t.id).map((a) => a.note),
      summary: t.summary,
      ref: t.third_party_id_string,
    }
  },
  calls: haloCalls,
  failureText: /Simulated failure/,
})
