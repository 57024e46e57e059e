// The adapter contract on Autotask, against the Autotask simulator on loopback (zone looked up, more
// tickets than one query page, the queue picklist's default, field lengths as its field information
// serves them).
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { autotaskPsa } from '../../../src/psa/autotask/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { adapterContract } from '../../support/psa/contract.js'
import { unitsOn } from '../../support/sims/autotask/billing.js'
import { autotaskCalls, startAutotaskSim } from '../../support/sims/autotask/server.js'
import { loseNextAnswer } from '../../support/sims/harness.js'

adapterContract('Autotask', async () => {
  const seededTickets = 600
  const sim = await startAutotaskSim({ tickets: seededTickets })
  const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
  // The zone is looked up on the simulator, as it would be on Autotask's webservices host.
  const registry = new PsaRegistry([autotaskPsa({ http, lookupRoot: `${sim.url}/ATServicesRest/` })])
  const settings = {
    username: 'api-user@acme.example',
    secret: 'api-secret',
    integrationCode: 'TRACKING-ID-1',
  }
  const connect = (s: Record<string, unknown>) => {
    const c = registry.connect('p-at', { kind: 'autotask', settings: s })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Autotask ticket ${id}`)
    return t
  }
  return {
    client: connect(settings),
    badCredentials: connect({ ...settings, secret: 'wrong' }),
    fields: {
      companyId: String(sim.state.companies[0]!.id),
      board: 'Monitoring Alerts',
      priority: 'High',
      status: null,
    },
    notClosingStatus: 'Resolved - Pending Confirmation',
    closingStatus: 'Complete',
    // The second company's active contract has two services (units per month, changed by deltas).
    billing: {
      companyId: String(sim.state.companies[1]!.id),
      quantity: async (lineId) => unitsOn(sim.state, Number(lineId.split(':')[1])),
    },
    // Autotask pages queries only (500 a page); its picklists come whole.
    paged: { what: ['companies'], moreThan: 500 },
    tickets: async () => sim.state.tickets.length,
    seededTickets,
    async state(id) {
      const t = find(id)
      return {
        closed: t.status === 5 || t.completedDate !== null,
        notes: (sim.state.notes[id] ?? []).map((n) => n.description),
        title: t.title,
        description: t.description ?? '',
      }
    },
    async closeInPsa(id) {
      Object.assign(find(id), { status: 5, completedDate: new Date().toISOString() })
    },
    failNext: async (status, count, retryAfterSeconds) =>
      sim.faults.set({ fail: { status, count, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } }),
    loseNext: async (op) => loseNextAnswer(sim, autotaskCalls, op),
    slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
    calls: () => sim.calls.length,
    close: () => sim.close(),
  }
})
