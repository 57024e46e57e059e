// HaloPSA through the service's HTTP API, against the HaloPSA simulator (a hosted instance with a tenant).
import { haloService } from '../../support/psa/service-fixtures.js'
import { throughService } from '../../support/psa/through-service.js'

throughService(haloService)
