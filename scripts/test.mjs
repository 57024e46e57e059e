// `npm test`: every test/**/*.test.ts file under Node's built-in runner, TypeScript through tsx.
// Extra arguments are passed on (e.g. `npm test -- --test-name-pattern=dedup`).
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return find(path)
    return e.name.endsWith('.test.ts') ? [relative(root, path)] : []
  })
}

const args = process.argv.slice(2)
const files = args.some((a) => !a.startsWith('--')) ? [] : find(join(root, 'test')).sort()
// The portal's tests serve web/dist: build it once here rather than in each test file.
if ([...args, ...files].some((f) => f.includes('test/portal'))) {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), 'web'], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=2',
    '--test-timeout=300000',
    ...args,
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
)
process.exit(result.status ?? 1)
