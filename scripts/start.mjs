// `npm start`: builds the TypeScript sources and the partner portal when they changed since the last
// build, then runs the service. Arguments after `--` (e.g. --demo) reach the service; `npm run
// start:api` and `npm run start:worker` pass --role=api or --role=worker (ROLE).
import { buildIfStale, buildWebIfStale } from './build.mjs'

try {
  buildIfStale()
  buildWebIfStale()
} catch (err) {
  process.stderr.write(`${err.message}\n`)
  process.exit(1)
}

await import(new URL('../dist/main/server.js', import.meta.url).href)
