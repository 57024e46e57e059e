// The vendor's OpenAPI document, /openapi/vendor.json (src/platform/http/openapi/vendor-document.ts,
// docs/vendor-api.md#openapi-document): every vendor operation of the served document and no other, the
// webhooks section, only the components used and each of its references resolving, every error code
// linked to its row of docs/vendors.md#error-codes, and openapi-typescript generating types from it.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { errorCodes } from '../../../../src/platform/core/errors.js'
import {
  errorAnchor,
  reachableRefs,
  vendorDocument,
} from '../../../../src/platform/http/openapi/vendor-document.js'
import { startService, type TestService } from '../../../support/service.js'

type Json = Record<string, any>
const methods = new Set(['get', 'put', 'post', 'delete', 'patch'])

/** Every operation of a document as `METHOD path`, with its tags. */
function operations(doc: Json): Map<string, string[]> {
  const ops = new Map<string, string[]>()
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {}))
    for (const [method, op] of Object.entries<Json>(item))
      if (methods.has(method)) ops.set(`${method.toUpperCase()} ${path}`, op.tags ?? [])
  return ops
}

/** Every `$ref` of a document. */
function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsOf(n, out)
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v)
      else refsOf(v, out)
    }
  return out
}

/** A local JSON pointer (`#/components/schemas/X`) resolved in `doc`, or undefined. */
function resolve(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  return ref
    .slice(2)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, token) => (node && typeof node === 'object' ? (node as Json)[token] : undefined),
      doc,
    )
}

const guideAnchors = new Set(
  [...readFileSync(join(process.cwd(), 'docs', 'vendors.md'), 'utf8').matchAll(/<a id="([^"]+)"><\/a>/g)].map(
    (m) => m[1],
  ),
)

describe('the vendor OpenAPI document', () => {
  let svc: TestService
  let full: Json
  let doc: Json
  before(async () => {
    svc = await startService()
    const [a, b] = await Promise.all([
      svc.request('GET', '/openapi.json'),
      svc.request('GET', '/openapi/vendor.json'),
    ])
    assert.equal(a.status, 200)
    assert.equal(b.status, 200, b.text)
    full = a.body
    doc = b.body
  })
  after(() => svc.close())

  test('it holds no operator, partner, PSA-push or ops operation', () => {
    for (const [op, tags] of operations(doc)) {
      assert.doesNotMatch(op, / \/(api\/admin|api\/partner|api\/psa-push|healthz|readyz|metrics)/, op)
      assert.ok(tags.length > 0 && tags.every((t) => t === 'alerts' || t === 'vendor'), `${op}: ${tags}`)
    }
    assert.deepEqual(
      doc.tags.map((t: Json) => t.name),
      ['alerts', 'vendor'],
    )
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['clientBasic', 'vendorToken'])
  })

  test('every vendor operation of the served document is there, as served, and the webhooks section', () => {
    const mine = operations(doc)
    const expected = [...operations(full)].filter(
      ([, tags]) => tags.includes('alerts') || tags.includes('vendor'),
    )
    assert.ok(expected.length >= 30, `${expected.length} vendor operations`)
    for (const [op] of expected) assert.ok(mine.has(op), `${op} is in the vendor document`)
    assert.equal(mine.size, expected.length)
    for (const op of [
      'POST /api/oem-alerts-api/alert/sync',
      'POST /api/oauth/token',
      'GET /api/oem-api/integration/list',
    ])
      assert.ok(mine.has(op), op)
    assert.deepEqual(Object.keys(doc.webhooks).sort(), Object.keys(full.webhooks).sort())
    assert.equal(
      doc.paths['/api/vendor-api/organization/accounts'].post.operationId,
      full.paths['/api/vendor-api/organization/accounts'].post.operationId,
    )
  })

  test('every $ref resolves, and every component kept is used', () => {
    const refs = refsOf(doc)
    assert.ok(refs.length > 50)
    for (const ref of new Set(refs)) assert.ok(resolve(doc, ref) !== undefined, `${ref} resolves`)
    const used = reachableRefs({ paths: doc.paths, webhooks: doc.webhooks }, doc.components)
    for (const [kind, entries] of Object.entries<Json>(doc.components)) {
      if (kind === 'securitySchemes') continue
      for (const name of Object.keys(entries))
        assert.ok(used.has(`#/components/${kind}/${name}`), `${kind}/${name} is used`)
    }
    const fullSchemas = Object.keys(full.components.schemas).length
    assert.ok(
      Object.keys(doc.components.schemas).length < fullSchemas,
      'the partner’s and operator’s schemas are left out',
    )
  })

  test('every error code links to its row of the vendor guide, which the service serves', async () => {
    const error = doc.components.schemas.SyncFailure.properties.error
    assert.deepEqual(error.enum, [...errorCodes])
    for (const code of errorCodes) {
      const anchor = errorAnchor(code)
      assert.ok(guideAnchors.has(anchor), `docs/vendors.md has <a id="${anchor}">`)
      assert.ok(error.description.includes(`](/docs/vendors.md#${anchor})`), `${code} is linked`)
    }
    assert.equal(error.externalDocs.url, '/docs/vendors.md#error-codes')
    // A response's list of codes is linked too.
    const unauthorized = doc.paths['/api/oem-alerts-api/alert/sync'].post.responses['401'].description
    assert.match(unauthorized, /\[`INVALID_CREDENTIALS`\]\(\/docs\/vendors\.md#error-invalid-credentials\)/)
    const page = await svc.request('GET', '/docs/vendors.md')
    assert.equal(page.status, 200)
    assert.match(page.text, /id="error-validation-failed"/)
    assert.match(page.text, /id="versioning-and-deprecation"|Versioning and deprecation/)
  })

  test('openapi-typescript generates types from it that type-check, with no partner path', async () => {
    const types = astToString(await openapiTS(JSON.stringify(doc)))
    assert.match(types, /"\/api\/oem-alerts-api\/alert\/sync": \{/)
    assert.doesNotMatch(types, /"\/api\/(admin|partner)\//)
    const dir = mkdtempSync(join(tmpdir(), 'vendor-openapi-'))
    try {
      writeFileSync(join(dir, 'schema.d.ts'), types)
      writeFileSync(
        join(dir, 'use.ts'),
        `import type { paths, webhooks } from './schema.js'
type Sync = paths['/api/oem-alerts-api/alert/sync']['post']
export type Body = Sync['requestBody'] extends { content: { 'application/json': infer B } } ? B : never
export type Event = webhooks['status_update']
// @ts-expect-error the partner API is not in the vendor's document
export type Partner = paths['/api/partner/tickets']
`,
      )
      const program = ts.createProgram([join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        types: [],
      })
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      assert.deepEqual(problems, [])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('vendorDocument', () => {
  const op = (tags: string[]) => ({
    tags,
    responses: { '401': { description: 'No. Error codes: INVALID_CREDENTIALS, TOKEN_EXPIRED.' } },
  })
  const source = {
    openapi: '3.1.0',
    info: { title: 'alertbridge', version: '0.1.0' },
    tags: [{ name: 'vendor' }, { name: 'partner' }],
    paths: {
      '/api/vendor-api/things': {
        parameters: [],
        get: { ...op(['vendor']), security: [{ vendorToken: [] }] },
        post: op(['partner']),
      },
      '/api/partner/things': { get: op(['vendor']) },
      '/api/admin/things': { get: op(['admin']) },
    },
    components: {
      schemas: {
        A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
        B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } },
        Unused: { type: 'string' },
      },
      securitySchemes: { vendorToken: { type: 'http' }, adminToken: { type: 'http' } },
    },
    webhooks: { status_update: { post: { requestBody: { $ref: '#/components/schemas/A' } } } },
  }

  test('a method of another API on a vendor path, and a vendor tag on another API’s path, stay out', () => {
    const doc = vendorDocument(structuredClone(source), '/docs/vendors.md')
    assert.deepEqual(Object.keys(doc.paths as Json), ['/api/vendor-api/things'])
    assert.deepEqual(Object.keys((doc.paths as Json)['/api/vendor-api/things']), ['parameters', 'get'])
  })

  test('components are the ones reached (through a cycle), security schemes the ones named', () => {
    const doc = vendorDocument(structuredClone(source), '/docs/vendors.md') as Json
    assert.deepEqual(Object.keys(doc.components.schemas).sort(), ['A', 'B'])
    assert.deepEqual(Object.keys(doc.components.securitySchemes), ['vendorToken'])
  })

  test('codes link to the guide given (absolute with PUBLIC_URL), and the source is not changed', () => {
    const input = structuredClone(source)
    const doc = vendorDocument(input, 'https://ab.example/docs/vendors.md') as Json
    assert.equal(
      doc.paths['/api/vendor-api/things'].get.responses['401'].description,
      'No. Error codes: [`INVALID_CREDENTIALS`](https://ab.example/docs/vendors.md#error-invalid-credentials), [`TOKEN_EXPIRED`](https://ab.example/docs/vendors.md#error-token-expired).',
    )
    assert.deepEqual(input, source)
  })
})
