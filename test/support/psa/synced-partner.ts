// A partner connected to a PSA simulator through the service, its alerts mapped to the fixture's company
// and board and each one a ticket of its own (de-duplication off): what the poll's service-level tests
// (poll-budget.ts, a kind's psa-sync.*.service.test.ts) start from.
import assert from 'node:assert/strict'
import { type Hooked, hooked } from '../hooked.js'
import type { TestService } from '../service.js'
import type { StartedSim } from '../sims/harness.js'
import type { ServiceFixture } from './through-service.js'

export async function syncedPartner<T extends StartedSim<unknown>>(
  svc: TestService,
  f: ServiceFixture<T>,
  simUrl: string,
): Promise<Hooked> {
  const s = await hooked(svc, {
    psa: f.settings(simUrl),
    psaCompanyId: f.companyId,
    rule: { productGroup: 'Endpoint Security', ticket: { board: f.board } },
  })
  const dedupOff = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
    deduplication: { enabled: false },
  })
  assert.equal(dedupOff.status, 200, dedupOff.text)
  return s
}
