// `npm test`: every test/**/*.test.ts file under Node's built-in runner, four files at a time
// (TEST_CONCURRENCY=n for another number). The suites are bound by the two cores, so more files at a
// time gain nothing; six made the kill -9 and restart suites on PostgreSQL + Redis miss their 60 s bound
// under load (docs/development.md, "How long"). The whole suite runs bundled: one esbuild pass bundles every test file with
// what it imports (shared code split into chunks) under .tmp/test-build/ (a second or two), beside
// links to what the tests read as files (web/dist/, docs/, the portal's and the SDK's API types,
// dist/, node_modules/, the .mjs scripts): a test process loads a few files rather than some two
// thousand modules, which was most of a small test's CPU (tsx, before that, compiled the service
// again in every process; the tests are CPU-bound on two cores, docs/performance.md). Every test
// process gets the migrated templates it copies its databases from and a temporary folder on tmpfs
// (below). The workspace packages (packages/*: the vendor SDK and CLI) are imported by their names,
// which resolve to their dist/: the whole suite writes their JavaScript there first, as `npm run
// build` would. Named files run through tsx, as before, and tsx finds the packages' sources by the
// names (tsconfig.json's `paths`). The slowest
// files start first, so that none of them is left to
// run alone at the end. Extra arguments are passed on (e.g. `npm test -- --test-name-pattern=dedup`).
// TEST_TIMINGS=<file> also writes each file's time and the slowest tests to that file
// (scripts/test-timings.mjs). docs/development.md#test-map says what runs where and how long it takes.
import { spawnSync } from 'node:child_process'
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))

function find(dir, suffix = '.test.ts') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return find(path, suffix)
    return e.name.endsWith(suffix) ? [relative(root, path)] : []
  })
}

/**
 * Packages left out of the test bundles and loaded from node_modules as they are: native addons, and
 * packages that read files beside their own code (the API reference's static pages).
 */
const unbundled = [
  'better-sqlite3',
  'msgpackr-extract',
  'pg-native',
  'esbuild',
  'fsevents',
  '@fastify/swagger-ui',
  'playwright-core',
  'typescript',
  'openapi-typescript',
  'axe-core',
]

/**
 * Bundles every test file into `out` (same layout), its imports with it: the service's sources, the
 * portal's plain modules, the workspace packages and the npm packages (but `unbundled`), with the
 * code they share split into chunks that every test process of the run loads from one place. A test
 * process then loads a few files instead of some two thousand modules: most of a small test's CPU
 * was the module loader. The bundles keep `require`, `__filename` and `__dirname` working for the
 * CommonJS packages inside them, and the links below give them the repository's files to read.
 */
function compile(out) {
  rmSync(out, { recursive: true, force: true })
  const entries = [...find(join(root, 'test')), join('test', 'support', 'make-templates.ts')]
  buildSync({
    entryPoints: entries.map((f) => join(root, f)),
    outdir: out,
    outbase: root,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    external: unbundled,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    banner: {
      js: [
        "import { createRequire as __abRequire } from 'node:module'",
        "import { fileURLToPath as __abPath } from 'node:url'",
        'const require = __abRequire(import.meta.url)',
        'const __filename = __abPath(import.meta.url)',
        "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'))",
      ].join(';'),
    },
    logLevel: 'warning',
  })
  for (const name of [
    'dist',
    'docs',
    'node_modules',
    'package.json',
    join('web', 'dist'),
    join('web', 'src', 'api', 'schema.d.ts'),
    join('packages', 'vendor', 'src', 'openapi.d.ts'),
  ]) {
    mkdirSync(dirname(join(out, name)), { recursive: true })
    symlinkSync(join(root, name), join(out, name))
  }
  mkdirSync(join(out, 'scripts'), { recursive: true })
  for (const f of readdirSync(join(root, 'scripts')).filter((f) => f.endsWith('.mjs')))
    symlinkSync(join(root, 'scripts', f), join(out, 'scripts', f))
}

/**
 * The JavaScript of each workspace package (packages/<name>/src → dist/), what the tests import by the
 * package's name; `npm run build` writes the same files, with their declarations, through tsc.
 */
function compilePackages() {
  const packages = join(root, 'packages')
  for (const name of existsSync(packages) ? readdirSync(packages) : []) {
    const src = join(packages, name, 'src')
    if (!existsSync(src)) continue
    buildSync({
      entryPoints: find(src, '.ts')
        .filter((f) => !f.endsWith('.d.ts'))
        .map((f) => join(root, f)),
      outdir: join(packages, name, 'dist'),
      outbase: src,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'warning',
    })
  }
}

/** The files that take longest (TEST_TIMINGS), slowest first: started first. */
const slowest = [
  'test/alerts/executor/executor.batched-drain.test.ts',
  'test/main/server.crash-batched.test.ts',
  'test/main/app.fuzz-sqlite.test.ts',
  'test/ops/secret-key.test.ts',
  'test/main/server.crash.test.ts',
  'test/main/server.multi-process.test.ts',
  'test/main/app.fuzz-postgres.test.ts',
  'test/alerts/routes/alert-webhook.test.ts',
  'test/main/boot.startup-errors.test.ts',
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
if ([...args, ...files].some((f) => f.includes('test/web'))) {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), 'web'], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}
// The whole suite runs compiled; named files (or none found) through tsx.
const compiled = files.length > 0
const out = join(root, '.tmp', 'test-build')
if (compiled) {
  // The packages first: the bundles take them in by their names, from their dist/.
  compilePackages()
  compile(out)
}
/**
 * Where the test processes keep their temporary files (os.tmpdir(): the embedded databases, the
 * services' data directories, receivers' files): a folder of this run in /dev/shm where the machine
 * has one, else the system's. On tmpfs an fsync costs nothing, and the embedded database commits
 * with `synchronous = FULL`: on a disk, the suite's thousands of commits wait for it. What the tests
 * check does not change (a killed process loses nothing either way; a power cut is not tested).
 * TEST_TMPDIR names another folder. Removed when the run ends.
 */
function runTmpdir() {
  const wanted = process.env.TEST_TMPDIR
  if (wanted) return { dir: wanted, remove: () => {} }
  let parent = tmpdir()
  try {
    accessSync('/dev/shm', constants.W_OK)
    parent = '/dev/shm'
  } catch {
    // no tmpfs here: the system's temporary folder
  }
  const dir = mkdtempSync(join(parent, 'alertbridge-test-run-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * The migrated templates every test service copies (test/support/templates.ts), made once for the
 * run, as environment variables for the test processes.
 */
function templates(env) {
  const made = spawnSync(
    process.execPath,
    compiled
      ? ['--enable-source-maps', join(out, 'test', 'support', 'make-templates.js')]
      : ['--import', 'tsx', join('test', 'support', 'make-templates.ts')],
    { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  if (made.status !== 0) process.exit(made.status ?? 1)
  return Object.fromEntries(
    made.stdout
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
}

const tmp = runTmpdir()
const env = { ...process.env, TMPDIR: tmp.dir }
Object.assign(env, templates(env))
const result = spawnSync(
  process.execPath,
  [
    ...(compiled ? ['--enable-source-maps'] : ['--import', 'tsx']),
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
    // A guard against a test that hangs, not a performance check (a file of three backends' drains
    // takes some 200 s on a loaded machine).
    '--test-timeout=600000',
    ...args,
    ...(compiled ? files.map((f) => join(out, f.replace(/\.ts$/, '.js'))) : files),
  ],
  { cwd: root, env, stdio: 'inherit' },
)
tmp.remove()
process.exit(result.status ?? 1)
