// The vendor's own catalogue calls (PUT/GET /api/vendor-api/product-groups) and the state_snapshot a
// catalogue change sends: after the vendor's PUT, and after a refresh that finds a changed dynamic list.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import { startVendorProductGroups, type VendorProductGroupServer } from '../../support/vendor-server.js'

for (const backend of backends()) {
  describe(`vendor catalogue calls (${backend})`, () => {
    let svc: TestService
    let receiver: Receiver
    let vendorEndpoint: VendorProductGroupServer
    before(async () => {
      svc = await startService({
        backend,
        env: { ALLOW_PRIVATE_NETWORK: 'true', SNAPSHOT_COALESCE_MS: '0' },
      })
      receiver = await startReceiver()
      vendorEndpoint = await startVendorProductGroups()
    })
    after(async () => {
      await vendorEndpoint.close()
      await receiver.close()
      await svc.close()
    })

    async function hookedSetup() {
      const res = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: {
          name: 'Hooked',
          productGroups: { 'Endpoint Security': ['Malware Detected'] },
          webhookUrl: receiver.url,
        },
      })
      assert.equal(res.status, 201, res.text)
      receiver.setSecret(res.body.webhookSecret)
      const s = await setupIntegration(svc, {
        vendor: { id: res.body.id, clientId: res.body.clientId, clientSecret: res.body.clientSecret },
      })
      const snapshots = () =>
        receiver.accepted('state_snapshot').filter((r) => r.body.payload?.integrationId === s.integrationId)
      await receiver.waitFor(() => snapshots().length >= 1, 'the setup snapshot')
      await svc.counts() // settled
      return { s, snapshots }
    }

    test('PUT sets the static list in the spec shape or the map form, answers it normalised, and snapshots', async () => {
      const { s, snapshots } = await hookedSetup()
      const count = snapshots().length
      const put = await svc.request('PUT', '/api/vendor-api/product-groups', {
        token: s.vendorToken,
        body: {
          productGroups: [
            { productGroup: 'Endpoint Security', alertTypes: ['Malware Detected', 'Agent Offline'] },
            { productGroup: 'Backup', alertTypes: 'Backup Failed, Backup Warning' },
          ],
        },
      })
      assert.equal(put.status, 200, put.text)
      const expected = {
        'Endpoint Security': ['Malware Detected', 'Agent Offline'],
        Backup: ['Backup Failed', 'Backup Warning'],
      }
      assert.deepEqual(put.body, { productGroups: expected })
      await receiver.waitFor(() => snapshots().length > count, 'the catalogue snapshot')
      assert.deepEqual(snapshots().at(-1)!.body.payload.productGroups, expected)

      const map = await svc.request('PUT', '/api/vendor-api/product-groups', {
        token: s.vendorToken,
        body: { productGroups: { Backup: 'Backup Failed', Email: ['Phishing'] } },
      })
      assert.deepEqual(map.body, { productGroups: { Backup: ['Backup Failed'], Email: ['Phishing'] } })

      const got = await svc.request('GET', '/api/vendor-api/product-groups', { token: s.vendorToken })
      assert.equal(got.status, 200, got.text)
      assert.deepEqual(got.body, {
        productGroups: { Backup: ['Backup Failed'], Email: ['Phishing'] },
        productGroupsUrl: null,
        effective: {
          integrationId: s.integrationId,
          source: 'static',
          productGroups: { Backup: ['Backup Failed'], Email: ['Phishing'] },
          fetchedAt: null,
          reason: null,
        },
      })
    })

    test('bad PUT bodies get a 400 and change nothing; without a token 401', async () => {
      const s = await setupIntegration(svc)
      const countsBefore = await svc.counts()
      for (const body of [
        {},
        { productGroups: 'Backup' },
        { productGroups: [{ productGroup: 'Backup' }] },
        { productGroups: [{ productGroup: '', alertTypes: [] }] },
        { productGroups: { Backup: [1] } },
      ]) {
        expectFailure(
          await svc.request('PUT', '/api/vendor-api/product-groups', { token: s.vendorToken, body }),
          400,
          'VALIDATION_FAILED',
        )
      }
      expectFailure(
        await svc.request('PUT', '/api/vendor-api/product-groups', { body: { productGroups: {} } }),
        401,
        'UNAUTHENTICATED',
      )
      const vendor = await svc.request('GET', `/api/admin/vendors/${s.vendorId}`, { token: svc.adminToken })
      assert.deepEqual(Object.keys(vendor.body.productGroups), ['Endpoint Security', 'Backup'])
      assert.deepEqual(await svc.counts(), countsBefore)
    })

    test('a refresh that finds a changed dynamic list sends a state_snapshot with the partner list', async () => {
      const { s, snapshots } = await hookedSetup()
      vendorEndpoint.answer({
        body: { productGroups: [{ productGroup: 'Firewall', alertTypes: ['Port Scan'] }] },
      })
      await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { productGroupsUrl: vendorEndpoint.url },
      })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        vendorCredentials: { value: 'Bearer p' },
      })
      const count = snapshots().length
      const got = await svc.request('GET', '/api/vendor-api/product-groups', { token: s.vendorToken })
      assert.equal(got.body.effective.source, 'dynamic')
      await receiver.waitFor(() => snapshots().length > count, 'the snapshot of the new list')
      assert.deepEqual(snapshots().at(-1)!.body.payload.productGroups, { Firewall: ['Port Scan'] })
    })

    test('a snapshot sent before anything fetched the dynamic list still carries it (fetched first)', async () => {
      const { s, snapshots } = await hookedSetup()
      vendorEndpoint.answer({
        body: { productGroups: [{ productGroup: 'Firewall', alertTypes: ['Intrusion'] }] },
      })
      await svc.request('PATCH', `/api/admin/vendors/${s.vendorId}`, {
        token: svc.adminToken,
        body: { productGroupsUrl: vendorEndpoint.url },
      })
      const count = snapshots().length
      // Credentials and a toggle in one call: the cache is empty when the snapshot job runs.
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        vendorCredentials: { value: 'Bearer q' },
        alertsEnabled: false,
      })
      await receiver.waitFor(() => snapshots().length > count, 'the toggle snapshot')
      await svc.counts() // settled: any follow-up snapshot has gone out too
      const sent = snapshots().slice(count)
      assert.ok(sent.length >= 1)
      for (const snap of sent) {
        assert.deepEqual(snap.body.payload.productGroups, { Firewall: ['Intrusion'] })
        assert.equal(snap.body.payload.isAlertsEnabled, false)
      }
    })
  })
}
