// The import rules of the layers (docs/architecture.md), checked by `npm run lint:deps` in .ci/run.
// Lower layers never import the capabilities above them, nothing imports the composition root, and
// there is no circle. Type-only imports count: a circle of types is still a circle.
const lower = '^src/(domain|security|db|http|outbound|queue|psa|redis)/'
const capabilities = '^src/(alerts|admin|partner|vendor-api|integrations|catalogue|webhooks|tenants|ops|billing|portal|backup|data-move)/'
const root = '^src/(server|boot|app|routes|services|runtime|demo)\\.ts$'

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'lower-layers-stay-below',
      comment:
        'db/, http/, psa/, queue/, redis/, outbound/, domain/ and security/ never import a capability folder.',
      severity: 'error',
      from: { path: lower },
      to: { path: capabilities },
    },
    {
      name: 'nothing-imports-the-composition-root',
      comment: 'Only the composition root (server, boot, app, routes, services, runtime, demo) imports itself.',
      severity: 'error',
      from: { pathNot: root },
      to: { path: root },
    },
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds decisions and types: it imports nothing of ours outside itself, and no I/O.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', '^node:crypto$', '^crypto$'] },
    },
    {
      name: 'db-below-http-psa-queue',
      comment: 'db/ knows tables and rows, not requests, PSAs or queues.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(http|psa|queue|outbound)/' },
    },
    {
      name: 'psa-knows-no-http',
      comment: 'PSA adapters answer with values; the routes turn them into HTTP errors.',
      severity: 'error',
      from: { path: '^src/(psa|queue|outbound)/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'redis-below-the-queue',
      comment: 'redis/ holds the connection and what processes share through it; it knows no queue, table or PSA.',
      severity: 'error',
      from: { path: '^src/redis/' },
      to: { path: '^src/', pathNot: '^src/redis/' },
    },
    {
      name: 'outbound-stands-alone',
      comment: 'The outbound HTTP client depends on nothing of ours.',
      severity: 'error',
      from: { path: '^src/outbound/' },
      to: { path: '^src/', pathNot: '^src/outbound/' },
    },
    {
      name: 'refusals-become-http-errors-only-at-the-edge',
      comment:
        'Services answer refusals as values (src/platform/core/result.ts); only route files, src/http/ and the composition root turn them into ApiError (the errors, cursor and time-range helpers that throw it). docs/architecture.md#refusals.',
      severity: 'error',
      from: { pathNot: ['/routes/', '^src/http/', root] },
      to: { path: '^src/http/(errors|pagination|time-range)\\.ts$' },
    },
    {
      name: 'routes-only-from-the-route-list',
      comment: 'A route file is registered from src/main/routes.ts (or app.ts); no other module imports one.',
      severity: 'error',
      from: { pathNot: ['^src/(routes|app)\\.ts$', '/routes/'] },
      to: { path: '^src/[^/]+/routes/' },
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
