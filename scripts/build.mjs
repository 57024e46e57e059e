// Builds dist/ from src/ when dist/ is missing or older than src/. Used by `npm start`
// (scripts/start.mjs) and `npm run bench` (bench/run.mjs), so both run what src/ says.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** Runs tsc when src/ changed since the last build; throws when the build fails. */
export function buildIfStale() {
  const stamp = join(root, 'dist', '.tsbuildinfo')
  if (existsSync(stamp) && newestMtime(join(root, 'src')) <= statSync(stamp).mtimeMs) return
  process.stdout.write('building dist/ (src/ changed since the last build)…\n')
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  })
  if (result.status !== 0) throw new Error('the build failed; see the compiler output above')
}
