// A portal user's own sessions and password (docs/partner-api.md#portal-users-and-sessions): they see
// where they are signed in (browser, address, when), end one or every other, and change their password,
// which ends every other session; passwords easy to guess, or built from the user's email, name, partner
// or the product's name, are refused with the reason, on an invite's acceptance and on a change.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { goodPassword, newPortalUser, portalSession, signIn } from '../../support/portal.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0'
const phone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'

for (const backend of backends('matrix')) {
  describe(`your own sessions and password (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend, env: { TRUST_PROXY: '127.0.0.1' } })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    const signInFrom = async (email: string, userAgent: string, ip: string, password = goodPassword) =>
      portalSession(
        svc,
        await svc.request('POST', '/api/partner/session', {
          body: { email, password },
          headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
        }),
        email,
      )

    test('a user sees their sessions with browser, address and times; not another user’s', async () => {
      const user = await newPortalUser(svc, s, 'viewer')
      const office = await signInFrom(user.email, firefox, '198.51.100.5')
      await signInFrom(user.email, phone, '203.0.113.9')
      await newPortalUser(svc, s, 'admin')
      const res = await office.request('GET', '/api/partner/sessions')
      assert.equal(res.status, 200, res.text)
      assert.equal(res.headers.get('cache-control'), 'no-store')
      const list = res.body.data as Record<string, unknown>[]
      assert.equal(list.length, 3, 'the invite’s session and two sign-ins')
      const current = list.filter((x) => x.current)
      assert.equal(current.length, 1)
      assert.deepEqual(
        { userAgent: current[0]!.userAgent, address: current[0]!.address },
        { userAgent: firefox, address: '198.51.100.5' },
      )
      assert.ok(list.some((x) => x.userAgent === phone && x.address === '203.0.113.9'))
      for (const x of list) {
        assert.deepEqual(Object.keys(x).sort(), [
          'address',
          'createdAt',
          'current',
          'expiresAt',
          'id',
          'lastSeenAt',
          'userAgent',
        ])
        assert.match(String(x.id), /^[0-9a-f]{32}$/)
        assert.ok(!office.cookie.includes(String(x.id)))
      }
      // The API key has no user: it has no sessions of its own.
      expectFailure(await s.partner('GET', '/api/partner/sessions'), 401, 'UNAUTHENTICATED')
    })

    test('ending one session; ending every other; another user’s session cannot be named', async () => {
      const user = await newPortalUser(svc, s, 'viewer')
      const a = await signInFrom(user.email, firefox, '198.51.100.6')
      const b = await signInFrom(user.email, phone, '203.0.113.10')
      const c = await signIn(svc, user.email)
      const list = (await a.request('GET', '/api/partner/sessions')).body.data as {
        id: string
        userAgent: string | null
      }[]
      const phoneSession = list.find((x) => x.userAgent === phone)!
      const stranger = await newPortalUser(svc, s, 'admin')
      expectFailure(
        await stranger.request('DELETE', `/api/partner/sessions/${phoneSession.id}`),
        404,
        'NOT_FOUND',
      )
      assert.equal((await b.request('GET', '/api/partner/session')).status, 200)
      // The portal's first question is answered 200 either way: the session, or null.
      const live = await b.request('GET', '/api/partner/session/status')
      assert.equal(live.status, 200, live.text)
      assert.equal(live.body.session.user.email, user.email)
      assert.equal(live.body.session.csrfToken, b.csrfToken)
      const signedOut = await svc.request('GET', '/api/partner/session/status')
      assert.deepEqual([signedOut.status, signedOut.body], [200, { session: null }])
      assert.equal(signedOut.headers.get('set-cookie'), null, 'no cookie to clear')

      const ended = await a.request('DELETE', `/api/partner/sessions/${phoneSession.id}`)
      assert.equal(ended.status, 204, ended.text)
      expectFailure(await b.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
      const gone = await b.request('GET', '/api/partner/session/status')
      assert.deepEqual([gone.status, gone.body], [200, { session: null }])
      assert.match(
        gone.headers.get('set-cookie') ?? '',
        /Max-Age=0/i,
        'the ended session’s cookie is cleared',
      )
      expectFailure(await a.request('DELETE', `/api/partner/sessions/${phoneSession.id}`), 404, 'NOT_FOUND')

      const others = await a.request('POST', '/api/partner/sessions/end-others')
      assert.equal(others.status, 200, others.text)
      assert.deepEqual(others.body, { ended: 2 }, 'the invite’s session and c')
      expectFailure(await c.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
      assert.equal((await a.request('GET', '/api/partner/session')).status, 200)
      const left = (await a.request('GET', '/api/partner/sessions')).body.data as { current: boolean }[]
      assert.deepEqual(
        left.map((x) => x.current),
        [true],
      )
      // Without the CSRF token, nothing ends.
      expectFailure(
        await a.request('POST', '/api/partner/sessions/end-others', undefined, { csrf: null }),
        403,
        'FORBIDDEN',
      )
    })

    test('ending the current session signs out and clears the cookie', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      const mine = (await user.request('GET', '/api/partner/sessions')).body.data.find(
        (x: { current: boolean }) => x.current,
      )
      const res = await user.request('DELETE', `/api/partner/sessions/${mine.id}`)
      assert.equal(res.status, 204, res.text)
      assert.match(res.headers.get('set-cookie')!, /^alertbridge_session=; Max-Age=0/)
      expectFailure(await user.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
    })

    test('a password change needs the current password and ends every other session', async () => {
      const user = await newPortalUser(svc, s, 'viewer')
      const other = await signIn(svc, user.email)
      const change = (currentPassword: string, newPassword: string) =>
        user.request('POST', '/api/partner/session/password', { currentPassword, newPassword })
      const wrong = await change('not my password', 'a brand new passphrase')
      expectFailure(wrong, 401, 'INVALID_CREDENTIALS')
      assert.equal(wrong.body.detail, 'The current password is wrong.')
      assert.equal((await user.request('GET', '/api/partner/session')).status, 200, 'still signed in')

      const changed = await change(goodPassword, 'a brand new passphrase')
      assert.equal(changed.status, 200, changed.text)
      assert.deepEqual(changed.body, { endedSessions: 1 })
      expectFailure(await other.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
      assert.equal((await user.request('GET', '/api/partner/session')).status, 200, 'this session lives on')
      expectFailure(
        await svc.request('POST', '/api/partner/session', {
          body: { email: user.email, password: goodPassword },
        }),
        401,
        'INVALID_CREDENTIALS',
      )
      assert.equal((await signIn(svc, user.email, 'a brand new passphrase')).userId, user.userId)
      // The API key has no password to change.
      expectFailure(
        await s.partner('POST', '/api/partner/session/password', {
          currentPassword: goodPassword,
          newPassword: 'another brand new passphrase',
        }),
        401,
        'UNAUTHENTICATED',
      )
    })

    test('passwords easy to guess are refused with the reason, on a change and on accepting an invite', async () => {
      const user = await newPortalUser(svc, s, 'admin', 'pat.jones@msp.example')
      for (const [weak, why] of [
        ['aaaaaaaaaaaa', /Repeated characters/],
        ['password1234', /commonly used password/],
        ['qwertyuiop123', /too easy to guess/],
        ['pat.jones@msp.example', /too easy to guess/],
      ] as const) {
        const res = await user.request('POST', '/api/partner/session/password', {
          currentPassword: goodPassword,
          newPassword: weak,
        })
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, /^This password is too easy to guess\./)
        assert.match(res.body.detail, why)
      }
      const short = await user.request('POST', '/api/partner/session/password', {
        currentPassword: goodPassword,
        newPassword: 'elevenchars',
      })
      expectFailure(short, 400, 'VALIDATION_FAILED')

      const invited = await s.partner('POST', '/api/partner/users', {
        email: 'weak@msp.example',
        role: 'viewer',
      })
      const before = await svc.snapshot()
      const accept = (password: string) =>
        svc.request('POST', '/api/partner/session/invite', {
          body: { inviteToken: invited.body.inviteToken, password },
        })
      const refused = await accept('aaaaaaaaaaaa')
      expectFailure(refused, 400, 'VALIDATION_FAILED')
      assert.match(refused.body.detail, /Repeated characters like "aaa" are easy to guess/)
      assert.deepEqual(await svc.snapshot(), before, 'nothing changed')
      assert.equal((await accept('weak no longer, a real passphrase')).status, 200)
    })

    test("passwords built from the user's email, the partner's or the product's name are refused, naming it", async () => {
      const demo = await setupIntegration(svc, { partnerName: 'Demo MSP' })
      const builtFrom: [string, RegExp][] = [
        ['demo-msp.example1', /built from your email address/],
        ['Alertbridge2026', /built from this product's name/],
        ['DemoMSP2026!!', /built from .*your organisation's name/],
        ['Dana Scully 2026', /built from your name/],
      ]
      // The first admin, invited by the operator, accepting the invite.
      const invited = await svc.request('POST', `/api/admin/partners/${demo.partnerId}/users`, {
        token: svc.adminToken,
        body: { email: 'dana@demo-msp.example', name: 'Dana Scully', role: 'admin' },
      })
      assert.equal(invited.status, 201, invited.text)
      const before = await svc.snapshot()
      const accept = (password: string) =>
        svc.request('POST', '/api/partner/session/invite', {
          body: { inviteToken: invited.body.inviteToken, password },
        })
      for (const [weak, why] of builtFrom) {
        const res = await accept(weak)
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, /^This password is too easy to guess\. It is built from /)
        assert.match(res.body.detail, why, weak)
      }
      assert.deepEqual(await svc.snapshot(), before, 'nothing changed')
      const accepted = await accept(goodPassword)
      assert.equal(accepted.status, 200, accepted.text)
      // And changing the password later.
      const dana = portalSession(svc, accepted, 'dana@demo-msp.example')
      for (const [weak, why] of builtFrom) {
        const res = await dana.request('POST', '/api/partner/session/password', {
          currentPassword: goodPassword,
          newPassword: weak,
        })
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, why, weak)
      }
      // Their words beside enough of one's own are fine.
      const strong = await dana.request('POST', '/api/partner/session/password', {
        currentPassword: goodPassword,
        newPassword: 'demo msp purple otter ferry',
      })
      assert.equal(strong.status, 200, strong.text)
    })
  })
}
