// The adapter contract on HaloPSA, against the HaloPSA simulator on loopback (authorisation server found
// from /api/authinfo, client-credentials tokens, pages of 100 clients, several pages of tickets listed
// without their reference, query parameters Halo does not document ignored).
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { haloPsa } from '../../../src/psa/halopsa/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { adapterContract } from '../../support/psa/contract.js'
import { haloCalls, startHaloPsaSim } from '../../support/sims/halopsa/server.js'
import { loseNextAnswer } from '../../support/sims/harness.js'

adapterContract('HaloPSA', async () => {
  // Tokens of 3 s: they expire (and are renewed) in the middle of the suite, as BMS's do in its own.
  const seededTickets = 480
  const sim = await startHaloPsaSim({ clients: 250, tickets: seededTickets, tokenLifetimeSeconds: 3 })
  const registry = new PsaRegistry([
    haloPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
  ])
  const settings = {
    baseUrl: sim.url,
    clientId: sim.state.credentials.clientId,
    clientSecret: sim.state.credentials.clientSecret,
  }
  const connect = (s: Record<string, unknown>) => {
    const c = registry.connect('p-halo', { kind: 'halopsa', settings: s })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no HaloPSA ticket ${id}`)
    return t
  }
  const acme = sim.state.clients[0]!
  return {
    client: connect(settings),
    badCredentials: connect({ ...settings, clientSecret: 'wrong' }),
    fields: { companyId: String(acme.id), board: 'Security Operations', priority: 'High', status: null },
    notClosingStatus: 'Resolved',
    closingStatus: 'Closed',
    billing: {
      companyId: String(acme.id),
      async quantity(lineId) {
        const [header, line] = lineId.split(':')
        const h = sim.state.recurringInvoices.find((x) => String(x.id) === header)
        return h?.lines.find((l) => String(l.id) === line)?.qty_order ?? null
      },
    },
    // Halo pages clients by 100; its configuration lists come whole.
    paged: { what: ['companies'], moreThan: 100 },
    tickets: async () => sim.state.tickets.length,
    seededTickets,
    async state(id) {
      const t = find(id)
      return {
        closed: sim.state.closedStatusIds.includes(t.status_id),
        notes: sim.state.actions.filter((a) => a.ticket_id === t.id).map((a) => a.note),
        title: t.summary,
        description: t.details,
      }
    },
    async closeInPsa(id) {
      Object.assign(find(id), { status_id: 9, hasbeenclosed: true, dateclosed: new Date().toISOString() })
    },
    failNext: async (status, count, retryAfterSeconds) =>
      sim.faults.set({ fail: { status, count, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } }),
    loseNext: async (op) => loseNextAnswer(sim, haloCalls, op),
    slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
    calls: () => sim.calls.length,
    async close() {
      // The suite outlasts a token's life: the adapter fetched new ones mid-run.
      const fetched = sim.callsTo(/\/token$/, 'POST').length
      await sim.close()
      if (fetched < 2) throw new Error(`HaloPSA: ${fetched} token fetches; the tokens never expired mid-run`)
    },
  }
})
