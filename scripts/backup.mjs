// `npm run backup -- <file>`: builds the TypeScript sources when they changed since the last build
// (as `npm start` does), then takes an online backup of the embedded database (src/backup/).
import { buildIfStale } from './build.mjs'

try {
  buildIfStale()
} catch (err) {
  process.stderr.write(`${err.message}\n`)
  process.exit(1)
}

await import(new URL('../dist/ops/backup/command.js', import.meta.url).href)
