// `npm run migrate-data -- --from sqlite:<path> --to postgres://…`: builds the TypeScript sources when
// they changed since the last build (as `npm start` does), then moves the embedded database's data
// into PostgreSQL (src/ops/data-move/command.ts, docs/deploy.md).
import { buildIfStale } from './build.mjs'

try {
  buildIfStale()
} catch (err) {
  process.stderr.write(`${err.message}\n`)
  process.exit(1)
}

await import(new URL('../dist/ops/data-move/command.js', import.meta.url).href)
