// The OpenAPI document (/openapi.json, /docs/json) is the contract partners and vendors read and generate
// clients from (docs/vendor-api.md#openapi-document): every API operation in it has a summary, a tag, an
// operationId, a description and an example, its success response and the errors it can answer, each
// response described with its headers and a body schema; named schemas are referenced, error codes
// enumerated, the token endpoint's three forms documented, and every example fits its schema.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import Fastify from 'fastify'
import Type from 'typebox'
import Value from 'typebox/value'
import { errorCodes } from '../../../../src/platform/core/errors.js'
import { namedSchemas } from '../../../../src/platform/http/openapi/components.js'
import { registerOpenApi } from '../../../../src/platform/http/openapi/document.js'
import { startService, type TestService } from '../../../support/service.js'

type Json = Record<string, any>
type Operation = {
  operationId?: string
  summary?: string
  description?: string
  parameters?: Json[]
  requestBody?: { content?: Record<string, Json> }
  tags?: string[]
  security?: Json[]
  responses?: Record<string, { description?: string; headers?: Json; content?: Record<string, Json> }>
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'patch'])

/** The schema with every `#/components/schemas/…` reference replaced by its schema. */
function deref(schema: unknown, schemas: Json, depth = 0): any {
  if (depth > 40 || typeof schema !== 'object' || schema === null) return schema
  if (Array.isArray(schema)) return schema.map((s) => deref(s, schemas, depth + 1))
  const ref = (schema as Json).$ref
  if (typeof ref === 'string') {
    const target = schemas[ref.replace('#/components/schemas/', '')]
    assert.ok(target, `${ref} is defined`)
    return deref(target, schemas, depth + 1)
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, deref(v, schemas, depth + 1)]))
}

describe('the OpenAPI document', () => {
  let svc: TestService
  let doc: Json
  let paths: Record<string, Record<string, Operation>>
  before(async () => {
    svc = await startService()
    const res = await svc.request('GET', '/docs/json')
    assert.equal(res.status, 200)
    doc = res.body
    paths = doc.paths
  })
  after(() => svc.close())

  const operationsOf = (filter = (path: string) => path.startsWith('/api/')) =>
    Object.entries(paths)
      .filter(([path]) => filter(path))
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([method]) => httpMethods.has(method))
          .map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
      )
  const examplesOf = (m: Json | undefined): unknown[] =>
    m
      ? [...('example' in m ? [m.example] : []), ...Object.values(m.examples ?? {}).map((e: any) => e.value)]
      : []

  test('every API operation has a summary, a tag, a 2xx and its error responses (400 with input, 401 with auth) with body schemas', () => {
    const ops = operationsOf()
    assert.ok(ops.length > 50, `found ${ops.length} operations`)
    const problems: string[] = []
    for (const { name, op } of ops) {
      if (!op.summary) problems.push(`${name}: no summary`)
      if (!op.tags?.length) problems.push(`${name}: no tag`)
      const codes = Object.keys(op.responses ?? {})
      if (!codes.some((c) => /^2\d\d$/.test(c))) problems.push(`${name}: no 2xx response`)
      const errors = codes.filter((c) => /^[45]\d\d$/.test(c))
      if (errors.length === 0) problems.push(`${name}: no error response`)
      if (op.security?.length && !errors.includes('401')) problems.push(`${name}: authenticated but no 401`)
      // Fastify validates parameters and bodies against their schema and answers 400.
      if ((op.parameters?.length || op.requestBody) && !errors.includes('400'))
        problems.push(`${name}: validated input but no 400`)
      for (const code of codes) {
        const content = op.responses?.[code]?.content
        if (code !== '204' && !content?.['application/json']?.schema)
          problems.push(`${name}: ${code} without a schema`)
      }
    }
    assert.deepEqual(problems, [])
  })

  test("every operation states its operation({...}) in its route's schema: a unique camelCase operationId and a description", () => {
    const problems: string[] = []
    const seen = new Map<string, string>()
    for (const { name, op } of operationsOf(() => true)) {
      if (!op.operationId || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId))
        problems.push(`${name}: operationId ${op.operationId} is not camelCase`)
      else if (seen.has(op.operationId))
        problems.push(`${name}: operationId ${op.operationId} is also ${seen.get(op.operationId)}'s`)
      else seen.set(op.operationId, name)
      // A route without operation({...}) (src/platform/http/openapi/operation-doc.ts) has none.
      if (!op.description?.trim())
        problems.push(`${name}: no description (no operation({...}) in its schema?)`)
      if ('x-operation' in op) problems.push(`${name}: the document still carries x-operation`)
    }
    assert.deepEqual(problems, [])
  })

  test('every operation has an example: of its body where it has one, of its 2xx answer for the vendor, of its errors', () => {
    const problems: string[] = []
    for (const { name, op } of operationsOf(() => true)) {
      const bodies = Object.values(op.requestBody?.content ?? {})
      const answers = Object.entries(op.responses ?? {})
        .filter(([code]) => /^2/.test(code))
        .flatMap(([, r]) => Object.values(r.content ?? {}))
      const params = (op.parameters ?? []).filter((p) => p.example !== undefined)
      for (const m of bodies)
        if (examplesOf(m).length === 0) problems.push(`${name}: a body without an example`)
      const vendor = op.tags?.some((t) => t === 'vendor' || t === 'alerts')
      if (vendor)
        for (const m of answers)
          if (examplesOf(m).length === 0 && m.schema)
            problems.push(`${name}: a 2xx answer without an example`)
      const all = Object.values(op.responses ?? {}).flatMap((r) => Object.values(r.content ?? {}))
      const any = [...bodies, ...all].some((m) => examplesOf(m).length > 0) || params.length > 0
      if (!any) problems.push(`${name}: no example at all`)
    }
    assert.deepEqual(problems, [])
  })

  test('every example fits its schema (bodies, answers and path parameters)', () => {
    const problems: string[] = []
    const schemas = doc.components.schemas
    const check = (where: string, schema: unknown, value: unknown) => {
      const s = deref(schema, schemas)
      if (!Value.Check(s, value)) {
        const first = [...Value.Errors(s, value)][0]
        problems.push(`${where}: ${JSON.stringify(first?.instancePath)} ${first?.message}`)
      }
    }
    for (const { name, op } of operationsOf(() => true)) {
      for (const [type, m] of Object.entries(op.requestBody?.content ?? {}))
        for (const e of examplesOf(m)) check(`${name} body ${type}`, m.schema, e)
      for (const [code, r] of Object.entries(op.responses ?? {}))
        for (const m of Object.values(r.content ?? {}))
          for (const e of examplesOf(m)) check(`${name} ${code}`, m.schema, e)
      for (const p of op.parameters ?? [])
        if (p.example !== undefined) check(`${name} parameter ${p.name}`, p.schema, p.example)
    }
    assert.deepEqual(problems, [])
  })

  test('every response is described, with x-request-id, Retry-After and Idempotent-Replayed where they apply', () => {
    const problems: string[] = []
    let idempotent = 0
    for (const { name, op } of operationsOf()) {
      const takesKey = (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key')
      if (takesKey) idempotent++
      for (const [code, r] of Object.entries(op.responses ?? {})) {
        const where = `${name} ${code}`
        if (!r.description || r.description === 'Default Response') problems.push(`${where}: not described`)
        const h = r.headers ?? {}
        if (!h['x-request-id']) problems.push(`${where}: no x-request-id`)
        const retry = code === '429' || code === '503' || (code === '409' && takesKey)
        if (retry && !h['Retry-After']) problems.push(`${where}: no Retry-After`)
        if (takesKey && /^2/.test(code) && !h['Idempotent-Replayed'])
          problems.push(`${where}: no Idempotent-Replayed`)
      }
      if (takesKey && !(op.responses?.['409'] && op.responses?.['422']))
        problems.push(`${name}: takes an Idempotency-Key but has no 409 and 422`)
    }
    assert.deepEqual(problems, [])
    // The alert calls and the vendor API's writes take keys (docs/vendor-api.md#idempotency-keys).
    assert.ok(idempotent >= 10, `${idempotent} operations take an Idempotency-Key`)
    const sync = paths['/api/oem-alerts-api/alert/sync']!.post!
    assert.ok(sync.parameters?.some((p) => p.name === 'Idempotency-Key'))
    for (const name of ['RequestId', 'RetryAfter', 'IdempotentReplayed'])
      assert.ok(doc.components.headers[name]?.description, `components.headers.${name}`)
  })

  test('named schemas are components, referenced where they are used; none is dangling or unused', () => {
    const schemas: Json = doc.components.schemas
    assert.ok(Object.keys(schemas).length >= 20, Object.keys(schemas).join(' '))
    const text = JSON.stringify(doc)
    const refs = new Set([...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!))
    for (const ref of refs) assert.ok(schemas[ref], `#/components/schemas/${ref} is defined`)
    for (const name of Object.keys(schemas)) assert.ok(refs.has(name), `${name} is referenced`)
    // Every line of the table whose operation exists names a component.
    for (const { name, at } of namedSchemas) {
      const [method, path] = at.split(' ')
      if (paths[path!]?.[method!.toLowerCase()]) assert.ok(schemas[name], `${name} (at ${at}) is a component`)
    }
    for (const name of [
      'Failure',
      'AlertRequest',
      'SyncAnswer',
      'Delivery',
      'DeliveryAttempt',
      'DeliveryPage',
    ])
      assert.ok(schemas[name], name)
    const sync = paths['/api/oem-alerts-api/alert/sync']!.post!
    assert.deepEqual(sync.requestBody?.content?.['application/json']?.schema, {
      $ref: '#/components/schemas/AlertRequest',
    })
    assert.deepEqual(
      paths['/api/vendor-api/organization/accounts']!.get!.responses!['401']!.content!['application/json']!
        .schema,
      { $ref: '#/components/schemas/Failure' },
    )
  })

  test('the failure schemas enumerate the error codes of src/platform/core/errors.ts', () => {
    for (const name of ['Failure', 'SyncFailure', 'WebhookFailure', 'OAuthFailure'])
      assert.deepEqual(doc.components.schemas[name].properties.error.enum, [...errorCodes], name)
    const notFound = paths['/api/oem-alerts-api/alert/sync']!.post!.responses!['404']!.description!
    for (const code of ['INTEGRATION_NOT_FOUND', 'ACCOUNT_NOT_MAPPED', 'NO_RULE'])
      assert.match(notFound, new RegExp(code))
  })

  test('servers: a relative "/" without PUBLIC_URL', () => {
    assert.deepEqual(
      doc.servers.map((s: Json) => s.url),
      ['/'],
    )
  })

  test('the token endpoint documents its three forms: JSON, form-encoded and HTTP Basic, and its spelling', async () => {
    const op = paths['/api/oauth/token']!.post!
    const content = op.requestBody!.content!
    assert.deepEqual(Object.keys(content).sort(), ['application/json', 'application/x-www-form-urlencoded'])
    for (const m of Object.values(content)) {
      assert.deepEqual(m.schema, { $ref: '#/components/schemas/TokenRequest' })
      assert.ok(Object.keys(m.examples).length >= 2)
    }
    assert.deepEqual(op.security, [{}, { clientBasic: [] }])
    assert.equal(doc.components.securitySchemes.clientBasic.scheme, 'basic')
    assert.match(op.description!, /grant_type/)
    assert.match(op.description!, /grantType/)
    assert.match(doc.components.schemas.TokenRequest.properties.grant_type.description, /grantType/)

    // What the document says works: each form gets a token.
    const vendor = await svc.request('POST', '/api/admin/vendors', {
      token: svc.adminToken,
      body: { name: 'OpenAPI forms' },
    })
    assert.equal(vendor.status, 201, vendor.text)
    const { clientId, clientSecret } = vendor.body
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`
    const forms = [
      svc.request('POST', '/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
      }),
      svc.request('POST', '/api/oauth/token', {
        raw: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      svc.request('POST', '/api/oauth/token', {
        raw: 'grant_type=client_credentials&scope=vendor_manage',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      }),
    ]
    for (const res of await Promise.all(forms)) {
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.token_type, 'Bearer')
    }
    // The alert body's spelling is not the token request's.
    const camel = await svc.request('POST', '/api/oauth/token', {
      body: { grantType: 'client_credentials', clientId, clientSecret },
    })
    assert.equal(camel.status, 400)
    assert.equal(camel.body.error, 'invalid_request')
  })

  test('the document is served at /openapi.json too, the same as /docs/json', async () => {
    const [served, docs] = await Promise.all([
      svc.request('GET', '/openapi.json'),
      svc.request('GET', '/docs/json'),
    ])
    assert.equal(served.status, 200)
    assert.match(served.headers.get('content-type') ?? '', /application\/json/)
    assert.equal(served.body.openapi, '3.1.0')
    assert.deepEqual(Object.keys(served.body.paths), Object.keys(docs.body.paths))
  })

  test('the vendor API, token and billing calls are documented', () => {
    for (const [path, method] of [
      ['/api/oem-api/integration/list', 'get'],
      ['/api/vendor-api/organization/accounts', 'get'],
      ['/api/vendor-api/organization/accounts', 'post'],
      ['/api/vendor-api/organization/services', 'get'],
      ['/api/vendor-api/status/mapping', 'get'],
      ['/api/admin/vendors/{id}/tokens', 'get'],
      ['/api/admin/vendors/{id}/tokens/{tokenId}/revoke', 'post'],
      ['/api/admin/vendors/{id}/tokens/revoke', 'post'],
      ['/api/vendor-api/usage', 'get'],
      ['/api/vendor-api/service/{serviceId}/count', 'get'],
      ['/api/partner/integrations/{id}/services', 'get'],
      ['/api/partner/integrations/{id}/services/{serviceId}', 'put'],
      ['/api/partner/integrations/{id}/usage', 'get'],
      ['/api/partner/integrations/{id}/usage/history', 'get'],
    ] as const) {
      assert.ok(paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`)
    }
  })

  test('the vendor guide and the other docs pages are served beside the reference, rendered', async () => {
    for (const path of ['/docs/vendors', '/docs/vendors.md']) {
      const res = await svc.request('GET', path)
      assert.equal(res.status, 200, path)
      assert.match(res.headers.get('content-type') ?? '', /text\/html/)
      assert.match(res.text, /<h2[^>]*>Verifying signatures<\/h2>/)
      assert.match(res.text, /<table>/)
      // Relative links of the guide resolve to served pages.
      assert.match(res.text, /href="contract.md#webhook-events"/)
    }
    assert.equal((await svc.request('GET', '/docs/contract.md')).status, 200)
    assert.equal((await svc.request('GET', '/docs/psa/sync.md')).status, 200)
    const missing = await svc.request('GET', '/docs/no-such-page.md')
    assert.equal(missing.status, 404, missing.text)
    assert.equal(missing.body.error, 'NOT_FOUND')
    // The reference's own pages are still swagger-ui's.
    assert.equal((await svc.request('GET', '/docs/json')).status, 200)
    assert.equal((await svc.request('GET', '/docs/static/index.html')).status, 200)
    assert.equal((await svc.request('GET', '/docs/static/swagger-ui.css')).status, 200)
    const doc = await svc.request('GET', '/openapi.json')
    assert.match(doc.body.info.description, /\/docs\/vendors/)
    assert.deepEqual(Object.keys(doc.body.webhooks).sort(), ['state_snapshot', 'status_update'])
    assert.ok(doc.body.components.schemas.StatusUpdateEvent)
  })
})

describe('the OpenAPI document of an app with the parts the composition root gives', () => {
  test('PUBLIC_URL is the server; webhooks and more named schemas are taken in; a route without operation({...}) still gets an operationId', async () => {
    const app = Fastify()
    const Event = Type.Object({ type: Type.Literal('ping'), at: Type.String() })
    await registerOpenApi(app as never, {
      publicUrl: 'https://alerts.example.com',
      schemas: { PingEvent: Event },
      webhooks: {
        ping: {
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/PingEvent' } } },
            },
            responses: { '200': { description: 'received' } },
          },
        },
      },
    })
    app.post(
      '/api/things/:id',
      { schema: { tags: ['x'], summary: 'x', body: Event, response: { 200: Event } } },
      async () => ({ type: 'ping', at: '2026-01-31T12:00:00Z' }),
    )
    await app.ready()
    const doc = app.swagger() as Json
    assert.deepEqual(doc.servers, [
      { url: 'https://alerts.example.com', description: 'this installation (PUBLIC_URL)' },
    ])
    assert.ok(doc.webhooks.ping)
    assert.equal(doc.components.schemas.PingEvent.type, 'object')
    const op = doc.paths['/api/things/{id}'].post
    assert.equal(op.operationId, 'postThingsById')
    assert.deepEqual(op.requestBody.content['application/json'].schema, {
      $ref: '#/components/schemas/PingEvent',
    })
    assert.deepEqual(op.requestBody.content['application/json'].example, {
      type: 'ping',
      at: '2026-01-31T12:00:00.000Z',
    })
    // Validation still sees the route's own schema.
    const bad = await app.inject({ method: 'POST', url: '/api/things/1', payload: { type: 'pong' } })
    assert.equal(bad.statusCode, 400)
    await app.close()
  })
})
