// Kaseya BMS through the service's HTTP API, against the BMS simulator.
import type { KaseyaBmsState } from '../sims/kaseya-bms/server.js'
import { bmsCalls, startKaseyaBmsSim } from '../sims/kaseya-bms/server.js'
import { throughService } from './through-service.js'

const login = { tenant: 'Acme MSP', username: 'api@acme-msp.example', password: 'bms-password' }

throughService<KaseyaBmsState>({
  name: 'Kaseya BMS',
  start: () => startKaseyaBmsSim(),
  settings: (url) => ({ kind: 'kaseya-bms', baseUrl: url, ...login }),
  badSettings: (url) => ({ kind: 'kaseya-bms', baseUrl: url, ...login, password: 'wrong-secret' }),
  companyId: '1001',
  board: 'Monitoring Alerts',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Kaseya BMS ticket ${id}`)
    // Our reference is the last line of the Details: "(ab-ref:{correlationId})".
    const ref = /\n\(ab-ref:([^)]+)\)$/.exec(t.details)?.[1] ?? null
    return { closed: t.completedDate !== null, notes: t.notes.map((n) => n.details), summary: t.title, ref }
  },
  calls: bmsCalls,
  failureText: /Simulated failure/,
})
