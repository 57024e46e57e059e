// The setup wizard searches the vendor's accounts (docs/decisions/portal/account-mapping-at-scale.md: both
// lists searchable, for thousands of accounts): part of the name, the vendorAccountId or the externalId,
// case ignored, with the mapping filter and paging as before.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'

for (const backend of backends('databases')) {
  describe(`searching an integration's accounts (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc, { accounts: [], mapped: [], stopAt: 'mapping', rule: null })
      for (const [vendorAccountId, name, externalId] of [
        ['acme-001', 'ACME Corp.', 'EXT-1'],
        ['acme-002', 'Acme Labs', 'EXT-2'],
        ['globex-003', 'Globex Inc', 'GX_50%'],
        ['initech-004', 'Initech', 'EXT-4'],
      ]) {
        const res = await svc.request('POST', '/api/vendor-api/organization/accounts', {
          token: s.vendorToken,
          body: { vendorAccountId, name, externalId },
        })
        assert.equal(res.status, 201, res.text)
      }
      await s.partner('PUT', `/api/partner/integrations/${s.integrationId}/accounts/acme-001`, {
        psaCompanyId: '100',
      })
    })
    after(() => svc.close())

    const search = async (query: string) => {
      const res = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/accounts?${query}`)
      assert.equal(res.status, 200, res.text)
      return res.body as { data: { vendorAccountId: string }[]; nextCursor: string | null }
    }
    const ids = (page: { data: { vendorAccountId: string }[] }) => page.data.map((a) => a.vendorAccountId)

    test('search finds part of the name, the vendorAccountId or the externalId, case ignored', async () => {
      assert.deepEqual(ids(await search('search=acme')), ['acme-001', 'acme-002'])
      assert.deepEqual(ids(await search('search=GLOBEX')), ['globex-003'])
      assert.deepEqual(ids(await search('search=ext-4')), ['initech-004'])
      assert.deepEqual(ids(await search('search=nobody')), [])
    })

    test('% and _ in a search are taken literally', async () => {
      assert.deepEqual(ids(await search(`search=${encodeURIComponent('50%')}`)), ['globex-003'])
      assert.deepEqual(ids(await search(`search=${encodeURIComponent('%')}`)), ['globex-003'])
      assert.deepEqual(ids(await search('search=_')), ['globex-003'])
    })

    test('search combines with the mapping filter and pages', async () => {
      assert.deepEqual(ids(await search('search=acme&mapped=false')), ['acme-002'])
      assert.deepEqual(ids(await search('search=acme&mapped=true')), ['acme-001'])
      const first = await search('search=acme&limit=1')
      assert.deepEqual(ids(first), ['acme-001'])
      assert.ok(first.nextCursor)
      const second = await search(`search=acme&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)
      assert.deepEqual(ids(second), ['acme-002'])
      assert.equal(second.nextCursor, null)
    })

    test('an empty search is refused naming the field', async () => {
      const res = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/accounts?search=`)
      assert.equal(res.status, 400, res.text)
      assert.match(res.body.detail, /search/)
    })
  })
}
