// Syncro two-way sync through the service: Syncro cannot push, so the poll (since_updated_at, then the
// open tickets page by page) hears every change (test/support/psa/sync-through-service.ts).
import { syncroService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: syncroService,
  push: 'poll',
  reads: { pattern: /\/api\/v1\/tickets\/\d+$/, method: 'GET' },
  // Syncro has no merge: a technician resolves the duplicate with a comment (docs/psa/syncro.md).
  merges: false,
  signsBody: false,
})
