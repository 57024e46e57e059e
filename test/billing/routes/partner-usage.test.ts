// The partner's billing view (docs/partner-api.md#billing-usage): service mappings, the latest usage per
// account and service with what is mapped, the unmapped accounts and services, and the history of the
// counts.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`partner billing usage (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    before(async () => {
      svc = await startService({ backend, clock })
    })
    after(() => svc.close())

    const vendor = (s: Setup, method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: s.vendorToken, body })

    /**
     * A pending integration: accounts acme-001 (mapped to PSA company 100), globex-002 and
     * initech-003 (never counted); services edr, backup and spare (never counted).
     */
    async function billingSetup(): Promise<Setup> {
      const s = await setupIntegration(svc, { accounts: ['acme-001', 'globex-002', 'initech-003'] })
      for (const id of ['edr', 'backup', 'spare']) {
        const res = await vendor(s, 'POST', '/api/vendor-api/organization/services', {
          id,
          name: `Service ${id}`,
          description: `${id} seats`,
        })
        assert.equal(res.status, 201, res.text)
      }
      return s
    }

    async function count(s: Setup, serviceId: string, accountId: string, unitCount: number) {
      const res = await vendor(s, 'POST', `/api/vendor-api/service/${serviceId}/count`, {
        unitCount,
        accountId,
      })
      assert.equal(res.status, 201, res.text)
      clock.advance(60_000)
      return res.body as { id: string; createdAt: string }
    }

    const names = (rows: { id?: string; vendorAccountId?: string }[]) =>
      rows.map((r) => r.id ?? r.vendorAccountId)

    test('services are listed with their mapping; PUT maps, DELETE unmaps', async () => {
      const s = await billingSetup()
      const base = `/api/partner/integrations/${s.integrationId}/services`
      const list = await s.partner('GET', base)
      assert.equal(list.status, 200, list.text)
      assert.deepEqual(list.body.data[0], {
        id: 'backup',
        name: 'Service backup',
        description: 'backup seats',
        mapping: null,
      })
      assert.deepEqual(names(list.body.data), ['backup', 'edr', 'spare'])

      const put = await s.partner('PUT', `${base}/edr`, { psaProductId: 'P-EDR' })
      assert.equal(put.status, 200, put.text)
      assert.deepEqual(put.body, { serviceId: 'edr', psaProductId: 'P-EDR' })
      const changed = await s.partner('PUT', `${base}/edr`, { psaProductId: 'P-EDR-2' })
      assert.deepEqual(changed.body, { serviceId: 'edr', psaProductId: 'P-EDR-2' })
      const mapped = await s.partner('GET', base)
      assert.deepEqual(
        mapped.body.data.map((r: { mapping: unknown }) => r.mapping),
        [null, { psaProductId: 'P-EDR-2' }, null],
      )

      assert.equal((await s.partner('DELETE', `${base}/edr`)).status, 204)
      const again = await s.partner('DELETE', `${base}/edr`)
      expectFailure(again, 404, 'NOT_FOUND')
      assert.match(again.body.detail, /not mapped/)
      const after = await s.partner('GET', base)
      assert.ok(after.body.data.every((r: { mapping: unknown }) => r.mapping === null))
    })

    test('the usage view: the latest count per account and service, saying what is mapped', async () => {
      const s = await billingSetup()
      await count(s, 'edr', 'acme-001', 5)
      await count(s, 'edr', 'globex-002', 3)
      await count(s, 'edr', 'acme-001', 7)
      await count(s, 'backup', 'acme-001', 10)
      await s.partner('PUT', `/api/partner/integrations/${s.integrationId}/services/edr`, {
        psaProductId: 'P-EDR',
      })

      const res = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/usage`)
      assert.equal(res.status, 200, res.text)
      // Each row's push to the PSA is tested in test/billing/usage-push.<kind>.test.ts.
      const rows = res.body.data.map(
        ({ id: _id, createdAt: _at, push: _p, psaLineId: _l, ...r }: Record<string, unknown>) => r,
      )
      assert.deepEqual(rows, [
        {
          serviceId: 'backup',
          accountId: 'acme-001',
          unitCount: 10,
          accountMapped: true,
          psaCompanyId: '100',
          serviceMapped: false,
          psaProductId: null,
        },
        {
          serviceId: 'edr',
          accountId: 'acme-001',
          unitCount: 7,
          accountMapped: true,
          psaCompanyId: '100',
          serviceMapped: true,
          psaProductId: 'P-EDR',
        },
        {
          serviceId: 'edr',
          accountId: 'globex-002',
          unitCount: 3,
          accountMapped: false,
          psaCompanyId: null,
          serviceMapped: true,
          psaProductId: 'P-EDR',
        },
      ])
      assert.deepEqual(res.body.unmappedAccounts, [
        { vendorAccountId: 'globex-002', name: 'Company globex-002', externalId: 'GLOBEX-002' },
        { vendorAccountId: 'initech-003', name: 'Company initech-003', externalId: 'INITECH-003' },
      ])
      assert.deepEqual(res.body.unmappedServices, [
        { id: 'backup', name: 'Service backup', description: 'backup seats' },
        { id: 'spare', name: 'Service spare', description: 'spare seats' },
      ])
    })

    test('the unmapped lists change as the partner maps and unmaps accounts and services', async () => {
      const s = await billingSetup()
      await count(s, 'edr', 'globex-002', 3)
      const integration = `/api/partner/integrations/${s.integrationId}`
      const usage = async () => {
        const res = await s.partner('GET', `${integration}/usage`)
        assert.equal(res.status, 200, res.text)
        return {
          accounts: names(res.body.unmappedAccounts),
          services: names(res.body.unmappedServices),
          row: res.body.data[0],
        }
      }
      let u = await usage()
      assert.deepEqual(u.accounts, ['globex-002', 'initech-003'])
      assert.deepEqual(u.services, ['backup', 'edr', 'spare'])
      assert.equal(u.row.accountMapped, false)
      assert.equal(u.row.serviceMapped, false)

      assert.equal(
        (await s.partner('PUT', `${integration}/accounts/globex-002`, { psaCompanyId: '200' })).status,
        200,
      )
      assert.equal(
        (await s.partner('PUT', `${integration}/services/edr`, { psaProductId: 'P-EDR' })).status,
        200,
      )
      u = await usage()
      assert.deepEqual(u.accounts, ['initech-003'])
      assert.deepEqual(u.services, ['backup', 'spare'])
      assert.equal(u.row.psaCompanyId, '200')
      assert.equal(u.row.psaProductId, 'P-EDR')

      assert.equal((await s.partner('DELETE', `${integration}/accounts/acme-001`)).status, 204)
      assert.equal((await s.partner('DELETE', `${integration}/services/edr`)).status, 204)
      u = await usage()
      assert.deepEqual(u.accounts, ['acme-001', 'initech-003'])
      assert.deepEqual(u.services, ['backup', 'edr', 'spare'])
      assert.equal(u.row.serviceMapped, false)
      assert.equal(u.row.psaProductId, null)
      assert.equal(u.row.accountMapped, true, 'globex-002 stays mapped')
    })

    test('the history pages newest first and filters by service, account and time', async () => {
      const s = await billingSetup()
      const a = await count(s, 'edr', 'acme-001', 1)
      await count(s, 'backup', 'acme-001', 2)
      const c = await count(s, 'edr', 'globex-002', 3)
      await count(s, 'edr', 'acme-001', 4)
      await count(s, 'backup', 'globex-002', 5)
      const path = `/api/partner/integrations/${s.integrationId}/usage/history`
      const units = (res: { body: { data: { unitCount: number }[] } }) =>
        res.body.data.map((r) => r.unitCount)

      const seen: number[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
        const res = await s.partner('GET', `${path}?limit=2${q}`)
        assert.equal(res.status, 200, res.text)
        seen.push(...units(res))
        cursor = res.body.nextCursor
        pages++
      } while (cursor)
      assert.deepEqual(seen, [5, 4, 3, 2, 1])
      assert.equal(pages, 3)

      assert.deepEqual(units(await s.partner('GET', `${path}?serviceId=edr`)), [4, 3, 1])
      assert.deepEqual(units(await s.partner('GET', `${path}?accountId=globex-002`)), [5, 3])
      assert.deepEqual(units(await s.partner('GET', `${path}?serviceId=edr&accountId=acme-001`)), [4, 1])
      assert.deepEqual(
        units(
          await s.partner('GET', `${path}?since=${a.createdAt}&until=${encodeURIComponent(c.createdAt)}`),
        ),
        [2, 1],
      )
    })

    test("another partner's integration is 404 and nothing changes", async () => {
      const s = await billingSetup()
      await count(s, 'edr', 'acme-001', 5)
      const other = await setupIntegration(svc, { partnerName: 'Other MSP' })
      clock.advance(60_000) // lets the snapshot its set-up scheduled run before counting
      const before = await svc.counts()
      const integration = `/api/partner/integrations/${s.integrationId}`
      const calls: [string, string, unknown?][] = [
        ['GET', `${integration}/services`],
        ['PUT', `${integration}/services/edr`, { psaProductId: 'P-EDR' }],
        ['DELETE', `${integration}/services/edr`],
        ['GET', `${integration}/usage`],
        ['GET', `${integration}/usage/history`],
      ]
      for (const [method, path, body] of calls) {
        expectFailure(await other.partner(method, path, body), 404, 'INTEGRATION_NOT_FOUND')
        expectFailure(await svc.request(method, path, { body }), 401, 'UNAUTHENTICATED')
      }
      assert.deepEqual(await svc.counts(), before)
    })

    test('the billing routes are in the OpenAPI document with their errors', async () => {
      const doc = await svc.request('GET', '/docs/json')
      const paths = doc.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>
      for (const [path, method, codes] of [
        ['/api/vendor-api/service/{serviceId}/count', 'get', ['200', '400', '401', '403', '404']],
        ['/api/vendor-api/usage', 'get', ['200', '400', '401', '403', '404']],
        ['/api/partner/integrations/{id}/services', 'get', ['200', '400', '401', '403', '404']],
        ['/api/partner/integrations/{id}/services/{serviceId}', 'put', ['200', '400', '401', '403', '404']],
        [
          '/api/partner/integrations/{id}/services/{serviceId}',
          'delete',
          ['204', '400', '401', '403', '404'],
        ],
        ['/api/partner/integrations/{id}/usage', 'get', ['200', '400', '401', '403', '404']],
        ['/api/partner/integrations/{id}/usage/history', 'get', ['200', '400', '401', '403', '404']],
      ] as const) {
        const op = paths[path]?.[method]
        assert.ok(op, `${method.toUpperCase()} ${path} is documented`)
        assert.deepEqual(Object.keys(op.responses).sort(), [...codes], `${method.toUpperCase()} ${path}`)
      }
    })

    test('bad input is refused in the error shape and changes nothing', async () => {
      const s = await billingSetup()
      await count(s, 'edr', 'acme-001', 5)
      const before = await svc.counts()
      const integration = `/api/partner/integrations/${s.integrationId}`
      const bad: [string, string, unknown, number, string][] = [
        ['PUT', `${integration}/services/nope`, { psaProductId: 'P' }, 404, 'NOT_FOUND'],
        ['PUT', `${integration}/services/edr`, { psaProductId: '' }, 400, 'VALIDATION_FAILED'],
        ['PUT', `${integration}/services/edr`, {}, 400, 'VALIDATION_FAILED'],
        ['DELETE', `${integration}/services/edr`, undefined, 404, 'NOT_FOUND'],
        ['DELETE', `${integration}/services/nope`, undefined, 404, 'NOT_FOUND'],
        ['GET', `${integration}/usage/history?cursor=bm9wZQ`, undefined, 400, 'VALIDATION_FAILED'],
        ['GET', `${integration}/usage/history?limit=0`, undefined, 400, 'VALIDATION_FAILED'],
        ['GET', `${integration}/usage/history?limit=500`, undefined, 400, 'VALIDATION_FAILED'],
        ['GET', `${integration}/usage/history?serviceId=nope`, undefined, 404, 'NOT_FOUND'],
        ['GET', `${integration}/usage/history?accountId=nobody`, undefined, 404, 'ACCOUNT_UNKNOWN'],
        ['GET', `${integration}/usage/history?until=soon`, undefined, 400, 'VALIDATION_FAILED'],
        ['GET', '/api/partner/integrations/nope/usage', undefined, 404, 'INTEGRATION_NOT_FOUND'],
      ]
      for (const [method, path, body, status, error] of bad) {
        const res = await s.partner(method, path, body)
        expectFailure(res, status, error)
        assert.ok(res.body.detail.length > 10, `${method} ${path}: ${res.body.detail}`)
      }
      assert.deepEqual(await svc.counts(), before)
      const services = await s.partner('GET', `${integration}/services`)
      assert.ok(services.body.data.every((r: { mapping: unknown }) => r.mapping === null))
    })
  })
}
