// NinjaOne through the service's HTTP API, against the NinjaOne simulator (each partner connected with
// a user's grant of its own, the refresh tokens rotating in psa_tokens).
import { ninjaOneService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'
import { backends } from '../../support/service.js'

// A kind added after the first five proves its path on SQLite and PostgreSQL both.
throughService(ninjaOneService, backends('databases'))
