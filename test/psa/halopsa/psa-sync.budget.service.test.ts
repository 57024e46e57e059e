// HaloPSA's poll within its budget, 120 requests a minute (the adapter's default, which a Halo instance
// sets for itself), kept by the simulator and by the adapter (test/support/psa/poll-budget.ts).
import { pollWithinBudget } from '../../support/psa/poll-budget.js'
import { haloService } from '../../support/psa/service-fixtures.js'
import { startHaloPsaSim } from '../../support/sims/halopsa/server.js'

const haloCredentials = { clientId: 'svc-client', clientSecret: 'svc-secret', tenant: 'acme' }

pollWithinBudget({
  service: haloService,
  start: () => startHaloPsaSim({ ...haloCredentials, rateLimit: { requests: 120, perSeconds: 60 } }),
  budget: { requests: 120, perSeconds: 60 },
  reads: { pattern: /\/api\/actions$/i, method: 'GET' },
})
