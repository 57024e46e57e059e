// NinjaOne two-way sync through the service: the service registers NinjaOne's webhook, which reports
// no status change, so closes, reopens and work are heard by the poll (the board run of changed
// tickets, then each ticket read back: test/support/psa/sync-through-service.ts); the webhook's
// deletes and reinstates are tested in psa-sync.test.ts.
import { ninjaOneService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: ninjaOneService,
  push: 'registered',
  statusPushed: false,
  reads: { pattern: /\/v2\/ticketing\/ticket\/\d+$/, method: 'GET' },
  merges: false,
  signsBody: false,
})
