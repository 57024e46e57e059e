// Every route under hostile input, on PostgreSQL when TEST_POSTGRES_URL names a server (routes.ts).
import { backends } from '../helpers/service.js'
import { fuzzRoutes } from './routes.js'

if (backends().includes('postgres')) fuzzRoutes('postgres')
