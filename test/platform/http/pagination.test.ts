// Every list is paged (docs/decisions/bounded-growth/every-list-paged.md). The lists that were answered
// whole — the vendor's accounts, services, latest usage and integration list, the partner's accounts,
// services, usage overview and integrations, the operator's vendors, partners and integrations — keep their
// `data` and answer 500 at a time (100 for the integration list) with a `nextCursor`, so that a caller with
// fewer items sees what it saw before and a large list no longer comes back as one answer. Rules are
// bounded instead: at most 500 per integration.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { v7 as uuidv7 } from 'uuid'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, type Response, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`paged lists (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    const as = (token: string) => (path: string) => svc.request('GET', path, { token })
    /** Follows nextCursor from `path` to the end; the size of every page and every item in order. */
    async function walk(get: (path: string) => Promise<Response>, path: string) {
      const sizes: number[] = []
      const items: any[] = []
      let cursor: string | null = null
      for (let guard = 0; guard < 50; guard++) {
        const sep = path.includes('?') ? '&' : '?'
        const res = await get(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path)
        assert.equal(res.status, 200, res.text)
        sizes.push(res.body.data.length)
        items.push(...res.body.data)
        cursor = res.body.nextCursor
        if (cursor === null) return { sizes, items }
        assert.equal(typeof cursor, 'string')
      }
      throw new Error('more than 50 pages')
    }
    const declareAccounts = async (s: Setup, ids: string[]) => {
      for (let i = 0; i < ids.length; i += 500) {
        const batch = ids.slice(i, i + 500).map((id) => ({ vendorAccountId: id, name: `Company ${id}` }))
        const res = await svc.request('POST', '/api/vendor-api/organization/accounts', {
          token: s.vendorToken,
          body: batch,
        })
        assert.equal(res.status, 200, res.text)
      }
    }

    test("the vendor's 1,200 accounts come 500 a page, each exactly once, in vendorAccountId order", async () => {
      const s = await setupIntegration(svc, {
        vendorName: 'Many Accounts',
        accounts: [],
        mapped: [],
        rule: null,
        stopAt: 'mapping',
      })
      const ids = Array.from({ length: 1200 }, (_, i) => `acct-${String(i).padStart(5, '0')}`)
      await declareAccounts(s, [...ids].reverse())
      const vendor = as(s.vendorToken)

      const all = await walk(vendor, '/api/vendor-api/organization/accounts')
      assert.deepEqual(all.sizes, [500, 500, 200])
      assert.deepEqual(
        all.items.map((a) => a.vendorAccountId),
        ids,
      )
      const big = await walk(vendor, '/api/vendor-api/organization/accounts?limit=1000')
      assert.deepEqual(big.sizes, [1000, 200])
      expectFailure(
        await vendor('/api/vendor-api/organization/accounts?limit=1001'),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await vendor('/api/vendor-api/organization/accounts?cursor=nonsense'),
        400,
        'VALIDATION_FAILED',
      )

      // The partner's view of the same accounts pages the same way, and can ask for the unmapped ones.
      const partner = as(s.partnerKey)
      const path = `/api/partner/integrations/${s.integrationId}/accounts`
      const mapped = await svc.request('PUT', `${path}/acct-00007`, {
        token: s.partnerKey,
        body: { psaCompanyId: '100' },
      })
      assert.equal(mapped.status, 200, mapped.text)
      const listed = await walk(partner, path)
      assert.deepEqual(listed.sizes, [500, 500, 200])
      assert.deepEqual(listed.items[7].mapping, { psaCompanyId: '100', board: null })
      const onlyMapped = await walk(partner, `${path}?mapped=true`)
      assert.deepEqual(
        onlyMapped.items.map((a) => a.vendorAccountId),
        ['acct-00007'],
      )
      const unmapped = await walk(partner, `${path}?mapped=false&limit=1000`)
      assert.deepEqual(unmapped.sizes, [1000, 199])

      // The usage overview names the first 100 unmapped accounts and says how many there are.
      const usage = await partner(`/api/partner/integrations/${s.integrationId}/usage`)
      assert.equal(usage.status, 200, usage.text)
      assert.equal(usage.body.unmappedAccounts.length, 100)
      assert.equal(usage.body.unmappedAccountCount, 1199)
      assert.equal(usage.body.unmappedAccounts[0].vendorAccountId, 'acct-00000')
      assert.equal(usage.body.nextCursor, null)
    })

    test('a list smaller than a page is answered whole, as before, with nextCursor null', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Few Accounts' })
      const res = await as(s.vendorToken)('/api/vendor-api/organization/accounts')
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(
        res.body.data.map((a: any) => a.vendorAccountId),
        ['acme-001', 'globex-002'],
      )
      assert.equal(res.body.nextCursor, null)
    })

    test("services, the latest usage and the partner's usage overview page by their keys", async () => {
      const s = await setupIntegration(svc, { vendorName: 'Many Services' })
      const vendor = as(s.vendorToken)
      for (const id of ['svc-a', 'svc-b', 'svc-c']) {
        const res = await svc.request('POST', '/api/vendor-api/organization/services', {
          token: s.vendorToken,
          body: { id, name: id },
        })
        assert.equal(res.status, 201, res.text)
        for (const accountId of ['acme-001', 'globex-002']) {
          const count = await svc.request('POST', `/api/vendor-api/service/${id}/count`, {
            token: s.vendorToken,
            body: { unitCount: 1, accountId },
          })
          assert.equal(count.status, 201, count.text)
        }
      }
      const services = await walk(vendor, '/api/vendor-api/organization/services?limit=2')
      assert.deepEqual(services.sizes, [2, 1])
      assert.deepEqual(
        services.items.map((v) => v.id),
        ['svc-a', 'svc-b', 'svc-c'],
      )
      const latest = await walk(vendor, '/api/vendor-api/usage?limit=4')
      assert.deepEqual(latest.sizes, [4, 2])
      assert.deepEqual(
        latest.items.map((u) => `${u.serviceId}/${u.accountId}`),
        [
          'svc-a/acme-001',
          'svc-a/globex-002',
          'svc-b/acme-001',
          'svc-b/globex-002',
          'svc-c/acme-001',
          'svc-c/globex-002',
        ],
      )

      const partner = as(s.partnerKey)
      const partnerServices = await walk(
        partner,
        `/api/partner/integrations/${s.integrationId}/services?limit=2`,
      )
      assert.deepEqual(partnerServices.sizes, [2, 1])
      const overview = await walk(partner, `/api/partner/integrations/${s.integrationId}/usage?limit=5`)
      assert.deepEqual(overview.sizes, [5, 1])
      const first = await partner(`/api/partner/integrations/${s.integrationId}/usage?limit=5`)
      assert.equal(first.body.unmappedServiceCount, 3)
      assert.equal(first.body.unmappedAccountCount, 1)
      assert.deepEqual(
        first.body.unmappedAccounts.map((a: any) => a.vendorAccountId),
        ['globex-002'],
      )
      assert.ok(first.body.data.find((u: any) => u.accountId === 'acme-001').accountMapped)
    })

    test("the vendor's integration list and the partner's and operator's tenant lists page in creation order", async () => {
      const first = await setupIntegration(svc, { vendorName: 'Many Partners', partnerName: 'P1' })
      const vendor = { id: first.vendorId, clientId: first.clientId, clientSecret: first.clientSecret }
      const more = [
        await setupIntegration(svc, { vendor, partnerName: 'P2' }),
        await setupIntegration(svc, { vendor, partnerName: 'P3' }),
      ]
      const unbound = await svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: vendor.clientId,
          client_secret: vendor.clientSecret,
        },
      })
      const list = await walk(as(unbound.body.access_token), '/api/oem-api/integration/list?limit=2')
      assert.deepEqual(list.sizes, [2, 1])
      assert.deepEqual(
        list.items.map((i) => i.integrationId),
        [first, ...more].map((s) => s.integrationId),
      )
      assert.deepEqual(list.items[0].accounts, [
        { vendorAccountId: 'acme-001', name: 'Company acme-001', psaCompanyId: '100' },
      ])

      const admin = as(svc.adminToken)
      const integrations = await walk(admin, `/api/admin/integrations?vendorId=${vendor.id}&limit=2`)
      assert.deepEqual(integrations.sizes, [2, 1])
      const vendors = await walk(admin, '/api/admin/vendors?limit=1')
      assert.equal(new Set(vendors.items.map((v) => v.id)).size, vendors.items.length)
      assert.ok(vendors.sizes.every((n) => n <= 1))
      assert.ok(vendors.items.some((v) => v.id === vendor.id))
      const partners = await walk(admin, '/api/admin/partners?limit=2')
      assert.equal(new Set(partners.items.map((p) => p.id)).size, partners.items.length)
      assert.ok(partners.items.length >= 3)
      const own = await walk(as(first.partnerKey), '/api/partner/integrations?limit=1')
      assert.deepEqual(
        own.items.map((i) => i.integrationId),
        [first.integrationId],
      )
    })

    test('an integration holds at most 500 rules, so its rule list is bounded', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Many Rules' })
      const now = new Date().toISOString()
      for (let i = 0; i < 498; i++) {
        await svc.services.store.rules.insert(
          s.integrationId,
          {
            id: uuidv7(),
            precedence: 100 + i,
            enabled: true,
            productGroup: 'Backup',
            alertTypes: [],
            action: 'ticket',
            suppressStatuses: [],
            ticket: { board: null, priority: null, type: null, status: null, closedStatus: null },
            conditions: [],
            templates: { title: null, description: null },
            createdAt: now,
          },
          now,
        )
      }
      const path = `/api/partner/integrations/${s.integrationId}/rules`
      const last = await s.partner('POST', path, { productGroup: 'Backup' })
      assert.equal(last.status, 201, last.text)
      const before = await svc.counts()
      const refused = await s.partner('POST', path, { productGroup: 'Backup' })
      expectFailure(refused, 409, 'CONFLICT')
      assert.match(refused.body.detail, /at most 500 rules/)
      assert.deepEqual(await svc.counts(), before)
      const list = await s.partner('GET', path)
      assert.equal(list.body.data.length, 500)
    })
  })
}
