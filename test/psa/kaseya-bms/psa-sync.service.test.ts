// Kaseya BMS two-way sync through the service: BMS does not publish how it signs its webhooks, so
// alertbridge takes no BMS push and the reconciliation poll hears every change a technician makes, a
// reopen included (the open tickets changed since the last round are listed); a webhook an earlier
// version registered is refused, then deleted by the register job, one try
// (test/support/psa/sync-through-service.ts).
import { kaseyaBmsService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'
import { seedOldWebhook } from '../../support/sims/kaseya-bms/routes-webhooks.js'

syncThroughService({
  service: kaseyaBmsService,
  push: 'poll',
  pollReason: /^Kaseya BMS signs its webhooks with a Signature header whose scheme it does not publish/,
  retiredPush: {
    // As the earlier version registered it (POST /v2/admin/webhooks): ticket Updated and Deleted.
    register: (sim, url, secret) => seedOldWebhook(sim.state, { url, secret }),
    path: (id) => `/v2/admin/webhooks/${id}`,
    exists: (sim, id) => sim.state.webhooks.some((w) => w.id === id),
  },
  reads: { pattern: /\/v2\/servicedesk\/tickets\/\d+$/, method: 'GET' },
  merges: true,
  signsBody: false,
})
