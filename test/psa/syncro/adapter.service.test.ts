// Syncro through the service's HTTP API, against the Syncro simulator (baseUrl names the account), which
// holds 300 tickets before the suite. The simulator's per-address limit is raised: every partner of these
// tests calls from one address, and the suite makes more than 180 calls a minute. The adapter's own
// per-address budget (180 a minute, shared by every partner: test/psa/syncro/limits.test.ts) holds the
// suite back the same way unless the service is told Syncro allows more.
import { syncroService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'

throughService(syncroService)
