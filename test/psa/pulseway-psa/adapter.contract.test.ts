// The adapter contract on Pulseway PSA, against the Pulseway simulator on loopback: tokens that expire
// every few seconds (so the run renews them midway), accounts over three pages, several hundred tickets
// (four pages of the ticket list), recurring services for usage; no webhooks.
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { pulsewayPsa } from '../../../src/psa/pulseway-psa/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { adapterContract } from '../../support/psa/contract.js'
import { loseNextAnswer } from '../../support/sims/harness.js'
import { pulsewayCalls, seededTickets, startPulsewayPsaSim } from '../../support/sims/pulseway-psa/server.js'

adapterContract('Pulseway PSA', async () => {
  const sim = await startPulsewayPsaSim({ accounts: 250, tokenLifetimeSeconds: 3 })
  const registry = new PsaRegistry([
    pulsewayPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
  ])
  const settings = {
    baseUrl: sim.url,
    tenant: 'Acme MSP',
    username: 'api@acme-msp.example',
    password: 'pulseway-password',
    source: 'Monitoring System',
  }
  const connect = (s: Record<string, unknown>) => {
    const c = registry.connect('p-pulseway', { kind: 'pulseway-psa', settings: s })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Pulseway PSA ticket ${id}`)
    return t
  }
  return {
    client: connect(settings),
    badCredentials: connect({ ...settings, password: 'wrong' }),
    fields: { companyId: '1002', board: 'Monitoring Alerts', priority: 'High', status: null },
    notClosingStatus: 'Resolved',
    closingStatus: 'Closed',
    billing: {
      companyId: '1001',
      async quantity(lineId) {
        const [contractId, serviceId] = lineId.split(':')
        const contract = sim.state.contracts.find((c) => String(c.id) === contractId)
        return contract?.services.find((s) => String(s.serviceId) === serviceId)?.units ?? null
      },
    },
    // Pages of 100 accounts at most: 250 accounts take three.
    paged: { what: ['companies'], moreThan: 100 },
    tickets: async () => sim.state.tickets.length,
    async state(id) {
      const t = find(id)
      return {
        closed: t.completedDate !== null,
        notes: t.notes.map((n) => n.details),
        title: t.title,
        description: t.details,
      }
    },
    async closeInPsa(id) {
      Object.assign(find(id), { statusId: 7, completedDate: new Date().toISOString() })
    },
    failNext: async (status, count, retryAfterSeconds) =>
      sim.faults.set({ fail: { status, count, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } }),
    loseNext: async (op) => loseNextAnswer(sim, pulsewayCalls, op),
    seededTickets,
    slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
    calls: () => sim.calls.length,
    async close() {
      // The suite outlasts a token's life: the adapter fetched new ones mid-run.
      const fetched = sim.callsTo(/\/security\/(authenticate|refreshtoken)$/i, 'POST').length
      await sim.close()
      if (fetched < 2)
        throw new Error(`Pulseway PSA: ${fetched} token fetches; the tokens never expired mid-run`)
    },
  }
})
