// The route barrage on PostgreSQL + Redis (the scale-out configuration), in a file of its own so that it
// runs beside the other backends' barrages.
import { backends } from '../helpers/service.js'
import { fuzzRoutes } from './routes.js'

if (backends().includes('postgres+redis')) fuzzRoutes('postgres+redis')
