// Every route under hostile input on PostgreSQL, when TEST_POSTGRES_URL names a server: a slice of the
// SQLite barrage (routes-sqlite.test.ts), a quarter of its requests to every route, for input that
// PostgreSQL takes differently from SQLite (its text holds no NUL, say). routes.ts has the barrage.

import { fuzzRoutes, runs } from '../support/fuzz/routes.js'
import { backends } from '../support/service.js'

if (backends('matrix').includes('postgres')) fuzzRoutes('postgres', Math.ceil(runs / 4))
