// Every route a document names exists in the served OpenAPI document (/openapi.json): `GET /api/…`,
// `POST /api/…` and the other methods, in README.md, docs/ and the packages' READMEs, by method and path
// (`{param}` templates match any template, a literal segment matches a template too; a path that ends
// in `…` names the routes it begins). The shorthands documents use are expanded, each variant checked:
// `[/sync]` is optional, `vendors|partners` and `{vendors|partners}` are alternatives. docs/psa/ and
// docs/decisions/psa/ also name the PSAs' own APIs (HaloPSA's `POST /api/Tickets`): there only paths
// under one of alertbridge's own areas (the first segment after /api/ of a route in the document) count.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { after, before, test } from 'node:test'
import { startService, type TestService } from '../../../support/service.js'

const root = process.cwd()

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'screenshots' ? [] : markdown(path)
    return e.name.endsWith('.md') ? [path] : []
  })
}

const documents = [
  join(root, 'README.md'),
  ...markdown(join(root, 'docs')),
  ...readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p, 'README.md')),
].filter((f) => {
  try {
    return readFileSync(f).length > 0
  } catch {
    return false
  }
})

interface Named {
  file: string
  /** `POST|PATCH /api/admin/vendors/{id}` names two. */
  methods: string[]
  path: string
}

/**
 * Routes hidden from the OpenAPI document on purpose, which documents may name: a browser's redirect
 * (src/partner-api/routes/psa-consent.ts). Each is requested to show it exists.
 */
const hiddenRoutes = [{ method: 'GET', path: '/api/partner/psa/ninjaone/callback' }]

/** `METHOD /api/…` as a document writes it, a line break between the two included. */
const routePattern =
  /\b((?:GET|POST|PUT|PATCH|DELETE)(?:\|(?:GET|POST|PUT|PATCH|DELETE))*)\s+(?:\$BASE|\{baseUrl\}|https?:\/\/[^/\s`]+)?(\/api\/[^\s`'"()<>,;?#]*)/g

function named(): Named[] {
  return documents.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(routePattern)].map((m) => ({
      file: relative(root, file),
      methods: m[1]!.split('|'),
      path: m[2]!.replace(/[.:]+$/, ''),
    }))
  })
}

/** Every path a shorthand names: `[x]` optional, `a|b` (or `{a|b}`) alternatives within a segment. */
function variants(path: string, depth = 0): string[] {
  const optional = /\[([^[\]]*)\]/.exec(path)
  if (optional && depth < 8) {
    const cut = (with_: string) =>
      path.slice(0, optional.index) + with_ + path.slice(optional.index + optional[0].length)
    return [...variants(cut(''), depth + 1), ...variants(cut(optional[1]!), depth + 1)]
  }
  return path.split('/').reduce<string[]>(
    (heads, segment, i) => {
      const bare = segment.replace(/\\\|/g, '|')
      const options = bare.includes('|') ? bare.replace(/^\{(.*)\}$/, '$1').split('|') : [segment]
      return heads.flatMap((h) => options.map((o) => (i === 0 ? o : `${h}/${o}`)))
    },
    [''],
  )
}

/** A document's path against a route of the document: templates match, `…` names a prefix. */
function matches(path: string, route: string): boolean {
  const template = (s: string) => s.replace(/\{[^}]+\}|:[A-Za-z]+/g, '{}')
  const wanted = template(path).replace(/\/$/, '')
  const have = template(route)
  if (wanted.endsWith('…')) return have.startsWith(wanted.slice(0, -1))
  const a = wanted.split('/')
  const b = have.split('/')
  return a.length === b.length && a.every((seg, i) => seg === b[i] || b[i] === '{}')
}

let svc: TestService
before(async () => {
  svc = await startService()
})
after(() => svc.close())

test('the routes hidden from the OpenAPI document that documents name exist', async () => {
  for (const route of hiddenRoutes) {
    const answer = await svc.request(route.method, route.path)
    assert.notEqual(answer.status, 404, `${route.method} ${route.path}: ${JSON.stringify(answer.body)}`)
  }
})

test('every route a document names is in the OpenAPI document, by method and path', async () => {
  const doc = await svc.request('GET', '/openapi.json')
  assert.equal(doc.status, 200)
  const routes = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(
    ([path, item]) => Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })),
  )
  const areas = new Set(routes.map((r) => r.path.split('/')[2]))
  const psaPages = (file: string) => file.startsWith('docs/psa/') || file.startsWith('docs/decisions/psa/')
  const checked = named().filter((n) => !psaPages(n.file) || areas.has(n.path.split('/')[2]))
  assert.ok(checked.length > 50, `only ${checked.length} routes found in the documents`)
  const known = [...routes, ...hiddenRoutes]
  const missing = checked.flatMap((n) =>
    n.methods.flatMap((method) =>
      variants(n.path)
        .filter((path) => !known.some((r) => r.method === method && matches(path, r.path)))
        .map((path) => `${n.file}: ${method} ${path === n.path ? path : `${path} (of ${n.path})`}`),
    ),
  )
  assert.deepEqual(missing, [], 'routes named in documents that the OpenAPI document does not have')
})
