// The import rules of the modules (docs/architecture.md#the-modules), checked by `npm run lint:deps` in
// .ci/run. The modules stand in one order; a module imports only the modules below it, never one above,
// nothing imports the composition root (main/), and there is no circle. Type-only imports count: a circle
// of types is still a circle. A folder at the top of src/ that is not in the order fails the lint.
const order = [
  'platform',
  'psa',
  'tenants',
  'webhooks',
  'billing',
  'alerts',
  'psa-sync',
  'partner-api',
  'vendor-api',
  'admin',
  'ops',
  'main',
]
// The capability modules: each is entered through its index.ts only.
const capabilities = order.filter((m) => m !== 'platform' && m !== 'main')
// platform/ stands in its own order: core below db, below the queue and the HTTP plumbing.
const platformOrder = ['core', 'security', 'outbound', 'redis', 'db', 'queue', 'http', 'composition']

const above = (list, i) => list.slice(i + 1)
const moduleRules = order.slice(0, -1).map((name, i) => ({
  name: `${name}-stays-below`,
  comment: `${name}/ imports nothing of ${above(order, i).join(', ')}.`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: `^src/(${above(order, i).join('|')})/` },
}))
const platformRules = platformOrder.slice(0, -1).map((name, i) => ({
  name: `platform-${name}-stays-below`,
  comment: `platform/${name}/ imports nothing of platform/${above(platformOrder, i).join(', ')}.`,
  severity: 'error',
  from: { path: `^src/platform/${name}/` },
  to: { path: `^src/platform/(${above(platformOrder, i).join('|')})/` },
}))

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'every-folder-has-a-place',
      comment: 'A folder at the top of src/ that the module order does not name: add it to the order first.',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${order.join('|')})/` },
      to: {},
    },
    {
      name: 'every-platform-folder-has-a-place',
      comment: 'A folder of src/platform/ that the platform order does not name.',
      severity: 'error',
      from: { path: '^src/platform/[^/]+/', pathNot: `^src/platform/(${platformOrder.join('|')})/` },
      to: {},
    },
    ...moduleRules,
    {
      name: 'a-module-is-entered-by-its-index',
      comment:
        'A file imports another module only through its entry (src/<module>/index.ts); inside a module, files import each other directly. platform/ is imported file by file.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: {
        path: `^src/(${capabilities.join('|')})/`,
        pathNot: ['^src/$1/', `^src/(${capabilities.join('|')})/index\\.ts$`],
      },
    },
    ...platformRules,
    {
      name: 'platform-files-stay-below-its-folders',
      comment: 'platform/config.ts, env.ts and clock.ts import nothing of ours but platform/core.',
      severity: 'error',
      from: { path: '^src/platform/[^/]+\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/platform/core/', '^src/platform/[^/]+\\.ts$'] },
    },
    {
      name: 'core-is-pure',
      comment: 'platform/core/ holds values and wording: it imports nothing of ours outside itself, and no I/O.',
      severity: 'error',
      from: { path: '^src/platform/core/' },
      to: { pathNot: ['^src/platform/core/', '^node:crypto$', '^crypto$', '^@sinclair/typebox'] },
    },
    {
      name: 'refusals-become-http-errors-only-at-the-edge',
      comment:
        'Services answer refusals as values (src/platform/core/result.ts); only route files, src/platform/http/, the auth hooks (src/tenants/auth.ts, which run as request hooks) and the composition root turn them into ApiError (the errors, cursor and time-range helpers that throw it). docs/architecture.md#refusals.',
      severity: 'error',
      from: { pathNot: ['/routes/', '^src/platform/http/', '^src/tenants/auth\\.ts$', '^src/main/'] },
      to: { path: '^src/platform/http/(errors|pagination|time-range)\\.ts$' },
    },
    {
      name: 'routes-only-from-their-module',
      comment:
        "A route file is registered by its module's composition (src/<module>/module.ts); no other file imports one.",
      severity: 'error',
      from: { pathNot: ['/routes/', '^src/[^/]+/module\\.ts$'] },
      to: { path: '/routes/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
