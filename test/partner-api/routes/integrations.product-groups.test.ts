// The dynamic catalogue through the HTTP edge (docs/vendor-api.md#the-product-group-catalogue): a local
// vendor endpoint, the partner's credentials, the 15-minute cache on the injected clock, fallbacks, the
// productGroupsMapping (docs/decisions/catalogue/adapter.md), row 6 and rule validation on the partner's
// list, /metrics.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncFailure, expectSyncSuccess } from '../../support/shapes.js'
import { startVendorProductGroups, type VendorProductGroupServer } from '../../support/vendor-server.js'
import { waitFor } from '../../support/wait.js'

const partnerList = {
  productGroups: [
    { productGroup: 'Endpoint Security', alertTypes: ['Malware Detected'] },
    { productGroup: 'Firewall', alertTypes: 'Port Scan,Intrusion' },
  ],
}
const minutes = (n: number) => n * 60 * 1000

function metric(text: string, outcome: string): number {
  const m = new RegExp(`^alertbridge_catalogue_fetches_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(
    text,
  )
  return m ? Number(m[1]) : Number.NaN
}

for (const backend of backends()) {
  describe(`dynamic catalogue (${backend})`, () => {
    let svc: TestService
    let vendorEndpoint: VendorProductGroupServer
    const clock = manualClock()
    before(async () => {
      svc = await startService({ backend, clock, env: { ALLOW_PRIVATE_NETWORK: 'true' } })
      vendorEndpoint = await startVendorProductGroups({ body: partnerList })
    })
    after(async () => {
      await vendorEndpoint.close()
      await svc.close()
    })

    /** An integration whose vendor has a static list and the local endpoint, with the partner's credentials. */
    async function dynamicSetup(mapping?: unknown) {
      const s = await setupIntegration(svc)
      const admin = await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { productGroupsUrl: vendorEndpoint.url, ...(mapping ? { productGroupsMapping: mapping } : {}) },
      })
      assert.equal(admin.status, 200, admin.text)
      const creds = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        vendorCredentials: { value: `Bearer partner-${s.integrationId}` },
      })
      assert.equal(creds.status, 200, creds.text)
      return s
    }

    test('credentials are sent as configured and never shown back; the partner sees its list and source', async () => {
      const s = await dynamicSetup()
      const seen = vendorEndpoint.requests.length
      const res = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/product-groups`)
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.source, 'dynamic')
      assert.deepEqual(res.body.productGroups, {
        'Endpoint Security': ['Malware Detected'],
        Firewall: ['Port Scan', 'Intrusion'],
      })
      assert.equal(vendorEndpoint.requests.length, seen + 1)
      assert.equal(vendorEndpoint.requests.at(-1)?.authorization, `Bearer partner-${s.integrationId}`)
      // The vendor's integration list shows the same list (from the cache: no second call).
      const listed = await svc.request('GET', '/api/oem-api/integration/list', { token: s.vendorToken })
      assert.deepEqual(listed.body.data[0].productGroups, res.body.productGroups)
      assert.equal(vendorEndpoint.requests.length, seen + 1)

      const view = await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)
      assert.deepEqual(view.body.vendorCredentials, { header: 'authorization', configured: true })
      assert.ok(!view.text.includes('Bearer partner-'), 'the value is never returned')

      // Another header; changing the credentials drops the cached list (a new call within 15 minutes).
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        vendorCredentials: { header: 'X-Api-Key', value: 'key-2' },
      })
      await s.partner('GET', `/api/partner/integrations/${s.integrationId}/product-groups`)
      assert.equal(vendorEndpoint.requests.length, seen + 2)
      assert.equal(vendorEndpoint.requests.at(-1)?.['x-api-key'], 'key-2')
      assert.equal(vendorEndpoint.requests.at(-1)?.authorization, undefined)

      // Removing them: the static list again, no call.
      const cleared = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        vendorCredentials: null,
      })
      assert.equal(cleared.body.vendorCredentials, null)
      const back = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/product-groups`)
      assert.equal(back.body.source, 'static')
      assert.equal(vendorEndpoint.requests.length, seen + 2)
    })

    test('50 concurrent alerts on an empty cache make one call to the vendor', async () => {
      const s = await dynamicSetup()
      const before = vendorEndpoint.requests.length
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          s.sync({ productGroup: 'Firewall', alertType: 'Port Scan', title: `burst ${i}` }),
        ),
      )
      assert.equal(vendorEndpoint.requests.length, before + 1)
      // Firewall is only in the partner's list: every alert was checked against it (row 6 passed).
      assert.ok(
        results.every((r) => r.body.error !== 'INVALID_ALERT'),
        JSON.stringify(results.map((r) => r.body)),
      )
    })

    test("row 6 and rules use the partner's list; within 15 minutes it is cached, after it is fetched again", async () => {
      const s = await dynamicSetup()
      const before = vendorEndpoint.requests.length
      // Firewall exists only in the partner's list: a rule may name it, and its alerts pass row 6.
      const rule = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
        productGroup: 'Firewall',
        alertTypes: ['Port Scan'],
      })
      assert.equal(rule.status, 201, rule.text)
      expectSyncSuccess(await s.sync({ productGroup: 'Firewall', alertType: 'Port Scan', title: 'scan 1' }), {
        status: 201,
        message: 'created',
      })
      // Backup and Agent Offline exist only in the static list: not for this partner.
      expectFailure(
        await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
          productGroup: 'Backup',
        }),
        400,
        'VALIDATION_FAILED',
      )
      expectSyncFailure(await s.sync({ alertType: 'Agent Offline' }), { status: 400, error: 'INVALID_ALERT' })
      assert.equal(vendorEndpoint.requests.length, before + 1, 'one call for all of it')

      // Background work the advance makes due (a state_snapshot reads the effective list too) runs
      // before the alert, not beside it: two reads of an expired list at once would make two calls.
      clock.advance(minutes(14))
      await svc.counts()
      await s.sync({ productGroup: 'Firewall', alertType: 'Port Scan', title: 'scan 2' })
      assert.equal(vendorEndpoint.requests.length, before + 1)
      clock.advance(minutes(2))
      await svc.counts()
      await s.sync({ productGroup: 'Firewall', alertType: 'Port Scan', title: 'scan 3' })
      assert.equal(vendorEndpoint.requests.length, before + 2, 'refreshed after 15 minutes')
    })

    test('failing and slow vendor endpoints fall back to the last good list without failing alerts; /metrics counts', async () => {
      const s = await dynamicSetup()
      const metricsBefore = (await svc.request('GET', '/metrics')).text
      await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
        productGroup: 'Firewall',
      })
      expectSyncSuccess(await s.sync({ productGroup: 'Firewall', alertType: 'Intrusion', title: 'a' }), {
        status: 201,
        message: 'created',
      })

      vendorEndpoint.answer({ status: 503, body: { error: 'down' } })
      clock.advance(minutes(16))
      expectSyncSuccess(await s.sync({ productGroup: 'Firewall', alertType: 'Intrusion', title: 'b' }), {
        status: 200,
        message: 'updated',
      })
      const stale = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/product-groups`)
      assert.equal(stale.body.source, 'dynamic-stale')
      assert.match(stale.body.reason, /503/)

      vendorEndpoint.answer({ body: partnerList, delayMs: 800 })
      clock.advance(minutes(1))
      const started = performance.now()
      expectSyncSuccess(await s.sync({ productGroup: 'Firewall', alertType: 'Intrusion', title: 'c' }), {
        status: 200,
        message: 'updated',
      })
      const took = performance.now() - started
      assert.ok(took < 790, `answered after the budget, not the vendor (${Math.round(took)} ms)`)

      const metrics = await svc.request('GET', '/metrics')
      assert.equal(metrics.status, 200)
      assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/)
      for (const [outcome, atLeast] of [
        ['ok', 1],
        ['error', 1],
        ['timeout', 1],
        ['stale_served', 2],
      ] as const) {
        const grew = metric(metrics.text, outcome) - metric(metricsBefore, outcome)
        assert.ok(grew >= atLeast, `${outcome} grew by ${grew}`)
      }
      assert.ok(!metrics.text.includes(s.integrationId), 'no tenant ids in metrics')
      vendorEndpoint.answer({ body: partnerList })
      // Let the slow call end before the next test.
      await waitFor(() => vendorEndpoint.unanswered() === 0, {
        what: 'the slow call to be answered',
        timeoutMs: 5000,
      })
    })

    test('no good answer yet: the static list is used, and an unreadable answer counts as an error', async () => {
      vendorEndpoint.answer({ body: { groups: 'not a list' } })
      const s = await dynamicSetup()
      const res = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/product-groups`)
      assert.equal(res.body.source, 'static-fallback')
      assert.match(res.body.reason, /cannot be read/)
      expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      vendorEndpoint.answer({ body: partnerList })
    })

    test('a differently shaped endpoint is read through the vendor mapping', async () => {
      vendorEndpoint.answer({
        body: { data: { groups: [{ name: 'Email', types: [{ code: 'Phishing' }, { code: 'Spam' }] }] } },
      })
      const mapping = {
        groupsPath: 'data.groups',
        groupField: 'name',
        typesField: 'types',
        typeNameField: 'code',
      }
      const s = await dynamicSetup(mapping)
      const vendor = await svc.request('GET', `/api/admin/vendors/${s.vendorId}`, { token: svc.adminToken })
      assert.deepEqual(vendor.body.productGroupsMapping, mapping)
      const res = await s.partner('GET', `/api/partner/integrations/${s.integrationId}/product-groups`)
      assert.equal(res.body.source, 'dynamic')
      assert.deepEqual(res.body.productGroups, { Email: ['Phishing', 'Spam'] })
      vendorEndpoint.answer({ body: partnerList })
    })

    test('bad credentials and mappings get a 400 and change nothing', async () => {
      const s = await setupIntegration(svc)
      const countsBefore = await svc.counts()
      for (const body of [
        { vendorCredentials: { value: '' } },
        { vendorCredentials: { header: 'bad header', value: 'x' } },
        { vendorCredentials: { value: 'a\r\nInjected: 1' } },
        { vendorCredentials: { header: 'Host', value: 'x' } },
        { vendorCredentials: { value: 'x', extra: 1 } },
      ]) {
        expectFailure(
          await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, body),
          400,
          'VALIDATION_FAILED',
        )
      }
      for (const mapping of [{ groupsPath: 'a..b' }, { unknown: 'x' }, { groupField: '' }]) {
        expectFailure(
          await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
            token: svc.adminToken,
            body: { productGroupsMapping: mapping },
          }),
          400,
          'VALIDATION_FAILED',
        )
      }
      const view = await s.partner('GET', `/api/partner/integrations/${s.integrationId}`)
      assert.equal(view.body.vendorCredentials, null)
      assert.deepEqual(await svc.counts(), countsBefore)
    })
  })
}
