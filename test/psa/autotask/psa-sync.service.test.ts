// Autotask two-way sync through the service: a TicketWebhook registered by alertbridge, signed with
// x-hook-signature, our own API user excluded (test/support/psa/sync-through-service.ts).
import { autotaskService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: autotaskService,
  push: 'registered',
  reads: { pattern: /\/Tickets\/query$/, method: 'POST' },
  merges: true,
  signsBody: true,
})
