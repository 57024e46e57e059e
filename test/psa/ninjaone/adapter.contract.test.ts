// The adapter contract on NinjaOne, against the NinjaOne simulator on loopback (a user's refresh token
// that rotates on every use, access tokens of 3 s renewed mid-suite, organizations in pages of 200,
// tickets found again only through a board's run, comments as multipart, stale versions refused).
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { ninjaOnePsa } from '../../../src/psa/ninjaone/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { adapterContract } from '../../support/psa/contract.js'
import { MemoryTokenStore } from '../../support/psa/memory-token-store.js'
import { loseNextAnswer } from '../../support/sims/harness.js'
import { closedStatusIds } from '../../support/sims/ninjaone/seed.js'
import { ninjaCalls, startNinjaOneSim } from '../../support/sims/ninjaone/server.js'

adapterContract('NinjaOne', async () => {
  const seededTickets = 300
  const sim = await startNinjaOneSim({ tickets: seededTickets, tokenLifetimeSeconds: 3 })
  const registry = new PsaRegistry([
    ninjaOnePsa(
      { http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) },
      { tokens: new MemoryTokenStore() },
    ),
  ])
  const settings = {
    baseUrl: sim.url,
    clientId: sim.state.credentials.clientId,
    clientSecret: sim.state.credentials.clientSecret,
    refreshToken: sim.state.credentials.refreshToken,
  }
  const connect = (partner: string, s: Record<string, unknown>) => {
    const c = registry.connect(partner, { kind: 'ninjaone', settings: s })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no NinjaOne ticket ${id}`)
    return t
  }
  const closed = closedStatusIds(sim.state.statuses)
  return {
    client: connect('p-ninja', settings),
    // The same partner's grant with a client secret NinjaOne refuses.
    badCredentials: connect('p-ninja', { ...settings, clientSecret: 'wrong' }),
    fields: { companyId: '1', board: 'Security Alert', priority: 'High', status: null },
    notClosingStatus: 'Closed - Awaiting Customer',
    closingStatus: 'Done',
    billing: null,
    paged: { what: ['companies'], moreThan: 200 },
    tickets: async () => sim.state.tickets.length,
    seededTickets,
    async state(id) {
      const t = find(id)
      return {
        closed: closed.includes(t.statusId),
        notes: t.log.filter((e) => e.type === 'COMMENT').map((e) => e.body),
        title: t.subject,
        description: t.log.find((e) => e.type === 'DESCRIPTION')?.body,
      }
    },
    async closeInPsa(id) {
      await sim.technician.close(id)
    },
    failNext: async (status, count, retryAfterSeconds) =>
      sim.faults.set({ fail: { status, count, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } }),
    loseNext: async (op) => loseNextAnswer(sim, ninjaCalls, op),
    slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
    calls: () => sim.calls.length,
    async close() {
      const refreshed = sim.callsTo(/\/ws\/oauth\/token$/, 'POST').length
      const spent = Object.values(sim.state.refreshTokens).filter((s) => s === 'spent').length
      await sim.close()
      if (refreshed < 3 || spent < 2)
        throw new Error(
          `NinjaOne: ${refreshed} token calls, ${spent} refresh tokens spent; no rotation mid-run`,
        )
    },
  }
})
