// Mapping several accounts in one call (PATCH /api/partner/integrations/{id}/accounts; the setup
// wizard's "Use all confident suggestions"): all or none, the accounts not named untouched, an open
// catch-all ticket moved as for one mapping, bad input refused in the failure shape.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { newPortalUser } from '../../support/portal.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncSuccess } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`mapping several accounts at once (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    const accounts = (s: Setup) => `/api/partner/integrations/${s.integrationId}/accounts`
    const mappings = async (s: Setup) => {
      const res = await s.partner('GET', accounts(s))
      assert.equal(res.status, 200, res.text)
      return Object.fromEntries(
        res.body.data.map((a: { vendorAccountId: string; mapping: { psaCompanyId: string } | null }) => [
          a.vendorAccountId,
          a.mapping?.psaCompanyId ?? null,
        ]),
      )
    }
    const withAccounts = async () => {
      const s = await setupIntegration(svc, { accounts: [], mapped: [], stopAt: 'mapping', rule: null })
      const res = await svc.request('POST', '/api/vendor-api/organization/accounts', {
        token: s.vendorToken,
        body: ['a-1', 'a-2', 'a-3', 'a-4'].map((id) => ({ vendorAccountId: id, name: `Account ${id}` })),
      })
      assert.equal(res.status, 200, res.text)
      const one = await s.partner('PUT', `${accounts(s)}/a-4`, { psaCompanyId: '102' })
      assert.equal(one.status, 200, one.text)
      return s
    }

    test('maps every account named, with its board, and leaves the others as they were', async () => {
      const s = await withAccounts()
      const res = await s.partner('PATCH', accounts(s), {
        mappings: [
          { accountId: 'a-1', psaCompanyId: '100' },
          { accountId: 'a-2', psaCompanyId: '101', board: 'Security' },
        ],
      })
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(res.body, {
        data: [
          { accountId: 'a-1', psaCompanyId: '100', board: null },
          { accountId: 'a-2', psaCompanyId: '101', board: 'Security' },
        ],
      })
      assert.deepEqual(await mappings(s), { 'a-1': '100', 'a-2': '101', 'a-3': null, 'a-4': '102' })
      // A mapped account named again takes the new company.
      const again = await s.partner('PATCH', accounts(s), {
        mappings: [{ accountId: 'a-4', psaCompanyId: '100' }],
      })
      assert.equal(again.status, 200, again.text)
      assert.equal((await mappings(s))['a-4'], '100')
    })

    test('all or none: an undeclared or repeated account refuses the whole call', async () => {
      const s = await withAccounts()
      const before = await mappings(s)
      expectFailure(
        await s.partner('PATCH', accounts(s), {
          mappings: [
            { accountId: 'a-1', psaCompanyId: '100' },
            { accountId: 'ghost-9', psaCompanyId: '100' },
          ],
        }),
        404,
        'ACCOUNT_UNKNOWN',
      )
      const repeated = await s.partner('PATCH', accounts(s), {
        mappings: [
          { accountId: 'a-1', psaCompanyId: '100' },
          { accountId: 'a-1', psaCompanyId: '101' },
        ],
      })
      expectFailure(repeated, 400, 'VALIDATION_FAILED')
      assert.match(repeated.body.detail, /a-1/)
      assert.deepEqual(await mappings(s), before)
    })

    test('bad input, another partner and a viewer are refused in the failure shape', async () => {
      const s = await withAccounts()
      for (const body of [
        { mappings: [] },
        {},
        { mappings: [{ accountId: 'a-1' }] },
        { mappings: [{ accountId: '', psaCompanyId: '100' }] },
        { mappings: Array.from({ length: 1001 }, () => ({ accountId: 'a-1', psaCompanyId: '100' })) },
      ])
        expectFailure(await s.partner('PATCH', accounts(s), body), 400, 'VALIDATION_FAILED')
      const other = await setupIntegration(svc)
      expectFailure(
        await other.partner('PATCH', accounts(s), { mappings: [{ accountId: 'a-1', psaCompanyId: '100' }] }),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      const viewer = await newPortalUser(svc, s, 'viewer')
      const refused = await viewer.request('PATCH', accounts(s), {
        mappings: [{ accountId: 'a-1', psaCompanyId: '100' }],
      })
      assert.equal(refused.status, 403, refused.text)
      assert.equal((await mappings(s))['a-1'], null)
    })

    test("an account's open catch-all ticket moves to its company, as with one mapping", async () => {
      const s = await setupIntegration(svc)
      const on = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        catchAll: { enabled: true, psaCompanyId: '999' },
      })
      assert.equal(on.status, 200, on.text)
      expectSyncSuccess(await s.sync({ accountId: 'globex-002' }), { status: 201, message: 'created' })
      const res = await s.partner('PATCH', accounts(s), {
        mappings: [{ accountId: 'globex-002', psaCompanyId: '101' }],
      })
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(res.body.data[0].catchAllTickets, { moved: 1, noted: 0, failed: 0 })
    })
  })
}
