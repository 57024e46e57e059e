// The OpenAPI document (/docs/json) is the contract partners and vendors read: every API operation in
// it has a summary, a tag, its success response and the errors it can answer, each with a body schema.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { startService, type TestService } from '../helpers/service.js'

type Operation = {
  summary?: string
  parameters?: unknown[]
  requestBody?: unknown
  tags?: string[]
  security?: unknown[]
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>
}

describe('the OpenAPI document', () => {
  let svc: TestService
  let paths: Record<string, Record<string, Operation>>
  before(async () => {
    svc = await startService()
    const doc = await svc.request('GET', '/docs/json')
    assert.equal(doc.status, 200)
    paths = doc.body.paths
  })
  after(() => svc.close())

  const operations = () =>
    Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))

  test('every API operation has a summary, a tag, a 2xx and its error responses (400 with input, 401 with auth) with body schemas', () => {
    const ops = operations()
    assert.ok(ops.length > 50, `found ${ops.length} operations`)
    const problems: string[] = []
    for (const { path, method, op } of ops) {
      const name = `${method.toUpperCase()} ${path}`
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
})
