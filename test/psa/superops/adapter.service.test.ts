// SuperOps through the service's HTTP API, against the SuperOps simulator (baseUrl is its GraphQL
// endpoint), which holds 300 tickets and 1,030 clients before the suite.
import { superOpsService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'
import { backends } from '../../support/service.js'

// A kind added after the first five proves its path on SQLite and PostgreSQL both.
throughService(superOpsService, backends('databases'))
