// Syncro's poll within Syncro's real budget, 180 requests a minute from one address, kept by the
// simulator and by the adapter (test/support/psa/poll-budget.ts).
import { syncroPerMinute } from '../../../src/psa/syncro/limits.js'
import { pollWithinBudget } from '../../support/psa/poll-budget.js'
import { syncroService } from '../../support/psa/service-fixtures.js'
import { startSyncroSim } from '../../support/sims/syncro/server.js'

pollWithinBudget({
  service: syncroService,
  start: () => startSyncroSim({ perMinute: syncroPerMinute }),
  budget: { requests: syncroPerMinute, perSeconds: 60 },
  reads: { pattern: /\/api\/v1\/tickets\/\d+$/, method: 'GET' },
  env: { SYNCRO_REQUESTS_PER_MINUTE: String(syncroPerMinute) },
})
