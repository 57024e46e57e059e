// Kaseya BMS through the service's HTTP API, against the BMS simulator.
import { kaseyaBmsService } from './service-fixtures.js'
import { throughService } from './through-service.js'

throughService(kaseyaBmsService)
