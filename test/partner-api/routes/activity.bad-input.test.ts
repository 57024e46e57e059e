// Bad input to the partner API: a 400 in the failure envelope naming the field and the rule, the same
// on SQLite and PostgreSQL, and not one row changed.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, type Response, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`bad input to the partner API (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc)
      await s.sync()
    })
    after(() => svc.close())

    /** Each request is refused with a 400 whose detail matches, and no row changes. */
    async function refused(cases: [string, () => Promise<Response>, RegExp][]) {
      for (const [name, send, detail] of cases) {
        const before = await svc.snapshot()
        const res = await send()
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, detail, `${name}: ${res.text}`)
        assert.deepEqual(await svc.snapshot(), before, `${name}: nothing changed`)
      }
    }

    test('NUL in a path id is a 400 naming the parameter', async () => {
      const i = `/api/partner/integrations/${s.integrationId}`
      await refused([
        ['integration', () => s.partner('GET', '/api/partner/integrations/a%00b'), /params\/id .*NUL/],
        ['patch', () => s.partner('PATCH', '/api/partner/integrations/%00', {}), /params\/id .*NUL/],
        [
          'account',
          () => s.partner('PUT', `${i}/accounts/acme%00`, { psaCompanyId: '100' }),
          /params\/accountId .*NUL/,
        ],
        ['account delete', () => s.partner('DELETE', `${i}/accounts/%00`), /params\/accountId .*NUL/],
        [
          'service',
          () => s.partner('PUT', `${i}/services/s%00`, { psaProductId: 'p' }),
          /params\/serviceId .*NUL/,
        ],
        ['rule', () => s.partner('PATCH', `${i}/rules/r%00`, { enabled: false }), /params\/ruleId .*NUL/],
        ['usage', () => s.partner('GET', '/api/partner/integrations/%00/usage'), /params\/id .*NUL/],
        [
          'sandbox ticket',
          () => s.partner('PATCH', '/api/partner/sandbox/tickets/%00', { status: 'Closed' }),
          /params\/ticketId .*NUL/,
        ],
        ['delivery', () => s.partner('GET', '/api/partner/deliveries/%00'), /params\/id .*NUL/],
      ])
    })

    test('an account id of 128 characters, the most the vendor API takes, can be mapped and unmapped', async () => {
      const id = `acct-${'9'.repeat(123)}`
      const declared = await svc.request('POST', '/api/vendor-api/organization/accounts', {
        token: s.vendorToken,
        body: { vendorAccountId: id, name: 'Long Id Ltd' },
      })
      assert.equal(declared.status, 201, declared.text)
      const path = `/api/partner/integrations/${s.integrationId}/accounts/${id}`
      const mapped = await s.partner('PUT', path, { psaCompanyId: '101' })
      assert.equal(mapped.status, 200, mapped.text)
      assert.equal(mapped.body.accountId, id)
      assert.equal((await s.partner('DELETE', path)).status, 204)
    })

    test('NUL in a query filter is a 400 naming the filter', async () => {
      await refused([
        [
          'tickets accountId',
          () => s.partner('GET', '/api/partner/tickets?accountId=a%00'),
          /querystring\/accountId .*NUL/,
        ],
        [
          'tickets integrationId',
          () => s.partner('GET', '/api/partner/tickets?integrationId=%00'),
          /querystring\/integrationId .*NUL/,
        ],
        [
          'events correlationId',
          () => s.partner('GET', '/api/partner/events?correlationId=%00'),
          /querystring\/correlationId .*NUL/,
        ],
        [
          'events name',
          () => s.partner('GET', '/api/partner/events?event=Ticket%00'),
          /querystring\/event .*NUL/,
        ],
        [
          'metrics integrationId',
          () => s.partner('GET', '/api/partner/metrics?integrationId=%00'),
          /querystring\/integrationId .*NUL/,
        ],
        [
          'look-up search',
          () => s.partner('GET', '/api/partner/psa/companies?search=%00'),
          /querystring\/search .*NUL/,
        ],
        [
          'usage accountId',
          () => s.partner('GET', `/api/partner/integrations/${s.integrationId}/usage/history?accountId=%00`),
          /querystring\/accountId .*NUL/,
        ],
      ])
    })

    test('NUL in a body field is a 400 naming the field', async () => {
      const i = `/api/partner/integrations/${s.integrationId}`
      await refused([
        [
          'account mapping',
          () => s.partner('PUT', `${i}/accounts/acme-001`, { psaCompanyId: '1\u0000' }),
          /body\/psaCompanyId .*NUL/,
        ],
        [
          'account board',
          () => s.partner('PUT', `${i}/accounts/acme-001`, { psaCompanyId: '1', board: '\u0000' }),
          /body\/board .*NUL/,
        ],
        [
          'rule alert types',
          () =>
            s.partner('POST', `${i}/rules`, { productGroup: 'Backup', alertTypes: ['Backup Failed\u0000'] }),
          /body\/alertTypes\/0 .*NUL/,
        ],
        [
          'rule ticket settings',
          () => s.partner('POST', `${i}/rules`, { productGroup: 'Backup', ticket: { board: 'B\u0000' } }),
          /body\/ticket\/board .*NUL/,
        ],
        [
          'vendor credentials',
          () => s.partner('PATCH', i, { vendorCredentials: { value: 'Bearer \u0000' } }),
          /body\/vendorCredentials\/value .*NUL/,
        ],
        [
          'PSA settings',
          () => s.partner('PUT', '/api/partner/psa', { kind: 'sandbox', defaults: { board: '\u0000' } }),
          /body\/defaults\/board .*NUL/,
        ],
        [
          'sandbox fault mode',
          () => s.partner('PUT', '/api/partner/sandbox/fault', { mode: 'error\u0000' }),
          /body\/mode .*NUL/,
        ],
      ])
    })

    test('a leap second in since or until of events and metrics is a 400 naming the field', async () => {
      const leap = encodeURIComponent('2016-12-31T23:59:60Z')
      const leapOffset = encodeURIComponent('2016-12-31T18:59:60-05:00')
      await refused([
        [
          'events since',
          () => s.partner('GET', `/api/partner/events?since=${leap}`),
          /querystring\/since .*date-time/,
        ],
        [
          'events until',
          () => s.partner('GET', `/api/partner/events?until=${leap}`),
          /querystring\/until .*date-time/,
        ],
        [
          'metrics since',
          () => s.partner('GET', `/api/partner/metrics?since=${leapOffset}`),
          /querystring\/since .*date-time/,
        ],
        [
          'metrics until',
          () => s.partner('GET', `/api/partner/metrics?until=${leap}`),
          /querystring\/until .*date-time/,
        ],
      ])
      // The second before is an ordinary instant.
      const ok = await s.partner(
        'GET',
        `/api/partner/events?until=${encodeURIComponent('2016-12-31T23:59:59Z')}`,
      )
      assert.equal(ok.status, 200, ok.text)
    })

    test('PSA settings accept only their kind’s fields, nested or not, and nothing deeper than the limit', async () => {
      const cw = {
        kind: 'connectwise',
        site: 'na.myconnectwise.net',
        companyId: 'acme',
        publicKey: 'p',
        privateKey: 'k',
        clientId: 'c',
      }
      const deep = `{"kind":"sandbox","defaults":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`
      await refused([
        [
          'sandbox extra',
          () => s.partner('PUT', '/api/partner/psa', { kind: 'sandbox', foo: 1 }),
          /psa\/foo is not a setting/,
        ],
        [
          'sandbox defaults extra',
          () => s.partner('PUT', '/api/partner/psa', { kind: 'sandbox', defaults: { queue: 'Q' } }),
          /psa\/defaults\/queue is not a setting/,
        ],
        [
          'another kind’s field',
          () => s.partner('PUT', '/api/partner/psa', { ...cw, apiToken: 'syncro' }),
          /psa\/apiToken is not a setting .*connectwise/,
        ],
        [
          'sandbox entity extra',
          () =>
            s.partner('PUT', '/api/partner/psa', { kind: 'sandbox', companies: [{ id: '1', extra: true }] }),
          /psa\/companies\/0\/extra is not a setting/,
        ],
        [
          'deep',
          () => svc.request('PUT', '/api/partner/psa', { token: s.partnerKey, raw: deep }),
          /body\/defaults\/a.* deeper than 32 levels/,
        ],
      ])
      const ok = await s.partner('PUT', '/api/partner/psa', { kind: 'sandbox', defaults: { board: 'Ops' } })
      assert.equal(ok.status, 200, ok.text)
    })
  })
}
