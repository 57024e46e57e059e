// Failed portal sign-ins slow down the address that fails, never the owner elsewhere
// (docs/decisions/portal/sign-in-slowdown.md), in each limiter store (memory; Redis for every process):
// an attacker's failures from A never stop the owner signing in from B; A's wait grows; an address
// failing over many emails is stopped; refusals are the contract's failure with Retry-After.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { goodPassword, newPortalUser } from '../../support/portal.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'
import { hold, waitFor } from '../../support/wait.js'

for (const backend of backends('matrix')) {
  describe(`failed sign-ins slow down the failing address (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({
        backend,
        // One failure free per address and email; six failures from an address across emails.
        env: { SIGN_IN_FAILURES_PER_EMAIL: '1', SIGN_IN_FAILURES_PER_IP: '6', TRUST_PROXY: '127.0.0.1' },
      })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    const attempt = (email: string, password: string, ip: string) =>
      svc.request('POST', '/api/partner/session', {
        body: { email, password },
        headers: { 'x-forwarded-for': ip },
      })

    test("an attacker's failures from one address never stop the owner signing in from another", async () => {
      const owner = await newPortalUser(svc, s, 'admin')
      let refused = 0
      for (let i = 0; i < 8; i++) {
        const res = await attempt(owner.email, `guess number ${i}!`, '203.0.113.66')
        if (res.status === 429) refused++
        else expectFailure(res, 401, 'INVALID_CREDENTIALS')
        // The owner, from home, between the attacker's tries.
        assert.equal((await attempt(owner.email, goodPassword, '198.51.100.20')).status, 200)
      }
      assert.ok(refused > 0, 'the attacker was slowed down')
      // Right after a failure, even the right password is refused from the attacker's address.
      await waitFor(
        async () => (await attempt(owner.email, 'one more guess', '203.0.113.66')).status === 401,
        {
          what: 'the attacker to be let try again once the wait is over',
          timeoutMs: 10_000,
          intervalMs: 250,
        },
      )
      const waiting = await attempt(owner.email, goodPassword, '203.0.113.66')
      expectFailure(waiting, 429, 'RATE_LIMITED')
      assert.ok(Number(waiting.headers.get('retry-after')) >= 2)
    })

    test('the wait of an address for an email grows with each failure, and a success clears it', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      const ip = '203.0.113.77'
      expectFailure(await attempt(user.email, 'wrong password!', ip), 401, 'INVALID_CREDENTIALS')
      expectFailure(await attempt(user.email, 'wrong password!', ip), 401, 'INVALID_CREDENTIALS')
      const first = await attempt(user.email, goodPassword, ip)
      expectFailure(first, 429, 'RATE_LIMITED')
      assert.equal(first.headers.get('retry-after'), '1')
      assert.match(first.body.detail, /try again in 1 second\./)
      await hold(1100, 'the 1 s wait runs out')
      expectFailure(await attempt(user.email, 'wrong password!', ip), 401, 'INVALID_CREDENTIALS')
      const second = await attempt(user.email, goodPassword, ip)
      expectFailure(second, 429, 'RATE_LIMITED')
      assert.equal(second.headers.get('retry-after'), '2')
      await hold(2100, 'the 2 s wait runs out')
      assert.equal((await attempt(user.email, goodPassword, ip)).status, 200)
      // Cleared: the next failure is a free one again.
      expectFailure(await attempt(user.email, 'wrong password!', ip), 401, 'INVALID_CREDENTIALS')
      assert.equal((await attempt(user.email, goodPassword, ip)).status, 200)
    })

    test('an address that fails over many emails is refused for all of them, other addresses are not', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      for (let i = 0; i < 6; i++)
        expectFailure(
          await attempt(`sprayed${i}@msp.example`, 'Summer2026!', '192.0.2.99'),
          401,
          'INVALID_CREDENTIALS',
        )
      const refused = await attempt(user.email, goodPassword, '192.0.2.99')
      expectFailure(refused, 429, 'RATE_LIMITED')
      const retryAfter = Number(refused.headers.get('retry-after'))
      assert.ok(retryAfter > 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`)
      assert.equal((await attempt(user.email, goodPassword, '192.0.2.100')).status, 200)
    })

    test('colleagues signing in from one office address do not use up its allowance', async () => {
      const users = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => newPortalUser(svc, s, 'viewer')))
      for (const u of users) assert.equal((await attempt(u.email, goodPassword, '192.0.2.10')).status, 200)
      expectFailure(await attempt(users[0]!.email, 'typo password', '192.0.2.10'), 401, 'INVALID_CREDENTIALS')
      assert.equal((await attempt(users[1]!.email, goodPassword, '192.0.2.10')).status, 200)
    })
  })
}
