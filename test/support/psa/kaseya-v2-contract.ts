// The adapter contract's fixture for a kind on the Kaseya v2 engine (Kaseya BMS, Pulseway PSA), against
// its simulator on loopback: tokens that expire every few seconds (so the run renews them midway),
// accounts over three pages, several hundred tickets (four pages of the ticket list, many on the
// fixture's account), recurring services for usage. Each kind's adapter.contract.test.ts names its
// kind, its adapter and its simulator.
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaKindOptions } from '../../../src/psa/core/http.js'
import type { PsaKindEntry } from '../../../src/psa/registry.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import type { PsaKind } from '../../../src/psa/stored.js'
import { loseNextAnswer } from '../sims/harness.js'
import { seededTickets, type V2Sim, type V2SimOptions, v2Calls } from '../sims/kaseya-bms/start.js'
import type { ContractFixture } from './contract.js'

export interface V2ContractKind {
  /** The PSA's name, in the fixture's errors. */
  name: string
  kind: PsaKind
  adapter(options: PsaKindOptions): PsaKindEntry
  start(options: V2SimOptions): Promise<V2Sim>
  /** The simulator's default password. */
  password: string
}

export function v2ContractFixture(k: V2ContractKind): () => Promise<ContractFixture> {
  return async () => {
    const sim = await k.start({ accounts: 250, tokenLifetimeSeconds: 3 })
    const registry = new PsaRegistry([
      k.adapter({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
    ])
    const settings = {
      baseUrl: sim.url,
      tenant: 'Acme MSP',
      username: 'api@acme-msp.example',
      password: k.password,
      source: 'Monitoring System',
    }
    const connect = (s: Record<string, unknown>) => {
      const c = registry.connect(`p-${k.kind}`, { kind: k.kind, settings: s })
      if (!c.ok) throw new Error(c.failure.message)
      return c.client
    }
    const find = (id: string) => {
      const t = sim.state.tickets.find((x) => String(x.id) === id)
      if (!t) throw new Error(`no ${k.name} ticket ${id}`)
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
      loseNext: async (op) => loseNextAnswer(sim, v2Calls, op),
      seededTickets,
      slow: async (ms) => sim.faults.set(ms > 0 ? { latencyMs: ms } : {}),
      calls: () => sim.calls.length,
      async close() {
        // The suite outlasts a token's life: the adapter fetched new ones mid-run.
        const fetched = sim.callsTo(/\/security\/(authenticate|refreshtoken)$/i, 'POST').length
        await sim.close()
        if (fetched < 2)
          throw new Error(`${k.name}: ${fetched} token fetches; the tokens never expired mid-run`)
      },
    }
  }
}
