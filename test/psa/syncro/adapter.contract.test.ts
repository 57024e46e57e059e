// The adapter contract on Syncro, against the Syncro simulator on loopback: 60 customers (three pages of
// 25), 300 tickets of the last ten days (a third of them the fixture's customer's, many with the
// subject the suite's tickets have), the ticket list's documented filters only.
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncroPsa } from '../../../src/psa/syncro/adapter.js'
import { adapterContract } from '../../support/psa/contract.js'
import { loseNextAnswer } from '../../support/sims/harness.js'
import { seededTickets, startSyncroSim, syncroCalls } from '../../support/sims/syncro/server.js'

adapterContract('Syncro', async () => {
  const sim = await startSyncroSim({ customers: 60 })
  const registry = new PsaRegistry([
    syncroPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
  ])
  const settings = { baseUrl: sim.url, apiToken: 'syncro-api-token' }
  const connect = (s: Record<string, unknown>) => {
    const c = registry.connect('p-syncro', { kind: 'syncro', settings: s })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Syncro ticket ${id}`)
    return t
  }
  const line = (lineId: string) => {
    const [scheduleId, itemId] = lineId.split(':').map(Number)
    const item = sim.state.schedules.find((s) => s.id === scheduleId)?.line_items.find((l) => l.id === itemId)
    if (!item) throw new Error(`no Syncro line item ${lineId}`)
    return item
  }
  return {
    client: connect(settings),
    badCredentials: connect({ ...settings, apiToken: 'wrong-token' }),
    fields: { companyId: '1001', board: 'Security Alert', priority: '1 High', status: null },
    notClosingStatus: 'Resolved - Pending Confirmation',
    closingStatus: 'Resolved',
    billing: { companyId: '1001', quantity: async (lineId) => line(lineId).quantity },
    paged: { what: ['companies'], moreThan: 25 },
    tickets: async () => sim.state.tickets.length,
    async state(id) {
      const t = find(id)
      // The description is the initial comment; the notes are the comments after it.
      const [initial, ...notes] = t.comments
      return {
        closed: t.resolved_at !== null,
        notes: notes.map((c) => c.body),
        title: t.subject,
        description: initial?.body ?? '',
      }
    },
    async closeInPsa(id) {
      Object.assign(find(id), { status: 'Resolved', resolved_at: new Date().toISOString() })
    },
    failNext: async (status, count, retryAfterSeconds) =>
      sim.faults.set({ fail: { status, count, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } }),
    loseNext: async (op) => loseNextAnswer(sim, syncroCalls, op),
    seededTickets,
    slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
    calls: () => sim.calls.length,
    close: () => sim.close(),
  }
})
