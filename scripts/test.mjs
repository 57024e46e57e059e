// `npm test`: every test/**/*.test.ts file under Node's built-in runner, TypeScript through tsx, four
// files at a time (TEST_CONCURRENCY=n for another number: many files wait on timers, processes and the
// network rather than the two cores). The slowest files start first, so that none of them is left to
// run alone at the end. Extra arguments are passed on (e.g. `npm test -- --test-name-pattern=dedup`).
// TEST_TIMINGS=<file> also writes each file's time and the slowest tests to that file
// (scripts/test-timings.mjs). docs/development.md#test-map says what runs where and how long it takes.
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

/** The files that take longest (TEST_TIMINGS), slowest first: started first. */
const slowest = [
  'test/alerts/batched-drain.test.ts',
  'test/ops/crash-batched.test.ts',
  'test/fuzz/routes-sqlite.test.ts',
  'test/ops/secret-key.test.ts',
  'test/ops/crash.test.ts',
  'test/scale/multi-process.test.ts',
  'test/fuzz/routes-postgres.test.ts',
  'test/alerts/webhook-strategy.test.ts',
  'test/ops/startup-errors.test.ts',
]
const order = (f) => {
  const i = slowest.indexOf(f.replaceAll('\\', '/'))
  return i === -1 ? slowest.length : i
}

const args = process.argv.slice(2)
const files = args.some((a) => !a.startsWith('--'))
  ? []
  : find(join(root, 'test')).sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1))
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
    ...(process.env.TEST_TIMINGS
      ? [
          '--test-reporter-destination=stdout',
          `--test-reporter=${join(root, 'scripts', 'test-timings.mjs')}`,
          `--test-reporter-destination=${process.env.TEST_TIMINGS}`,
        ]
      : []),
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 4}`,
    '--test-timeout=300000',
    ...args,
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
)
process.exit(result.status ?? 1)
