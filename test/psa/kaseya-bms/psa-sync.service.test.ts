// Kaseya BMS two-way sync through the service: webhooks registered by alertbridge through
// /v2/admin/webhooks, authenticated by their shared secret (test/support/psa/sync-through-service.ts).
import { kaseyaBmsService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: kaseyaBmsService,
  push: 'registered',
  reads: { pattern: /\/v2\/servicedesk\/tickets\/\d+$/, method: 'GET' },
  merges: true,
  signsBody: false,
})
