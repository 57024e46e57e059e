// Every route under hostile input, on SQLite (the barrage is in routes.ts).
import { fuzzRoutes } from '../support/fuzz/routes.js'

fuzzRoutes('sqlite')
