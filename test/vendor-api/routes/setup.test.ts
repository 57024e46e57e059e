// The vendor's token and setup calls (docs/contract.md#vendor-api-calls) and the lifecycle they drive
// (docs/contract.md#integration-states): from a new integration to a first ticket through the APIs alone.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { catalogue } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncSuccess } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`vendor setup calls (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    before(async () => {
      svc = await startService({ backend, clock })
    })
    after(() => svc.close())

    async function newIntegration() {
      const admin = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: svc.adminToken, body })
      const vendor = (await admin('POST', '/api/admin/vendors', { name: 'V', productGroups: catalogue })).body
      const partner = (await admin('POST', '/api/admin/partners', { name: 'P', psa: { kind: 'sandbox' } }))
        .body
      const integration = (
        await admin('POST', '/api/admin/integrations', { vendorId: vendor.id, partnerId: partner.id })
      ).body
      return { vendor, partner, integration }
    }

    test('from a new integration to a first ticket through the APIs alone', async () => {
      const { vendor, partner, integration } = await newIntegration()
      assert.equal(integration.state, 'created')
      const token = await svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: vendor.clientId,
          client_secret: vendor.clientSecret,
          scope: 'vendor_manage',
          organization_oem_token: integration.organizationOemToken,
        },
      })
      assert.equal(token.status, 200, token.text)
      assert.equal(token.body.token_type, 'Bearer')
      assert.equal(token.body.expires_in, 3600)
      assert.equal(token.body.integration_id, integration.integrationId)
      assert.equal(token.headers.get('cache-control'), 'no-store')
      const v = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: token.body.access_token, body })
      const p = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: partner.apiKey, body })

      const account = await v('POST', '/api/vendor-api/organization/accounts', {
        vendorAccountId: 'c-1',
        name: 'Contoso',
        externalId: 'X1',
      })
      assert.equal(account.status, 201, account.text)
      const service = await v('POST', '/api/vendor-api/organization/services', {
        id: 'edr',
        name: 'EDR',
        description: 'Endpoint detection',
      })
      assert.equal(service.status, 201, service.text)

      // Alerts and usage counts need pending or connected.
      const early = await v('POST', '/api/vendor-api/service/edr/count', { unitCount: 5, accountId: 'c-1' })
      expectFailure(early, 409, 'INTEGRATION_NOT_ACTIVE')
      assert.match(early.body.detail, /'created'/)
      expectFailure(
        await p('POST', `/api/partner/integrations/${integration.integrationId}/complete-mapping`),
        409,
        'INVALID_STATE',
      )

      const mapping = await v('PATCH', '/api/vendor-api/status/mapping', {
        id: integration.integrationId,
        name: 'x',
        description: 'y',
      })
      assert.deepEqual(mapping.body, { integrationId: integration.integrationId, state: 'mapping' })

      const noAccounts = await p(
        'POST',
        `/api/partner/integrations/${integration.integrationId}/complete-mapping`,
      )
      expectFailure(noAccounts, 409, 'INVALID_STATE')
      assert.match(noAccounts.body.detail, /at least one account/)

      const accounts = await p('GET', `/api/partner/integrations/${integration.integrationId}/accounts`)
      assert.deepEqual(accounts.body.data, [
        { vendorAccountId: 'c-1', name: 'Contoso', externalId: 'X1', mapping: null },
      ])
      const put = await p('PUT', `/api/partner/integrations/${integration.integrationId}/accounts/c-1`, {
        psaCompanyId: '101',
        board: 'Security',
      })
      assert.deepEqual(put.body, { accountId: 'c-1', psaCompanyId: '101', board: 'Security' })
      const rule = await p('POST', `/api/partner/integrations/${integration.integrationId}/rules`, {
        productGroup: 'Endpoint Security',
        alertTypes: ['Malware Detected'],
        ticket: { priority: 'P1 - Critical' },
      })
      assert.equal(rule.status, 201, rule.text)
      const complete = await p(
        'POST',
        `/api/partner/integrations/${integration.integrationId}/complete-mapping`,
      )
      assert.equal(complete.body.state, 'pending')
      assert.equal(complete.body.isIntegrationActive, true)

      const count = await v('POST', '/api/vendor-api/service/edr/count', { unitCount: 5, accountId: 'c-1' })
      assert.equal(count.status, 201, count.text)
      assert.equal(count.body.integrationState, 'connected')

      const alert = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: {
          clientId: vendor.clientId,
          clientSecret: vendor.clientSecret,
          grantType: 'client_credentials',
          scope: 'vendor_manage',
          organizationOemToken: integration.organizationOemToken,
          integrationId: integration.integrationId,
          data: {
            title: 'Malware',
            summary: 's',
            alertType: 'Malware Detected',
            accountId: 'c-1',
            productGroup: 'Endpoint Security',
            incidentStatus: 'OPEN',
          },
        },
      })
      expectSyncSuccess(alert, { status: 201, message: 'created' })
      const sandbox = await p('GET', '/api/partner/sandbox/tickets')
      assert.equal(sandbox.body.data[0].companyId, '101')
      assert.equal(sandbox.body.data[0].board, 'Security')
      assert.equal(sandbox.body.data[0].priority, 'P1 - Critical')
    })

    test('accounts and services are idempotent per id', async () => {
      const { vendor, integration } = await newIntegration()
      const token = await svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: vendor.clientId,
          client_secret: vendor.clientSecret,
        },
      })
      const t = token.body.access_token
      const q = `?integrationId=${integration.integrationId}`
      const first = await svc.request('POST', `/api/vendor-api/organization/accounts${q}`, {
        token: t,
        body: { vendorAccountId: 'a', name: 'A' },
      })
      const again = await svc.request('POST', `/api/vendor-api/organization/accounts${q}`, {
        token: t,
        body: { vendorAccountId: 'a', name: 'A2' },
      })
      assert.equal(first.status, 201)
      assert.equal(again.status, 200)
      assert.equal(again.body.name, 'A2')
      const list = await svc.services.store.vendorData.listAccounts(integration.integrationId, { limit: 10 })
      assert.equal(list.length, 1)
      const unbound = await svc.request('POST', '/api/vendor-api/organization/services', {
        token: t,
        body: { id: 's', name: 'S' },
      })
      expectFailure(unbound, 400, 'VALIDATION_FAILED')
      assert.match(unbound.body.detail, /integrationId/)
    })

    test('usage counts for unknown services or accounts are refused with what to create', async () => {
      const { vendor, partner, integration } = await newIntegration()
      const t = (
        await svc.request('POST', '/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: vendor.clientId,
            client_secret: vendor.clientSecret,
            organization_oem_token: integration.organizationOemToken,
          },
        })
      ).body.access_token
      // Bring the integration to pending the way a real vendor and partner do.
      const v = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: t, body })
      const p = (method: string, path: string, body?: unknown) =>
        svc.request(method, path, { token: partner.apiKey, body })
      await v('POST', '/api/vendor-api/organization/accounts', { vendorAccountId: 'a', name: 'A' })
      await v('PATCH', '/api/vendor-api/status/mapping', {})
      await p('PUT', `/api/partner/integrations/${integration.integrationId}/accounts/a`, {
        psaCompanyId: '100',
      })
      const pending = await p(
        'POST',
        `/api/partner/integrations/${integration.integrationId}/complete-mapping`,
      )
      assert.equal(pending.body.state, 'pending')
      const res = await svc.request('POST', '/api/vendor-api/service/nope/count', {
        token: t,
        body: { unitCount: 1, accountId: 'x' },
      })
      expectFailure(res, 404, 'NOT_FOUND')
      assert.match(res.body.detail, /organization\/services/)
      const neg = await svc.request('POST', '/api/vendor-api/service/nope/count', {
        token: t,
        body: { unitCount: -1, accountId: 'x' },
      })
      expectFailure(neg, 400, 'VALIDATION_FAILED')
    })

    test('the token endpoint: form encoding, HTTP Basic, and RFC 6749 errors', async () => {
      const { vendor } = await newIntegration()
      const form = await svc.request('POST', '/api/oauth/token', {
        raw: `grant_type=client_credentials&client_id=${vendor.clientId}&client_secret=${encodeURIComponent(vendor.clientSecret)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      assert.equal(form.status, 200, form.text)
      const basic = await svc.request('POST', '/api/oauth/token', {
        body: { grant_type: 'client_credentials' },
        headers: {
          authorization: `Basic ${Buffer.from(`${vendor.clientId}:${vendor.clientSecret}`).toString('base64')}`,
        },
      })
      assert.equal(basic.status, 200, basic.text)

      const bad = await svc.request('POST', '/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: vendor.clientId, client_secret: 'wrong' },
      })
      expectFailure(bad, 401, 'invalid_client')
      assert.equal(bad.body.error_description, bad.body.detail)
      expectFailure(
        await svc.request('POST', '/api/oauth/token', { body: { grant_type: 'password' } }),
        400,
        'unsupported_grant_type',
      )
      expectFailure(await svc.request('POST', '/api/oauth/token', { body: {} }), 400, 'invalid_request')
      expectFailure(
        await svc.request('POST', '/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: vendor.clientId,
            client_secret: vendor.clientSecret,
            scope: 'admin',
          },
        }),
        400,
        'invalid_scope',
      )
      expectFailure(
        await svc.request('POST', '/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: vendor.clientId,
            client_secret: vendor.clientSecret,
            organization_oem_token: 'abo_wrong',
          },
        }),
        401,
        'invalid_client',
      )
    })

    test('the token endpoint refuses NUL and malformed Basic credentials with 400 invalid_request, changing nothing', async () => {
      const { vendor, integration } = await newIntegration()
      const form = { 'content-type': 'application/x-www-form-urlencoded' }
      const basic = (pair: string) => ({ authorization: `Basic ${Buffer.from(pair).toString('base64')}` })
      const grant = { grant_type: 'client_credentials' }
      const cases: [string, Parameters<TestService['request']>[2], RegExp][] = [
        ['JSON client_id', { body: { ...grant, client_id: 'cli\u0000x', client_secret: 's' } }, /client_id/],
        [
          'JSON client_secret',
          { body: { ...grant, client_id: vendor.clientId, client_secret: `${vendor.clientSecret}\u0000` } },
          /client_secret/,
        ],
        [
          'JSON organization_oem_token',
          {
            body: {
              ...grant,
              client_id: vendor.clientId,
              client_secret: vendor.clientSecret,
              organization_oem_token: `${integration.organizationOemToken}\u0000`,
            },
          },
          /organization_oem_token/,
        ],
        [
          'form client_id',
          { raw: 'grant_type=client_credentials&client_id=a%00b&client_secret=s', headers: form },
          /client_id/,
        ],
        [
          'form client_secret',
          {
            raw: `grant_type=client_credentials&client_id=${vendor.clientId}&client_secret=%00`,
            headers: form,
          },
          /client_secret/,
        ],
        [
          'Basic client id',
          { raw: 'grant_type=client_credentials', headers: { ...form, ...basic('a\u0000b:s') } },
          /client id/,
        ],
        [
          'Basic secret, percent-encoded',
          { body: grant, headers: basic(`${vendor.clientId}:%00`) },
          /secret/,
        ],
        ['Basic, broken percent-encoding', { body: grant, headers: basic('%E0%A4%A:s') }, /percent-encod/],
        [
          'Basic, a lone percent sign',
          { body: grant, headers: basic(`${vendor.clientId}:100%`) },
          /percent-encod/,
        ],
      ]
      for (const [name, options, names] of cases) {
        const before = await svc.snapshot()
        const res = await svc.request('POST', '/api/oauth/token', options)
        expectFailure(res, 400, 'invalid_request')
        assert.match(res.body.error_description, names, `${name}: ${res.text}`)
        assert.equal(res.body.error_description, res.body.detail)
        assert.deepEqual(await svc.snapshot(), before, `${name}: nothing changed`)
      }
      // Well-formed Basic credentials still work, percent-encoded or not.
      const ok = await svc.request('POST', '/api/oauth/token', {
        body: grant,
        headers: basic(`${encodeURIComponent(vendor.clientId)}:${encodeURIComponent(vendor.clientSecret)}`),
      })
      assert.equal(ok.status, 200, ok.text)
    })

    test('a malformed token request of any kind answers an RFC 6749 code: invalid_request', async () => {
      for (const [options, status] of [
        [{}, 400], // no body at all
        [{ body: { grant_type: 'client_credentials', client_id: 42 } }, 400],
        [
          { body: { grant_type: 'client_credentials', extra: { deep: [1] }, client_id: 'x'.repeat(513) } },
          400,
        ],
        [{ raw: '{"grant_type":' }, 400],
        [{ raw: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } }, 415],
        [{ body: { grant_type: 'client_credentials', client_secret: 'x'.repeat(300 * 1024) } }, 413],
      ] as const) {
        const res = await svc.request('POST', '/api/oauth/token', options)
        expectFailure(res, status, 'invalid_request')
        assert.equal(res.body.error_description, res.body.detail)
      }
    })

    test('NUL in a setup or usage call is a 400 naming the field, and changes nothing', async () => {
      const { vendor, integration } = await newIntegration()
      const token = await svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: vendor.clientId,
          client_secret: vendor.clientSecret,
          organization_oem_token: integration.organizationOemToken,
        },
      })
      const t = token.body.access_token
      for (const [method, path, body, detail] of [
        [
          'POST',
          '/api/vendor-api/organization/accounts',
          { vendorAccountId: 'a\u0000', name: 'A' },
          /body\/vendorAccountId .*NUL/,
        ],
        [
          'POST',
          '/api/vendor-api/organization/accounts',
          [{ vendorAccountId: 'a', name: 'A\u0000' }],
          /body\/0\/name .*NUL/,
        ],
        [
          'POST',
          '/api/vendor-api/organization/services',
          { id: 's', name: 'S', description: '\u0000' },
          /body\/description .*NUL/,
        ],
        ['PATCH', '/api/vendor-api/status/mapping', { id: '\u0000' }, /body\/id .*NUL/],
        [
          'POST',
          '/api/vendor-api/service/s%00/count',
          { unitCount: 1, accountId: 'a' },
          /params\/serviceId .*NUL/,
        ],
        [
          'POST',
          '/api/vendor-api/service/s/count',
          { unitCount: 1, accountId: 'a\u0000' },
          /body\/accountId .*NUL/,
        ],
        ['GET', '/api/vendor-api/usage?accountId=%00', undefined, /querystring\/accountId .*NUL/],
        [
          'GET',
          '/api/vendor-api/organization/accounts?integrationId=%00',
          undefined,
          /querystring\/integrationId .*NUL/,
        ],
        [
          'GET',
          '/api/oem-api/integration/list?integrationId=%00',
          undefined,
          /querystring\/integrationId .*NUL/,
        ],
        [
          'PUT',
          '/api/vendor-api/product-groups',
          { productGroups: { 'G\u0000': ['a'] } },
          /body\/productGroups .*NUL/,
        ],
        [
          'PUT',
          '/api/vendor-api/product-groups',
          { productGroups: [{ productGroup: 'G', alertTypes: 'a,\u0000' }] },
          /body\/productGroups\/0\/alertTypes .*NUL/,
        ],
      ] as const) {
        const before = await svc.snapshot()
        const res = await svc.request(method, path, { token: t, body })
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, detail, `${method} ${path}: ${res.text}`)
        assert.deepEqual(await svc.snapshot(), before, `${method} ${path}: nothing changed`)
      }
    })

    test('an expired token answers 401 TOKEN_EXPIRED saying so', async () => {
      const { vendor } = await newIntegration()
      const token = await svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: vendor.clientId,
          client_secret: vendor.clientSecret,
        },
      })
      const t = token.body.access_token
      assert.equal((await svc.request('GET', '/api/oem-alerts-api/alert', { token: t })).status, 200)
      clock.advance(3601_000)
      const res = await svc.request('GET', '/api/oem-alerts-api/alert', { token: t })
      expectFailure(res, 401, 'TOKEN_EXPIRED')
      assert.match(res.body.detail, /expired at/)
    })
  })
}
