// The adapter contract on ConnectWise PSA, against the ConnectWise simulator on loopback: pages of 2 (so
// every list spans pages) and 1,200 tickets there before the suite.
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { connectWisePsa } from '../../../src/psa/connectwise/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { adapterContract } from '../../support/psa/contract.js'
import { connectWiseCalls, startConnectWiseSim } from '../../support/sims/connectwise/server.js'
import { loseNextAnswer } from '../../support/sims/harness.js'

adapterContract('ConnectWise', async () => {
  const seededTickets = 1200
  const sim = await startConnectWiseSim({ pageSizeMax: 2, companies: 40, tickets: seededTickets })
  const registry = new PsaRegistry([
    connectWisePsa({
      http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }),
    }),
  ])
  const settings = {
    baseUrl: sim.url,
    companyId: 'acme',
    publicKey: 'pub-key',
    privateKey: 'priv-key',
    clientId: '00000000-0000-4000-8000-000000000001',
  }
  const connect = (s: Record<string, unknown>) => {
    const c = registry.connect('p-cw', { kind: 'connectwise', settings: s })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no ConnectWise ticket ${id}`)
    return t
  }
  return {
    client: connect(settings),
    badCredentials: connect({ ...settings, privateKey: 'wrong' }),
    fields: { companyId: '1', board: 'Service Desk', priority: 'Priority 3 - Medium', status: null },
    notClosingStatus: 'Resolved',
    closingStatus: 'Closed (resolved)',
    // Acme's agreements (and the three additions of the first) span pages of 2 as well.
    billing: {
      companyId: '1',
      async quantity(lineId) {
        const [agreementId, additionId] = lineId.split(':').map(Number)
        const agreement = sim.state.agreements.find((g) => g.id === agreementId)
        return agreement?.additions.find((a) => a.id === additionId)?.quantity ?? null
      },
    },
    // Pages of 2 (the simulator's limit here): every look-up list spans several.
    paged: { what: ['companies', 'boards', 'priorities', 'statuses', 'types'], moreThan: 2 },
    tickets: async () => sim.state.tickets.length,
    async state(id) {
      const t = find(id)
      return {
        closed: t.closedFlag,
        notes: t.notes.map((n) => n.text),
        title: t.summary,
        description: t.initialDescription ?? '',
      }
    },
    async closeInPsa(id) {
      const t = find(id)
      const board = sim.state.boards.find((b) => b.id === t.boardId)
      const closed = board?.statuses.find((s) => s.closedStatus)
      if (!closed) throw new Error('no closed status')
      Object.assign(t, {
        statusId: closed.id,
        closedFlag: true,
        closedDate: new Date().toISOString(),
        closedBy: 'tech',
      })
    },
    failNext: async (status, count, retryAfterSeconds) =>
      sim.faults.set({ fail: { status, count, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } }),
    loseNext: async (op) => loseNextAnswer(sim, connectWiseCalls, op),
    seededTickets,
    slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
    calls: () => sim.calls.length,
    close: () => sim.close(),
  }
})
