// The adapter contract on SuperOps, against the SuperOps simulator on loopback: 250 clients (three pages
// of 100), 300 tickets of the last ten days (a third of them the fixture's client's, many with the
// subject the suite's tickets have), statuses that carry no closed flag — the tenant's workflow closes
// tickets with Resolved and Closed, while the custom "Closure Requested" only sounds closed.
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { superOpsPsa } from '../../../src/psa/superops/adapter.js'
import { adapterContract } from '../../support/psa/contract.js'
import { loseNextAnswer } from '../../support/sims/harness.js'
import {
  API_TOKEN,
  SUBDOMAIN,
  seededTickets,
  startSuperOpsSim,
  superOpsCalls,
} from '../../support/sims/superops/server.js'

adapterContract('SuperOps', async () => {
  const sim = await startSuperOpsSim()
  const registry = new PsaRegistry([
    superOpsPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
  ])
  const settings = { baseUrl: sim.endpoint, subdomain: SUBDOMAIN, apiToken: API_TOKEN }
  const connect = (s: Record<string, unknown>) => {
    const c = registry.connect('p-superops', { kind: 'superops', settings: s })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => x.ticketId === id)
    if (!t) throw new Error(`no SuperOps ticket ${id}`)
    return t
  }
  return {
    client: connect(settings),
    badCredentials: connect({ ...settings, apiToken: 'api-wrong-token' }),
    fields: { companyId: '1001', board: 'Security Operations', priority: 'High', status: null },
    notClosingStatus: 'Closure Requested',
    closingStatus: 'Closed',
    billing: {
      companyId: '1001',
      quantity: async (lineId) => sim.state.contracts.find((c) => c.contractId === lineId)?.quantity ?? null,
    },
    paged: { what: ['companies'], moreThan: 100 },
    tickets: async () => sim.state.tickets.length,
    async state(id) {
      const t = find(id)
      return {
        closed: t.resolutionTime !== null,
        notes: sim.state.notes.filter((n) => n.ticketId === id).map((n) => n.content),
        title: t.subject,
        description: t.description,
      }
    },
    async closeInPsa(id) {
      await sim.technician.close(id)
    },
    failNext: async (status, count, retryAfterSeconds) =>
      sim.faults.set({ fail: { status, count, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } }),
    loseNext: async (op) => loseNextAnswer(sim, superOpsCalls, op),
    seededTickets,
    slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
    calls: () => sim.calls.length,
    close: () => sim.close(),
  }
})
