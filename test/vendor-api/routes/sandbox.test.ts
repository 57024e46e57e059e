// Self-serve test mode (docs/vendor-api.md#self-serve-test-mode) over HTTP against a real service: a
// vendor's own bearer token makes a test integration (a test partner on the sandbox PSA, an account
// mapped, a rule) whose credentials work at once, lists its test integrations, is held to ten of them,
// and deletes one with everything it made. Refusals change nothing. On SQLite and PostgreSQL: the
// delete leans on each database's foreign-key cascades.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { catalogue, issueToken, setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'

/** What a test integration leaves in the tables its delete must empty again. */
const owned = [
  'partners',
  'integrations',
  'vendor_accounts',
  'account_mappings',
  'rules',
  'tickets',
  'events',
  'sandbox_tickets',
  'psa_sync',
  'psa_sync_pending',
] as const

for (const backend of backends('databases')) {
  describe(`vendor sandbox: create, list, delete (${backend})`, () => {
    let svc: TestService
    let vendor: { id: string; clientId: string; clientSecret: string }
    let token: string
    before(async () => {
      svc = await startService({ backend })
      const made = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Acme Security', productGroups: catalogue },
      })
      assert.equal(made.status, 201, made.text)
      vendor = { id: made.body.id, clientId: made.body.clientId, clientSecret: made.body.clientSecret }
      token = await issueToken(svc, vendor)
    })
    after(() => svc.close())

    const call = (method: string, path: string, body?: unknown, t = token) =>
      svc.request(method, path, { token: t, body })
    const ownedCounts = async () => {
      const counts = await svc.counts()
      return Object.fromEntries(owned.map((t) => [t, counts[t]]))
    }

    test('bad input and no token are refused in the failure shape, changing nothing', async () => {
      const before = await svc.snapshot()
      const unauthenticated = await svc.request('POST', '/api/vendor-api/sandbox', { body: {} })
      assert.equal(unauthenticated.status, 401)
      for (const body of [{ name: '' }, { name: 'x'.repeat(101) }, { productGroup: 7 }]) {
        const res = await call('POST', '/api/vendor-api/sandbox', body)
        assert.equal(res.status, 400, res.text)
        assert.equal(res.body.error, 'VALIDATION_FAILED')
        assert.ok(res.body.detail)
      }
      const unknownGroup = await call('POST', '/api/vendor-api/sandbox', { productGroup: 'Not Ours' })
      assert.equal(unknownGroup.status, 400, unknownGroup.text)
      assert.equal(unknownGroup.body.error, 'VALIDATION_FAILED')
      assert.match(unknownGroup.body.detail, /^productGroup: 'Not Ours' is not a product group/)
      assert.deepEqual(await svc.snapshot(), before)
      assert.equal(unauthenticated.body.error, 'UNAUTHENTICATED')
    })

    test('a test integration answers its credentials once, marked test, and they work at once', async () => {
      const made = await call('POST', '/api/vendor-api/sandbox', { name: 'Trial MSP' })
      assert.equal(made.status, 201, made.text)
      const box = made.body
      assert.equal(box.test, true)
      assert.equal(box.partnerName, 'Trial MSP')
      assert.equal(box.state, 'pending')
      assert.equal(box.mappedAccounts, 1)
      assert.equal(box.productGroup, 'Endpoint Security')
      for (const field of ['integrationId', 'partnerId', 'organizationOemToken', 'partnerApiKey', 'ruleId'])
        assert.ok(box[field], field)

      // The organization token makes a ticket in the sandbox PSA through the ordinary alert call.
      const alert = await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
        body: {
          clientId: vendor.clientId,
          clientSecret: vendor.clientSecret,
          grantType: 'client_credentials',
          scope: 'vendor_manage',
          organizationOemToken: box.organizationOemToken,
          integrationId: box.integrationId,
          data: {
            title: 'Malware on WS-1',
            summary: 'Quarantined.',
            alertType: 'Malware Detected',
            accountId: box.accountId,
            productGroup: box.productGroup,
            incidentStatus: 'OPEN',
          },
        },
      })
      assert.equal(alert.status, 201, alert.text)
      const tickets = await svc.request('GET', '/api/partner/sandbox/tickets', { token: box.partnerApiKey })
      assert.equal(tickets.status, 200, tickets.text)
      assert.deepEqual(
        tickets.body.data.map((t: { summary: string }) => t.summary),
        ['Malware on WS-1'],
      )

      const list = await call('GET', '/api/vendor-api/sandbox')
      assert.equal(list.status, 200, list.text)
      const listed = list.body.data.find(
        (e: { integrationId: string }) => e.integrationId === box.integrationId,
      )
      assert.deepEqual(listed, {
        test: true,
        integrationId: box.integrationId,
        partnerId: box.partnerId,
        partnerName: 'Trial MSP',
        state: 'connected',
        mappedAccounts: 1,
        createdAt: box.createdAt,
      })
      assert.equal(JSON.stringify(list.body).includes(box.partnerApiKey), false, 'no credential listed again')

      const integrations = await call(
        'GET',
        `/api/vendor-api/integrations?integrationId=${box.integrationId}`,
      )
      assert.equal(integrations.status, 200, integrations.text)
      assert.equal(integrations.body.data[0].test, true)
      // The operator sees the test partner marked as such.
      const partner = await svc.request('GET', `/api/admin/partners/${box.partnerId}`, {
        token: svc.adminToken,
      })
      assert.equal(partner.status, 200, partner.text)
      assert.equal(partner.body.sandbox, true)
      assert.equal(partner.body.sandboxVendorId, vendor.id)
    })

    test("another vendor neither lists nor deletes it, and a real integration is not a test one's", async () => {
      const other = await setupIntegration(svc, { vendorName: 'Other Vendor' })
      const otherToken = await issueToken(svc, other)
      const mine = (await call('GET', '/api/vendor-api/sandbox')).body.data[0]
      assert.ok(mine)
      const theirs = await call('GET', '/api/vendor-api/sandbox', undefined, otherToken)
      assert.deepEqual(theirs.body, { data: [] })
      const before = await svc.snapshot()
      const refused = await call(
        'DELETE',
        `/api/vendor-api/sandbox/${mine.integrationId}`,
        undefined,
        otherToken,
      )
      assert.equal(refused.status, 404, refused.text)
      assert.equal(refused.body.error, 'NOT_FOUND')
      // The other vendor's real integration is not a test integration: its own delete is refused too.
      const real = await call(
        'DELETE',
        `/api/vendor-api/sandbox/${other.integrationId}`,
        undefined,
        otherToken,
      )
      assert.equal(real.status, 404, real.text)
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('at most ten at once: the eleventh is refused with 409, changing nothing', async () => {
      const held = (await call('GET', '/api/vendor-api/sandbox')).body.data.length
      for (let i = held; i < 10; i++) {
        const res = await call('POST', '/api/vendor-api/sandbox', {})
        assert.equal(res.status, 201, res.text)
      }
      const before = await svc.snapshot()
      const refused = await call('POST', '/api/vendor-api/sandbox', {})
      assert.equal(refused.status, 409, refused.text)
      assert.equal(refused.body.error, 'CONFLICT')
      assert.match(refused.body.detail, /10 test integrations/)
      assert.deepEqual(await svc.snapshot(), before)
      assert.equal((await call('GET', '/api/vendor-api/sandbox')).body.data.length, 10)
    })

    test('delete removes the test integration, its partner and everything they made', async () => {
      const all = (await call('GET', '/api/vendor-api/sandbox')).body.data
      const before = await ownedCounts()
      // The first has a ticket in the sandbox PSA, an event and a mapping.
      const first = all[0]
      const gone = await call('DELETE', `/api/vendor-api/sandbox/${first.integrationId}`)
      assert.equal(gone.status, 204, gone.text)
      const after = await ownedCounts()
      assert.equal(after.partners, before.partners! - 1)
      assert.equal(after.integrations, before.integrations! - 1)
      assert.equal(after.sandbox_tickets, before.sandbox_tickets! - 1)
      assert.equal(after.tickets, before.tickets! - 1)
      assert.ok(after.events! < before.events!, 'its events went')
      assert.equal(after.rules, before.rules! - 1)
      const list = (await call('GET', '/api/vendor-api/sandbox')).body.data
      assert.equal(list.length, all.length - 1)
      assert.equal(
        list.some((e: { integrationId: string }) => e.integrationId === first.integrationId),
        false,
      )
      const again = await call('DELETE', `/api/vendor-api/sandbox/${first.integrationId}`)
      assert.equal(again.status, 404, again.text)
      // With one deleted, one more may be made.
      assert.equal((await call('POST', '/api/vendor-api/sandbox', {})).status, 201)
      // The delete is in the operator audit log, the vendor's token as actor.
      const audit = await svc.request('GET', `/api/admin/audit?targetId=${first.partnerId}`, {
        token: svc.adminToken,
      })
      assert.deepEqual(audit.body.data.map((e: { action: string }) => e.action).sort(), [
        'partner.create',
        'partner.delete',
      ])
    })

    test('a vendor whose catalogue is not stored must name a product group of one', async () => {
      const made = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'No List' },
      })
      const bare = await issueToken(svc, made.body)
      const before = await ownedCounts()
      const beforeAll = await svc.snapshot()
      const refused = await call('POST', '/api/vendor-api/sandbox', {}, bare)
      assert.equal(refused.status, 400, refused.text)
      assert.match(refused.body.detail, /^productGroup: /)
      assert.deepEqual(await ownedCounts(), before)
      // Without any catalogue no rule can name a group: the create is refused and leaves nothing.
      const named = await call('POST', '/api/vendor-api/sandbox', { productGroup: 'Anything' }, bare)
      assert.equal(named.status, 400, named.text)
      assert.match(named.body.detail, /no product-group catalogue/)
      assert.deepEqual(await svc.snapshot(), beforeAll)
      assert.deepEqual(await ownedCounts(), before)
    })
  })
}
