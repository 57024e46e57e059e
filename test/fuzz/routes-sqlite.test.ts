// Every route under hostile input, on SQLite (the barrage is in routes.ts).
import { fuzzRoutes } from './routes.js'

fuzzRoutes('sqlite')
