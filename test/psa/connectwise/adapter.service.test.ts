// ConnectWise PSA through the service's HTTP API, against the ConnectWise simulator (which holds more
// tickets than one page of its ticket list before the first alert).
import { connectWiseService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'

throughService(connectWiseService)
