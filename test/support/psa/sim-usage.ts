// What the usage suite needs of a PSA simulator: its faults and its call log, the same for every one.
import type { Sim } from '../sims/harness.js'
import type { UsagePsa } from './usage-through-service.js'

export function simUsage<S>(
  sim: Sim<S>,
  o: Pick<UsagePsa, 'psa' | 'companyId'> & { quantity(lineId: string): number | null },
): UsagePsa {
  return {
    psa: o.psa,
    companyId: o.companyId,
    quantity: async (lineId) => o.quantity(lineId),
    fail: async (_s, status, count) => sim.faults.set({ fail: { status, count } }),
    heal: async () => sim.faults.clear(),
    calls: () => sim.calls.length,
    close: () => sim.close(),
  }
}
