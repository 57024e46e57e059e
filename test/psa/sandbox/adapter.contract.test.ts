// The adapter contract on the built-in sandbox PSA (its faults come from its own fault switch).
import { after } from 'node:test'
import { adapterContract } from '../../support/psa/contract.js'
import { startService, type TestService } from '../../support/service.js'

let svc: TestService | undefined
after(() => svc?.close())

adapterContract('sandbox', async () => {
  svc = await startService({ env: { ROLE: 'api' } })
  const { clock } = svc.services
  const { registry: psa, sandbox } = svc.services.psa
  const partnerId = 'contract-partner'
  const connected = psa.connect(partnerId, { kind: 'sandbox', settings: {} })
  if (!connected.ok) throw new Error(connected.failure.message)
  const now = () => clock().toISOString()
  return {
    client: connected.client,
    badCredentials: null,
    fields: { companyId: '100', board: 'Security', priority: 'P2 - High', status: null },
    notClosingStatus: null,
    closingStatus: null,
    billing: {
      companyId: '100',
      async quantity(lineId) {
        return (await sandbox.quantities(partnerId, [lineId])).get(lineId) ?? 0
      },
    },
    paged: { what: [], moreThan: 0 },
    tickets: async () => (await sandbox.list(partnerId, 10_000)).length,
    async state(id) {
      const [t] = await sandbox.list(partnerId, 1, id)
      if (!t) throw new Error(`no sandbox ticket ${id}`)
      return { closed: t.closedAt !== null, notes: t.notes.map((n) => n.text) }
    },
    closeInPsa: async (id) => void (await sandbox.close(partnerId, id, 'Closed', now())),
    async failNext(status, count) {
      const mode = status === 429 ? 'rate-limited' : 'error'
      await sandbox.setFault(partnerId, { mode, operations: [], remaining: count }, now())
    },
    async slow(ms) {
      // The sandbox answers at once; a PSA too slow for the budget is its timeout fault.
      await sandbox.setFault(
        partnerId,
        ms > 0 ? { mode: 'timeout', operations: [], remaining: null } : null,
        now(),
      )
    },
    calls: () => null,
    // In this process: its rows commit with the outcome, so no answer can be lost.
    loseNext: null,
    seededTickets: 0,
    close: async () => {},
  }
})
