// ConnectWise two-way sync through the service: callbacks registered by alertbridge, signed with the key
// ConnectWise serves at the callback's key_url (test/support/psa/sync-through-service.ts).
import { connectWiseService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: connectWiseService,
  push: 'registered',
  reads: { pattern: /\/service\/tickets(\/\d+)?$/, method: 'GET' },
  merges: true,
  signsBody: true,
})
