// One tenant is one partner: a second partner can neither see nor change the first one's data.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`partner isolation (${backend})`, () => {
    let svc: TestService
    let first: Setup
    let second: Setup
    let correlationId: string
    before(async () => {
      svc = await startService({ backend })
      first = await setupIntegration(svc, { partnerName: 'First MSP' })
      second = await setupIntegration(svc, { partnerName: 'Second MSP' })
      correlationId = (await first.sync()).body.data.correlationID
    })
    after(() => svc.close())

    test('lists show only the partner’s own integrations, tickets and events', async () => {
      const integrations = await second.partner('GET', '/api/partner/integrations')
      assert.deepEqual(
        integrations.body.data.map((i: { integrationId: string }) => i.integrationId),
        [second.integrationId],
      )
      assert.equal((await second.partner('GET', '/api/partner/tickets')).body.data.length, 0)
      assert.equal((await second.partner('GET', '/api/partner/events')).body.data.length, 0)
      assert.equal((await second.partner('GET', '/api/partner/metrics')).body.totals.total, 0)
      assert.equal((await second.partner('GET', '/api/partner/sandbox/tickets')).body.data.length, 0)
      assert.equal(
        (await second.partner('GET', `/api/partner/tickets?integrationId=${first.integrationId}`)).body.data
          .length,
        0,
      )
      assert.equal(
        (await second.partner('GET', `/api/partner/events?integrationId=${first.integrationId}`)).body.data
          .length,
        0,
      )
      assert.equal((await first.partner('GET', '/api/partner/tickets')).body.data.length, 1)
    })

    test('another partner’s integration, rules, accounts and ticket are not found', async () => {
      const id = first.integrationId
      const reads = [
        `/api/partner/integrations/${id}`,
        `/api/partner/integrations/${id}/rules`,
        `/api/partner/integrations/${id}/accounts`,
      ]
      for (const path of reads) expectFailure(await second.partner('GET', path), 404, 'INTEGRATION_NOT_FOUND')
      expectFailure(
        await second.partner('GET', `/api/partner/tickets/${correlationId}`),
        404,
        'TICKET_NOT_FOUND',
      )
    })

    test('another partner’s integration cannot be changed', async () => {
      const before = await svc.counts()
      const id = first.integrationId
      const writes = [
        second.partner('PATCH', `/api/partner/integrations/${id}`, { alertsEnabled: false }),
        second.partner('POST', `/api/partner/integrations/${id}/complete-mapping`),
        second.partner('POST', `/api/partner/integrations/${id}/rules`, { productGroup: 'Backup' }),
        second.partner('PATCH', `/api/partner/integrations/${id}/rules/${first.ruleId}`, { enabled: false }),
        second.partner('DELETE', `/api/partner/integrations/${id}/rules/${first.ruleId}`),
        second.partner('PUT', `/api/partner/integrations/${id}/accounts/acme-001`, { psaCompanyId: '999' }),
        second.partner('DELETE', `/api/partner/integrations/${id}/accounts/acme-001`),
      ]
      for (const res of await Promise.all(writes)) expectFailure(res, 404, 'INTEGRATION_NOT_FOUND')
      assert.deepEqual(await svc.counts(), before)
      const own = await first.partner('GET', `/api/partner/integrations/${id}`)
      assert.equal(own.body.alertsEnabled, true)
      const rules = await first.partner('GET', `/api/partner/integrations/${id}/rules`)
      assert.equal(rules.body.data[0].enabled, true)
    })

    test('another partner’s sandbox tickets cannot be changed', async () => {
      const ticket = await first.partner('GET', `/api/partner/tickets/${correlationId}`)
      const res = await second.partner('PATCH', `/api/partner/sandbox/tickets/${ticket.body.psaTicketId}`, {
        status: 'Closed',
      })
      expectFailure(res, 404, 'NOT_FOUND')
    })

    test('a vendor token bound to one integration cannot act on another', async () => {
      const res = await svc.request('PATCH', '/api/vendor-api/status/mapping', {
        token: second.vendorToken,
        body: { id: first.integrationId },
      })
      expectFailure(res, 403, 'FORBIDDEN')
    })

    test('partner API calls need the partner key', async () => {
      expectFailure(await svc.request('GET', '/api/partner/integrations'), 401, 'UNAUTHENTICATED')
      expectFailure(
        await svc.request('GET', '/api/partner/integrations', { token: 'abp_wrong' }),
        401,
        'INVALID_CREDENTIALS',
      )
      expectFailure(
        await svc.request('GET', '/api/partner/integrations', { token: svc.adminToken }),
        401,
        'INVALID_CREDENTIALS',
      )
      expectFailure(
        await svc.request('GET', '/api/admin/vendors', { token: first.partnerKey }),
        401,
        'INVALID_CREDENTIALS',
      )
    })
  })
}
