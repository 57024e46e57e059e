// A vendor's test partner never reaches a real PSA (docs/vendor-api.md#self-serve-test-mode): every path
// that saves a partner's PSA connection refuses any kind but the sandbox for it — the partner's own
// PUT /api/partner/psa, the operator's PATCH /api/admin/partners/{id}, and the repository's write
// itself — while a real partner may connect any PSA. Refusals change nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { catalogue, issueToken, setupIntegration } from '../support/fixtures.js'
import { backends, startService, type TestService } from '../support/service.js'

const connectwise = {
  kind: 'connectwise',
  baseUrl: 'https://psa.example.com',
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'private-key-1234',
  clientId: '00000000-0000-4000-8000-000000000001',
}

for (const backend of backends()) {
  describe(`test partners stay on the sandbox PSA (${backend})`, () => {
    let svc: TestService
    let box: { partnerId: string; partnerApiKey: string; integrationId: string }
    before(async () => {
      svc = await startService({ backend, env: { ALLOW_PRIVATE_NETWORK: 'true' } })
      const vendor = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Acme Security', productGroups: catalogue },
      })
      const token = await issueToken(svc, vendor.body)
      const made = await svc.request('POST', '/api/vendor-api/sandbox', { token, body: {} })
      assert.equal(made.status, 201, made.text)
      box = made.body
    })
    after(() => svc.close())

    const psaOf = async (partnerId: string) =>
      (await svc.request('GET', `/api/admin/partners/${partnerId}`, { token: svc.adminToken })).body.psa.kind

    test("the test partner's own PUT /api/partner/psa with a real PSA answers 409, changing nothing", async () => {
      const before = await svc.snapshot()
      const refused = await svc.request('PUT', '/api/partner/psa', {
        token: box.partnerApiKey,
        body: connectwise,
      })
      assert.equal(refused.status, 409, refused.text)
      assert.equal(refused.body.error, 'CONFLICT')
      assert.match(refused.body.detail, /test partner/)
      assert.deepEqual(await svc.snapshot(), before)
      assert.equal(await psaOf(box.partnerId), 'sandbox')
    })

    test("the test partner's own view of its PSA says it is a test partner", async () => {
      const view = await svc.request('GET', '/api/partner/psa', { token: box.partnerApiKey })
      assert.equal(view.status, 200, view.text)
      assert.deepEqual([view.body.kind, view.body.test], ['sandbox', true])
    })

    test('the sandbox itself may still be saved again, with other defaults', async () => {
      const saved = await svc.request('PUT', '/api/partner/psa', {
        token: box.partnerApiKey,
        body: { kind: 'sandbox', defaults: { board: 'Help Desk' } },
      })
      assert.equal(saved.status, 200, saved.text)
      assert.equal(await psaOf(box.partnerId), 'sandbox')
    })

    test("the operator's PATCH of the test partner to a real PSA answers 409, changing nothing", async () => {
      const before = await svc.snapshot()
      const refused = await svc.request('PATCH', `/api/admin/partners/${box.partnerId}`, {
        token: svc.adminToken,
        body: { psa: connectwise },
      })
      assert.equal(refused.status, 409, refused.text)
      assert.equal(refused.body.error, 'CONFLICT')
      assert.deepEqual(await svc.snapshot(), before)
      // A name is not a PSA: that change is taken.
      const renamed = await svc.request('PATCH', `/api/admin/partners/${box.partnerId}`, {
        token: svc.adminToken,
        body: { name: 'Renamed test MSP' },
      })
      assert.equal(renamed.status, 200, renamed.text)
      assert.equal(renamed.body.sandbox, true)
    })

    test("the repository's write itself skips a test partner's row for a real PSA", async () => {
      const { store, clock } = svc.services
      await store.partners.update(
        box.partnerId,
        { psa: { kind: 'connectwise', settings: connectwise } },
        clock().toISOString(),
      )
      assert.equal(await psaOf(box.partnerId), 'sandbox')
    })

    test('a real partner connects a real PSA as before, and is not marked', async () => {
      const real = await setupIntegration(svc, { vendorName: 'Other' })
      const saved = await real.partner('PUT', '/api/partner/psa', connectwise)
      assert.equal(saved.status, 200, saved.text)
      const view = await svc.request('GET', `/api/admin/partners/${real.partnerId}`, {
        token: svc.adminToken,
      })
      assert.equal(view.body.psa.kind, 'connectwise')
      assert.equal(view.body.sandbox, false)
      assert.equal(view.body.sandboxVendorId, null)
      const own = await real.partner('GET', '/api/partner/psa')
      assert.equal(own.body.test, undefined)
    })
  })
}
