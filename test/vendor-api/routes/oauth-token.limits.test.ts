// Token issuance is limited per vendor (docs/decisions/bounded-growth/token-issuance-limited.md): a cap on
// tokens that still work and a rate of issuance, both answered 429 with Retry-After in the token endpoint's
// failure shape, storing nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'

const tokenRequest = (svc: TestService, s: Pick<Setup, 'clientId' | 'clientSecret'>) =>
  svc.request('POST', '/api/oauth/token', {
    body: { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret },
  })

function expectRefused(res: { status: number; body: any; headers: Headers; text: string }): number {
  assert.equal(res.status, 429, res.text)
  assert.equal(res.body.message, 'failed')
  assert.equal(res.body.statusCode, 429)
  assert.equal(res.body.error, 'RATE_LIMITED')
  assert.equal(typeof res.body.error_description, 'string')
  assert.equal(res.body.detail, res.body.error_description)
  assert.equal(res.body.access_token, undefined)
  const retryAfter = Number(res.headers.get('retry-after'))
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0, `Retry-After: ${res.headers.get('retry-after')}`)
  return retryAfter
}

for (const backend of backends('matrix')) {
  describe(`access tokens a minute (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend, env: { ACCESS_TOKEN_ISSUE_PER_MINUTE: '3' } })
    })
    after(() => svc.close())

    test('past ACCESS_TOKEN_ISSUE_PER_MINUTE a vendor gets 429 with Retry-After and no token; other vendors do not', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Eager' }) // its first token
      for (let i = 0; i < 2; i++) assert.equal((await tokenRequest(svc, s)).status, 200)
      const before = await svc.counts()
      const retryAfter = expectRefused(await tokenRequest(svc, s))
      assert.ok(retryAfter <= 60)
      assert.match(
        (await tokenRequest(svc, s)).body.detail,
        /More than 3 access tokens requested in a minute/,
      )
      assert.deepEqual(await svc.counts(), before, 'a refused request stores nothing')

      const other = await setupIntegration(svc, { vendorName: 'Calm' })
      assert.equal((await tokenRequest(svc, other)).status, 200, 'the limit is per vendor')
    })
  })

  describe(`access tokens at once (${backend})`, () => {
    const clock = manualClock()
    let svc: TestService
    before(async () => {
      svc = await startService({ backend, clock, env: { ACCESS_TOKEN_MAX_ACTIVE: '3' } })
    })
    after(() => svc.close())

    test('a vendor holding ACCESS_TOKEN_MAX_ACTIVE working tokens gets 429 until one expires or is revoked', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Hoarder' }) // its first token
      for (let i = 0; i < 2; i++) assert.equal((await tokenRequest(svc, s)).status, 200)
      const before = await svc.counts()
      const refused = await tokenRequest(svc, s)
      assert.equal(expectRefused(refused), 3600, 'Retry-After: when the first token expires')
      assert.match(refused.body.detail, /already holds 3 unexpired access tokens/)
      assert.deepEqual(await svc.counts(), before, 'a refused request stores nothing')

      // Another vendor has its own cap.
      const other = await setupIntegration(svc, { vendorName: 'Frugal' })
      assert.equal((await tokenRequest(svc, other)).status, 200)

      // A revoked token frees its place.
      const admin = { token: svc.adminToken }
      const list = await svc.request('GET', `/api/admin/vendors/${s.vendorId}/tokens`, admin)
      const revoked = await svc.request(
        'POST',
        `/api/admin/vendors/${s.vendorId}/tokens/${list.body.data[0].id}/revoke`,
        admin,
      )
      assert.equal(revoked.status, 200, revoked.text)
      assert.equal((await tokenRequest(svc, s)).status, 200)
      expectRefused(await tokenRequest(svc, s))

      // Half an hour on, the first token expires in 30 minutes; after an hour every place is free.
      clock.advance(1800_000)
      assert.equal(expectRefused(await tokenRequest(svc, s)), 1800)
      clock.advance(1800_000)
      for (let i = 0; i < 3; i++) assert.equal((await tokenRequest(svc, s)).status, 200)
      expectRefused(await tokenRequest(svc, s))
    })

    test('requests racing each other never take a vendor past the cap', async () => {
      const s = await setupIntegration(svc, { vendorName: 'Racer' }) // one of its 3
      const answers = await Promise.all(Array.from({ length: 12 }, () => tokenRequest(svc, s)))
      assert.equal(answers.filter((a) => a.status === 200).length, 2)
      assert.equal(answers.filter((a) => a.status === 429).length, 10)
      const live = await svc.request('GET', `/api/admin/vendors/${s.vendorId}/tokens?active=true`, {
        token: svc.adminToken,
      })
      assert.equal(live.body.data.length, 3)
    })
  })
}
