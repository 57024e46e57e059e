// SuperOps two-way sync through the service: SuperOps cannot push, so the poll (updatedTime after the
// last poll, then the open tickets page by page) hears every change (test/support/psa/sync-through-service.ts).
import { superOpsService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: superOpsService,
  push: 'poll',
  reads: { pattern: /\/msp$/, method: 'POST' },
  // SuperOps' API shows no merge: a technician closes the duplicate with a note (docs/psa/superops.md).
  merges: false,
  signsBody: false,
})
