// Builds dist/ from src/ when dist/ is missing or older than src/, and the partner portal (web/dist)
// when it is missing or older than web/. Used by `npm start` (scripts/start.mjs), `npm run bench`
// (bench/run.mjs) and the portal's tests (`node scripts/build.mjs web`), so each runs what the
// sources say.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

function newestMtime(dir, skip = new Set()) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path, skip) : statSync(path).mtimeMs)
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

/**
 * Runs the portal's Vite build when web/ changed since web/dist/index.html was written. Without Vite
 * (an install that left out devDependencies) it says so and the service runs without the portal.
 */
export function buildWebIfStale() {
  const web = join(root, 'web')
  const stamp = join(web, 'dist', 'index.html')
  const fresh = () => existsSync(stamp) && newestMtime(web, new Set(['dist'])) <= statSync(stamp).mtimeMs
  if (fresh()) return
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js')
  if (!existsSync(vite)) {
    process.stdout.write(
      'the partner portal is not built and Vite is not installed (npm install): serving the API only\n',
    )
    return
  }
  // Test files run in parallel and each may ask for the build: one builds, the others wait for it.
  const lock = join(root, 'node_modules', '.alertbridge-web-build.lock')
  const until = Date.now() + 180_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (Date.now() > until)
        throw new Error(`the portal build lock ${lock} is held; remove it if no build runs`)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)
    }
  }
  try {
    if (fresh()) return
    process.stdout.write('building web/dist (web/ changed since the last build)…\n')
    const result = spawnSync(
      process.execPath,
      [vite, 'build', '--config', join(web, 'vite.config.ts'), '--logLevel', 'warn'],
      { stdio: 'inherit', cwd: root },
    )
    if (result.status !== 0) throw new Error('the portal build failed; see the output above')
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('web')) buildWebIfStale()
    else {
      buildIfStale()
      buildWebIfStale()
    }
  } catch (err) {
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
}
