// The operator API (DESIGN §7).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { backends, startService, type TestService } from '../helpers/service.js'
import { expectFailure } from '../helpers/shapes.js'

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

    test('health, readiness, the OpenAPI document and unknown routes', async () => {
      assert.deepEqual((await svc.request('GET', '/healthz')).body, { status: 'ok' })
      assert.deepEqual((await svc.request('GET', '/readyz')).body, { status: 'ok' })
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
