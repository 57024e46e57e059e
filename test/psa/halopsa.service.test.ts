// HaloPSA through the service's HTTP API, against the HaloPSA simulator (a hosted instance with a tenant).
import { haloService } from './service-fixtures.js'
import { throughService } from './through-service.js'

throughService(haloService)
