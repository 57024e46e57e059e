// Names beside ids (docs/partner-api.md#names): the tickets list and a ticket's page carry the vendor's,
// the account's and the PSA company's names, the rule tester's answer the PSA's names of the company and
// the new ticket's settings; a PSA that cannot answer leaves the PSA's names null, never the page.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'

interface NamedTicket {
  correlationId: string
  accountId: string
  vendorName: string | null
  accountName: string | null
  psaCompanyId: string | null
  psaCompanyName: string | null
}

const names = (t: NamedTicket) => ({
  accountId: t.accountId,
  vendorName: t.vendorName,
  accountName: t.accountName,
  psaCompanyId: t.psaCompanyId,
  psaCompanyName: t.psaCompanyName,
})

for (const backend of backends()) {
  describe(`names beside ids (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    test('the tickets list and a ticket: vendor, account and PSA company by name, a page at once', async () => {
      // The sandbox PSA lists company 100 as Acme Corporation and 101 as Globex; 999 it does not list.
      const s = await setupIntegration(svc, {
        vendorName: 'Contoso Backup',
        accounts: ['acme-001', 'globex-002', 'initech-003'],
        mapped: ['acme-001'],
      })
      for (const [accountId, company] of [
        ['globex-002', '101'],
        ['initech-003', '999'],
      ] as const) {
        const res = await s.partner(
          'PUT',
          `/api/partner/integrations/${s.integrationId}/accounts/${accountId}`,
          {
            psaCompanyId: company,
          },
        )
        assert.equal(res.status, 200, res.text)
      }
      for (const accountId of ['acme-001', 'globex-002', 'initech-003']) {
        const res = await s.sync({ accountId, title: `Malware on ${accountId}` })
        assert.equal(res.status, 201, res.text)
      }
      const list = await s.partner<{ data: NamedTicket[] }>('GET', '/api/partner/tickets')
      assert.equal(list.status, 200, list.text)
      assert.deepEqual(
        list.body.data.map(names).sort((a, b) => a.accountId.localeCompare(b.accountId)),
        [
          {
            accountId: 'acme-001',
            vendorName: 'Contoso Backup',
            accountName: 'Company acme-001',
            psaCompanyId: '100',
            psaCompanyName: 'Acme Corporation',
          },
          {
            accountId: 'globex-002',
            vendorName: 'Contoso Backup',
            accountName: 'Company globex-002',
            psaCompanyId: '101',
            psaCompanyName: 'Globex',
          },
          {
            accountId: 'initech-003',
            vendorName: 'Contoso Backup',
            accountName: 'Company initech-003',
            psaCompanyId: '999',
            psaCompanyName: null,
          },
        ],
      )
      const acme = list.body.data.find((t) => t.accountId === 'acme-001')!
      const one = await s.partner<NamedTicket>('GET', `/api/partner/tickets/${acme.correlationId}`)
      assert.equal(one.status, 200, one.text)
      assert.deepEqual(names(one.body), names(acme))

      // The vendor renames the account: the next page says so. Unmapped: no company.
      const renamed = await svc.request('POST', '/api/vendor-api/organization/accounts', {
        token: s.vendorToken,
        body: { vendorAccountId: 'acme-001', name: 'Acme Dental Group', externalId: 'ACME-001' },
      })
      assert.ok(renamed.status < 300, renamed.text)
      const unmapped = await s.partner(
        'DELETE',
        `/api/partner/integrations/${s.integrationId}/accounts/acme-001`,
      )
      assert.ok(unmapped.status < 300, unmapped.text)
      const again = await s.partner<NamedTicket>('GET', `/api/partner/tickets/${acme.correlationId}`)
      assert.deepEqual(names(again.body), {
        accountId: 'acme-001',
        vendorName: 'Contoso Backup',
        accountName: 'Acme Dental Group',
        psaCompanyId: null,
        psaCompanyName: null,
      })
      // An empty page: no names to read.
      const none = await s.partner('GET', '/api/partner/tickets?search=nothing-like-this')
      assert.deepEqual(none.body.data, [])
    })

    test("a PSA that cannot answer: the PSA's names are null, the page is answered", async () => {
      const s = await setupIntegration(svc)
      assert.equal((await s.sync()).status, 201)
      // The company list was never read for this connection: the next reads fail.
      const fault = await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['lookup'],
        count: 5,
      })
      assert.equal(fault.status, 200, fault.text)
      const list = await s.partner<{ data: NamedTicket[] }>('GET', '/api/partner/tickets')
      assert.equal(list.status, 200, list.text)
      assert.deepEqual(names(list.body.data[0]!), {
        accountId: 'acme-001',
        vendorName: 'Acme Security',
        accountName: 'Company acme-001',
        psaCompanyId: '100',
        psaCompanyName: null,
      })
    })

    test("the rule tester names the account, the PSA company and the new ticket's settings", async () => {
      const s = await setupIntegration(svc, {
        rule: {
          productGroup: 'Endpoint Security',
          ticket: { board: 'security', priority: 'P1 - Critical', type: 'alert', status: 'new' },
        },
      })
      const res = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: {
          title: 'Malware detected on WS-042',
          summary: 'Trojan quarantined.',
          alertType: 'Malware Detected',
          accountId: 'acme-001',
          productGroup: 'Endpoint Security',
          incidentStatus: 'OPEN',
        },
      })
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.action, 'create')
      assert.deepEqual(
        {
          accountName: res.body.accountName,
          psaCompanyId: res.body.psaCompanyId,
          psaCompanyName: res.body.psaCompanyName,
          boardName: res.body.boardName,
          priorityName: res.body.priorityName,
          typeName: res.body.typeName,
          statusName: res.body.statusName,
        },
        {
          accountName: 'Company acme-001',
          psaCompanyId: '100',
          psaCompanyName: 'Acme Corporation',
          boardName: 'Security',
          priorityName: 'P1 - Critical',
          typeName: 'Alert',
          statusName: 'New',
        },
      )
      // An account not mapped: its name, and no company.
      const unmapped = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: {
          title: 'Malware',
          summary: 'Trojan.',
          alertType: 'Malware Detected',
          accountId: 'globex-002',
          productGroup: 'Endpoint Security',
          incidentStatus: 'OPEN',
        },
      })
      assert.equal(unmapped.status, 200, unmapped.text)
      assert.equal(unmapped.body.accountName, 'Company globex-002')
      assert.equal(unmapped.body.psaCompanyId, null)
      assert.equal(unmapped.body.psaCompanyName, null)
    })
  })
}
