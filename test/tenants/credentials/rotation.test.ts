// Rotating credentials with an overlap window (docs/decisions/credentials/overlap-window.md), over HTTP on
// both databases, with the service's clock moved by hand: a vendor's client secret (operator API and vendor
// API), an integration's organizationOemToken and a partner's API key. Inside the window the old and the
// new value both work; after it, or once the window is ended early, only the new one — including the access
// tokens the old one obtained.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncFailure, expectSyncSuccess } from '../../support/shapes.js'

const hour = 3600_000
const day = 24 * hour

for (const backend of backends('matrix')) {
  describe(`credential rotation (${backend})`, () => {
    const clock = manualClock()
    let svc: TestService
    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })
    const token = (clientId: string, clientSecret: string, orgToken?: string) =>
      svc.request('POST', '/api/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
          scope: 'vendor_manage',
          ...(orgToken ? { organization_oem_token: orgToken } : {}),
        },
      })
    /** A vendor API read that works with any valid token. */
    const vendorRead = (accessToken: string) =>
      svc.request('GET', '/api/oem-api/integration/list', { token: accessToken })

    before(async () => {
      svc = await startService({ backend, clock })
    })
    after(() => svc.close())

    test('client secret: the old one obtains tokens and sends alerts inside the window, and not after it', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Rotating Vendor' })
      const rotated = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`)
      assert.equal(rotated.status, 200, rotated.text)
      assert.match(rotated.body.clientSecret, /^abs_/)
      assert.notEqual(rotated.body.clientSecret, s.clientSecret)
      assert.equal(rotated.body.rotatedAt, clock().toISOString())
      assert.equal(rotated.body.previousValidUntil, new Date(clock().getTime() + day).toISOString())
      const fresh: string = rotated.body.clientSecret

      // Inside the window: both secrets obtain tokens and send alerts.
      assert.equal((await token(s.clientId, s.clientSecret)).status, 200)
      assert.equal((await token(s.clientId, fresh)).status, 200)
      expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      expectSyncSuccess(
        await svc.request('POST', '/api/oem-alerts-api/alert/sync', {
          body: { ...s.body({ accountId: 'acme-001', alertType: 'Agent Offline' }), clientSecret: fresh },
        }),
        { status: 201, message: 'created' },
      )
      const view = await admin('GET', `/api/admin/vendors/${s.vendorId}`)
      assert.deepEqual(view.body.clientSecretRotation, {
        rotatedAt: rotated.body.rotatedAt,
        previousValidUntil: rotated.body.previousValidUntil,
      })

      // A second before the end it still works; at the end it does not.
      clock.advance(day - 1000)
      const oldToken = await token(s.clientId, s.clientSecret)
      assert.equal(oldToken.status, 200, oldToken.text)
      assert.equal((await vendorRead(oldToken.body.access_token)).status, 200)
      clock.advance(1000)
      const refused = await token(s.clientId, s.clientSecret)
      assert.equal(refused.status, 401, refused.text)
      assert.equal(refused.body.error, 'invalid_client')
      expectSyncFailure(await s.sync({ alertType: 'Ransomware Behaviour' }), {
        status: 401,
        error: 'INVALID_CREDENTIALS',
      })
      // The token the old secret obtained dies with it; a token of the new one works.
      const dead = await vendorRead(oldToken.body.access_token)
      expectFailure(dead, 401, 'INVALID_CREDENTIALS')
      assert.match(dead.body.detail, /rotated out/)
      const newToken = await token(s.clientId, fresh)
      assert.equal(newToken.status, 200)
      assert.equal((await vendorRead(newToken.body.access_token)).status, 200)
      assert.equal(
        (await admin('GET', `/api/admin/vendors/${s.vendorId}`)).body.clientSecretRotation.previousValidUntil,
        null,
      )
    })

    test('client secret: overlap 0 cuts the old one off at once; end-overlap does so mid-window', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Leaky Vendor' })
      const cut = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`, {
        overlapSeconds: 0,
      })
      assert.equal(cut.status, 200, cut.text)
      assert.equal(cut.body.previousValidUntil, null)
      assert.equal((await token(s.clientId, s.clientSecret)).status, 401)
      expectSyncFailure(await s.sync(), { status: 401, error: 'INVALID_CREDENTIALS' })
      expectFailure(await vendorRead(s.vendorToken), 401, 'INVALID_CREDENTIALS')

      const second = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`, {
        overlapSeconds: 3600,
      })
      const viaMiddle = await token(s.clientId, cut.body.clientSecret)
      assert.equal(viaMiddle.status, 200)
      const ended = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/end-overlap`)
      assert.equal(ended.status, 200, ended.text)
      assert.deepEqual(ended.body, { rotatedAt: second.body.rotatedAt, previousValidUntil: null })
      assert.equal((await token(s.clientId, cut.body.clientSecret)).status, 401)
      expectFailure(await vendorRead(viaMiddle.body.access_token), 401, 'INVALID_CREDENTIALS')
      assert.equal((await token(s.clientId, second.body.clientSecret)).status, 200)
    })

    test('client secret: rotating again inside a window retires the oldest secret at once', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Twice Vendor' })
      const first = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`)
      const second = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`)
      assert.equal((await token(s.clientId, s.clientSecret)).status, 401, 'two rotations back')
      assert.equal((await token(s.clientId, first.body.clientSecret)).status, 200, 'the one replaced last')
      assert.equal((await token(s.clientId, second.body.clientSecret)).status, 200)
    })

    test('the overlap window is bounded: 0 to 7 days, whole seconds; bad input changes nothing', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Bounded Vendor' })
      const before = await svc.counts()
      for (const overlapSeconds of [-1, 604_801, 1.5, '3600', null]) {
        const res = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`, {
          overlapSeconds,
        })
        expectFailure(res, 400, 'VALIDATION_FAILED')
      }
      expectFailure(
        await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`, { overlap: 10 }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(await admin('POST', '/api/admin/vendors/nope/client-secret/rotate'), 404, 'NOT_FOUND')
      expectFailure(
        await svc.request('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`, {
          token: s.partnerKey,
        }),
        401,
        'INVALID_CREDENTIALS',
      )
      assert.deepEqual(await svc.counts(), before)
      assert.equal((await token(s.clientId, s.clientSecret)).status, 200, 'the secret did not change')
      const week = await admin('POST', `/api/admin/vendors/${s.vendorId}/client-secret/rotate`, {
        overlapSeconds: 604_800,
      })
      assert.equal(week.body.previousValidUntil, new Date(clock().getTime() + 7 * day).toISOString())
    })

    test('the vendor rotates its own client secret with a token and its current secret', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Self-service Vendor' })
      const path = '/api/vendor-api/credentials/client-secret/rotate'
      expectFailure(
        await svc.request('POST', path, { body: { clientSecret: s.clientSecret } }),
        401,
        'UNAUTHENTICATED',
      )
      expectFailure(
        await svc.request('POST', path, { token: s.vendorToken, body: { clientSecret: 'abs_wrong' } }),
        401,
        'INVALID_CREDENTIALS',
      )
      expectFailure(
        await svc.request('POST', path, { token: s.vendorToken, body: {} }),
        400,
        'VALIDATION_FAILED',
      )
      const rotated = await svc.request('POST', path, {
        token: s.vendorToken,
        body: { clientSecret: s.clientSecret, overlapSeconds: 2 * 3600 },
      })
      assert.equal(rotated.status, 200, rotated.text)
      assert.match(rotated.body.clientSecret, /^abs_/)
      assert.equal(rotated.body.previousValidUntil, new Date(clock().getTime() + 2 * hour).toISOString())
      // The replaced secret still obtains tokens, but cannot rotate again (a leaked one cannot take over).
      assert.equal((await token(s.clientId, s.clientSecret)).status, 200)
      const again = await svc.request('POST', path, {
        token: s.vendorToken,
        body: { clientSecret: s.clientSecret },
      })
      expectFailure(again, 403, 'FORBIDDEN')
      const state = await svc.request('GET', '/api/vendor-api/credentials', { token: s.vendorToken })
      assert.equal(state.status, 200, state.text)
      assert.equal(state.body.clientSecret.previousValidUntil, rotated.body.previousValidUntil)
      assert.deepEqual(state.body.webhookSecret, { rotatedAt: null, previousValidUntil: null })

      const ended = await svc.request('POST', '/api/vendor-api/credentials/client-secret/end-overlap', {
        token: s.vendorToken,
        body: { clientSecret: rotated.body.clientSecret },
      })
      assert.equal(ended.status, 200, ended.text)
      assert.equal(ended.body.previousValidUntil, null)
      assert.equal((await token(s.clientId, s.clientSecret)).status, 401)
      assert.equal((await token(s.clientId, rotated.body.clientSecret)).status, 200)
    })

    test('organization token: the old one works for alerts and bound tokens inside the window, not after', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Org Vendor' })
      // Half an hour: the access tokens of the setup (valid an hour) outlive the window.
      const rotated = await admin(
        'POST',
        `/api/admin/integrations/${s.integrationId}/organization-oem-token/rotate`,
        { overlapSeconds: 1800 },
      )
      assert.equal(rotated.status, 200, rotated.text)
      assert.match(rotated.body.organizationOemToken, /^abo_/)
      const fresh: string = rotated.body.organizationOemToken
      const bound = await token(s.clientId, s.clientSecret, s.orgToken)
      assert.equal(bound.status, 200, bound.text)
      assert.equal(bound.body.integration_id, s.integrationId)
      expectSyncSuccess(await s.sync(), { status: 201, message: 'created' })
      expectSyncSuccess(await s.sync({ alertType: 'Agent Offline' }, { organizationOemToken: fresh }), {
        status: 201,
        message: 'created',
      })
      const view = await admin('GET', `/api/admin/integrations/${s.integrationId}`)
      assert.equal(view.body.organizationOemTokenRotation.previousValidUntil, rotated.body.previousValidUntil)

      clock.advance(hour / 2)
      expectSyncFailure(await s.sync({ alertType: 'Ransomware Behaviour' }), {
        status: 401,
        error: 'INVALID_CREDENTIALS',
      })
      assert.equal((await token(s.clientId, s.clientSecret, s.orgToken)).status, 401)
      // Tokens bound with the old organization token die with it; unbound tokens are untouched.
      for (const t of [bound.body.access_token, s.vendorToken]) {
        const dead = await vendorRead(t)
        expectFailure(dead, 401, 'INVALID_CREDENTIALS')
        assert.match(dead.body.detail, /organization token/)
      }
      assert.equal(
        (await vendorRead((await token(s.clientId, s.clientSecret)).body.access_token)).status,
        200,
      )
      const rebound = await token(s.clientId, s.clientSecret, fresh)
      assert.equal(rebound.status, 200)
      assert.equal((await vendorRead(rebound.body.access_token)).status, 200)
      // The partner mints the token it hands to its vendor too (docs/partner-api.md#the-organization-token):
      // with no window, the operator's stops at once.
      const minted = await s.partner(
        'POST',
        `/api/partner/integrations/${s.integrationId}/organization-oem-token/rotate`,
        { overlapSeconds: 0 },
      )
      assert.equal(minted.status, 200, minted.text)
      assert.equal((await token(s.clientId, s.clientSecret, fresh)).status, 401)
      assert.equal((await token(s.clientId, s.clientSecret, minted.body.organizationOemToken)).status, 200)
    })

    test('partner API key: the old one works inside the window and not after; the partner rotates its own', async () => {
      const s = await setupIntegration(svc, { partnerName: 'Rotating MSP' })
      const read = (key: string) => svc.request('GET', '/api/partner/integrations', { token: key })
      const rotated = await admin('POST', `/api/admin/partners/${s.partnerId}/api-key/rotate`, {
        overlapSeconds: 600,
      })
      assert.equal(rotated.status, 200, rotated.text)
      assert.match(rotated.body.apiKey, /^abp_/)
      const fresh: string = rotated.body.apiKey
      assert.equal((await read(s.partnerKey)).status, 200)
      assert.equal((await read(fresh)).status, 200)
      const usedOld = await svc.request('GET', '/api/partner/api-key', { token: s.partnerKey })
      assert.equal(usedOld.body.usedKey, 'previous')
      // The replaced key reads, but does not manage keys.
      expectFailure(
        await svc.request('POST', '/api/partner/api-key/rotate', { token: s.partnerKey, body: {} }),
        403,
        'FORBIDDEN',
      )
      clock.advance(600_000)
      expectFailure(await read(s.partnerKey), 401, 'INVALID_CREDENTIALS')
      assert.equal((await read(fresh)).status, 200)

      // Self-service, with the current key.
      const own = await svc.request('POST', '/api/partner/api-key/rotate', {
        token: fresh,
        body: { overlapSeconds: 60 },
      })
      assert.equal(own.status, 200, own.text)
      assert.equal((await read(fresh)).status, 200, 'inside its window')
      const ended = await svc.request('POST', '/api/partner/api-key/end-overlap', { token: own.body.apiKey })
      assert.equal(ended.status, 200, ended.text)
      expectFailure(await read(fresh), 401, 'INVALID_CREDENTIALS')
      assert.equal((await read(own.body.apiKey)).status, 200)
      const partnerView = await admin('GET', `/api/admin/partners/${s.partnerId}`)
      assert.deepEqual(partnerView.body.apiKeyRotation, {
        rotatedAt: own.body.rotatedAt,
        previousValidUntil: null,
      })
    })
  })
}
