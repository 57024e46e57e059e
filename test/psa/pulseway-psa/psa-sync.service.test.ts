// Pulseway PSA two-way sync through the service: Pulseway publishes no webhooks, so the reconciliation
// poll (alertbridge's open tickets read back one by one) hears every change a technician makes
// (test/support/psa/sync-through-service.ts).
import { pulsewayPsaService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: pulsewayPsaService,
  push: 'poll',
  reads: { pattern: /\/v2\/servicedesk\/tickets\/\d+$/, method: 'GET' },
  // No merge is published for Pulseway PSA: a technician closes the duplicate instead.
  merges: false,
  signsBody: false,
})
