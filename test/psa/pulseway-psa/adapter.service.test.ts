// Pulseway PSA through the service's HTTP API, against the Pulseway simulator: the scenarios every PSA
// passes (test/support/psa/through-service.ts), with the simulator's requirements (AccountId, Title,
// Details, PriorityId; unknown accounts refused) and its losses of answers.
import { pulsewayPsaService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'
import { backends } from '../../support/service.js'

// A kind added after the first five proves its path on SQLite and PostgreSQL both.
throughService(pulsewayPsaService, backends('databases'))
