// The operator API (docs/operations.md#the-admin-api).
import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`operator API (${backend})`, () => {
    let svc: TestService
    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    test('every admin route needs the admin token', async () => {
      for (const [method, path] of [
        ['GET', '/api/admin/vendors'],
        ['POST', '/api/admin/vendors'],
        ['GET', '/api/admin/partners'],
        ['POST', '/api/admin/integrations'],
      ] as const) {
        const body = method === 'GET' ? undefined : {}
        expectFailure(await svc.request(method, path, { body }), 401, 'UNAUTHENTICATED')
        expectFailure(await svc.request(method, path, { token: 'wrong', body }), 401, 'INVALID_CREDENTIALS')
      }
    })

    test('vendors: created with secrets shown once, read and changed without them', async () => {
      const created = await admin('POST', '/api/admin/vendors', {
        name: 'Sentinel',
        webhookUrl: 'https://hooks.example.com/alertbridge',
        webhookAuthHeader: 'Bearer vendor-key',
        productGroups: { EDR: 'Malware, Ransomware' },
        rateLimitPerMinute: 120,
      })
      assert.equal(created.status, 201, created.text)
      assert.match(created.body.clientId, /^cli_/)
      assert.match(created.body.clientSecret, /^abs_/)
      assert.match(created.body.webhookSecret, /^whsec_/)
      assert.deepEqual(created.body.productGroups, { EDR: ['Malware', 'Ransomware'] })
      assert.equal(created.body.hasWebhookAuthHeader, true)
      const read = await admin('GET', `/api/admin/vendors/${created.body.id}`)
      assert.equal(read.body.clientSecret, undefined)
      assert.equal(read.body.webhookSecret, undefined)
      assert.equal(JSON.stringify(read.body).includes('vendor-key'), false)
      const patched = await admin('PATCH', `/api/admin/vendors/${created.body.id}`, {
        rateLimitPerMinute: null,
        webhookUrl: null,
      })
      assert.equal(patched.body.rateLimitPerMinute, null)
      assert.equal(patched.body.webhookUrl, null)
      assert.equal(patched.body.name, 'Sentinel')
      const list = await admin('GET', '/api/admin/vendors')
      assert.ok(list.body.data.some((v: { id: string }) => v.id === created.body.id))
      expectFailure(await admin('GET', '/api/admin/vendors/nope'), 404, 'NOT_FOUND')
      expectFailure(await admin('POST', '/api/admin/vendors', { name: '' }), 400, 'VALIDATION_FAILED')
      expectFailure(
        await admin('POST', '/api/admin/vendors', { name: 'x', webhookUrl: 'ftp://x' }),
        400,
        'VALIDATION_FAILED',
      )
    })

    test('partners: PSA settings are checked per kind and secrets are masked', async () => {
      const created = await admin('POST', '/api/admin/partners', {
        name: 'MSP',
        psa: { kind: 'sandbox', defaults: { board: 'Ops' } },
      })
      assert.equal(created.status, 201, created.text)
      assert.match(created.body.apiKey, /^abp_/)
      assert.deepEqual(created.body.psa, { kind: 'sandbox', defaults: { board: 'Ops' } })
      const bad = await admin('POST', '/api/admin/partners', {
        name: 'MSP',
        psa: { kind: 'sandbox', companies: 'all' },
      })
      expectFailure(bad, 400, 'VALIDATION_FAILED')
      assert.match(bad.body.detail, /psa\/companies/)
      expectFailure(
        await admin('POST', '/api/admin/partners', { name: 'MSP', psa: { kind: 'pigeon' } }),
        400,
        'VALIDATION_FAILED',
      )
      const renamed = await admin('PATCH', `/api/admin/partners/${created.body.id}`, { name: 'MSP 2' })
      assert.equal(renamed.body.name, 'MSP 2')
      assert.equal(renamed.body.apiKey, undefined)
    })

    test('integrations: one per vendor and partner, created in state created', async () => {
      const v = (await admin('POST', '/api/admin/vendors', { name: 'V' })).body
      const p = (await admin('POST', '/api/admin/partners', { name: 'P', psa: { kind: 'sandbox' } })).body
      const created = await admin('POST', '/api/admin/integrations', { vendorId: v.id, partnerId: p.id })
      assert.equal(created.status, 201, created.text)
      assert.equal(created.body.state, 'created')
      assert.equal(created.body.isIntegrationActive, false)
      assert.match(created.body.organizationOemToken, /^abo_/)
      expectFailure(
        await admin('POST', '/api/admin/integrations', { vendorId: v.id, partnerId: p.id }),
        409,
        'CONFLICT',
      )
      expectFailure(
        await admin('POST', '/api/admin/integrations', { vendorId: 'x', partnerId: p.id }),
        404,
        'NOT_FOUND',
      )
      const off = await admin('PATCH', `/api/admin/integrations/${created.body.integrationId}`, {
        alertsEnabled: false,
      })
      assert.equal(off.body.alertsEnabled, false)
      const list = await admin('GET', `/api/admin/integrations?vendorId=${v.id}`)
      assert.equal(list.body.data.length, 1)
      assert.equal(list.body.data[0].organizationOemToken, undefined)
    })

    test('bad input to the operator API is a 400 naming the field and the rule, and changes nothing', async () => {
      const v = (await admin('POST', '/api/admin/vendors', { name: 'V' })).body
      const p = (await admin('POST', '/api/admin/partners', { name: 'P', psa: { kind: 'sandbox' } })).body
      const deep = `{"name":"P","psa":{"kind":"sandbox","x":${'['.repeat(5000)}${']'.repeat(5000)}}}`
      for (const [method, path, body, detail] of [
        ['GET', '/api/admin/vendors/%00', undefined, /params\/id .*NUL/],
        ['PATCH', '/api/admin/vendors/v%00', { name: 'W' }, /params\/id .*NUL/],
        ['GET', '/api/admin/partners/%00', undefined, /params\/id .*NUL/],
        ['GET', '/api/admin/integrations/%00', undefined, /params\/id .*NUL/],
        ['GET', '/api/admin/integrations?vendorId=%00', undefined, /querystring\/vendorId .*NUL/],
        ['GET', '/api/admin/vendors/%00/tokens', undefined, /params\/id .*NUL/],
        ['POST', `/api/admin/vendors/${v.id}/tokens/t%00/revoke`, undefined, /params\/tokenId .*NUL/],
        ['POST', '/api/admin/vendors', { name: 'V\u0000' }, /body\/name .*NUL/],
        [
          'POST',
          '/api/admin/vendors',
          { name: 'V', productGroups: { 'G\u0000': ['a'] } },
          /body\/productGroups .*NUL/,
        ],
        ['POST', '/api/admin/partners', { name: 'P\u0000', psa: { kind: 'sandbox' } }, /body\/name .*NUL/],
        [
          'POST',
          '/api/admin/integrations',
          { vendorId: v.id, partnerId: `${p.id}\u0000` },
          /body\/partnerId .*NUL/,
        ],
        [
          'POST',
          '/api/admin/partners',
          { name: 'P', psa: { kind: 'sandbox', board: 'x' } },
          /psa\/board is not a setting/,
        ],
        [
          'PATCH',
          `/api/admin/partners/${p.id}`,
          { psa: { kind: 'sandbox', token: 'x' } },
          /psa\/token is not a setting/,
        ],
        ['POST', '/api/admin/partners', deep, /body\/psa\/x.* deeper than 32 levels/],
      ] as const) {
        const before = await svc.snapshot()
        const res =
          typeof body === 'string'
            ? await svc.request(method, path, { token: svc.adminToken, raw: body })
            : await admin(method, path, body)
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, detail, `${method} ${path}: ${res.text}`)
        assert.deepEqual(await svc.snapshot(), before, `${method} ${path}: nothing changed`)
      }
    })

    test('the router’s own refusals are 400s in the failure envelope, not Fastify’s shape', async () => {
      for (const path of [
        '/api/admin/vendors/%E0%A4%A',
        '/api/admin/vendors/%zz',
        `/api/admin/vendors/${'x'.repeat(513)}`,
      ]) {
        const before = await svc.snapshot()
        const res = await admin('GET', path)
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.equal(res.headers.get('x-request-id'), res.body.requestId)
        assert.match(res.body.detail, /percent-encoding|longer than 512 characters/, res.text)
        assert.deepEqual(await svc.snapshot(), before)
      }
      // Up to 512 characters the route's own schema answers, naming the parameter and its limit.
      const long = await admin('GET', `/api/admin/vendors/${'x'.repeat(200)}`)
      expectFailure(long, 400, 'VALIDATION_FAILED')
      assert.match(long.body.detail, /params\/id must not have more than 64 characters/)
    })

    test('a request that is not HTTP (a NUL in a header, headers over 16 KiB) gets the envelope too', async () => {
      /** Sends raw bytes and reads the whole answer: status, headers and the parsed body. */
      const raw = (head: string) =>
        new Promise<{ status: number; headers: string; body: Record<string, unknown> }>((resolve, reject) => {
          const url = new URL(svc.url)
          let text = ''
          const socket = net.connect(Number(url.port), url.hostname, () =>
            socket.write(Buffer.from(head, 'latin1')),
          )
          socket.on('data', (d) => {
            text += d.toString('utf8')
          })
          socket.on('error', reject)
          socket.on('close', () => {
            const [headers = '', body = ''] = text.split('\r\n\r\n')
            resolve({ status: Number(headers.split(' ')[1]), headers, body: JSON.parse(body) })
          })
        })
      const before = await svc.snapshot()
      for (const [head, status, error] of [
        [
          `GET /api/admin/vendors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.adminToken}\u0000\r\n\r\n`,
          400,
          'VALIDATION_FAILED',
        ],
        [
          `GET /api/admin/vendors HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(17_000)}\r\n\r\n`,
          431,
          'HEADERS_TOO_LARGE',
        ],
      ] as const) {
        const res = await raw(head)
        assert.equal(res.status, status, res.headers)
        assert.equal(res.body.statusCode, status)
        assert.equal(res.body.message, 'failed')
        assert.equal(res.body.error, error)
        assert.equal(typeof res.body.detail, 'string')
        assert.match(res.headers, new RegExp(`x-request-id: ${String(res.body.requestId)}`))
      }
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('health, readiness, the OpenAPI document and unknown routes', async () => {
      assert.deepEqual((await svc.request('GET', '/healthz')).body, { status: 'ok' })
      assert.deepEqual((await svc.request('GET', '/readyz')).body, {
        status: 'ok',
        checks: backend === 'postgres+redis' ? { database: 'ok', redis: 'ok' } : { database: 'ok' },
      })
      const doc = await svc.request('GET', '/docs/json')
      assert.equal(doc.status, 200)
      assert.equal(doc.body.openapi, '3.1.0')
      for (const path of [
        '/api/oem-alerts-api/alert/sync',
        '/api/oauth/token',
        '/api/partner/integrations/{id}/rules',
        '/api/admin/vendors',
      ]) {
        assert.ok(doc.body.paths[path], `${path} is documented`)
      }
      expectFailure(await svc.request('GET', '/api/nothing-here'), 404, 'NOT_FOUND')
    })
  })
}
