// Signing in to the partner portal (docs/partner-api.md#portal-users-and-sessions): the session cookie and
// its flags, signing out, wrong credentials answered alike, throttling, CSRF, the viewer's read-only
// rights, the API key beside it.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { goodPassword, newPortalUser, sessionCookieOf, signIn } from '../../support/portal.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`portal sign-in and sessions (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({ backend })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    test('signing in answers the user and a CSRF token and sets an httpOnly, SameSite=Strict cookie', async () => {
      const user = await newPortalUser(svc, s, 'admin', 'Dana.Admin@msp.example')
      const res = await svc.request('POST', '/api/partner/session', {
        body: { email: '  DANA.admin@MSP.example ', password: goodPassword },
      })
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(Object.keys(res.body), ['user', 'csrfToken'])
      assert.deepEqual(res.body.user, {
        id: user.userId,
        email: 'dana.admin@msp.example',
        name: null,
        role: 'admin',
        partnerId: s.partnerId,
      })
      assert.match(res.body.csrfToken, /^[A-Za-z0-9_-]{43}$/)
      const cookie = res.headers.get('set-cookie')!
      assert.match(cookie, /^alertbridge_session=abw_[A-Za-z0-9_-]{43}; /)
      const flags = cookie.split('; ').slice(1)
      assert.deepEqual(flags.sort(), ['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Strict'])
      assert.equal(res.headers.get('cache-control'), 'no-store')
      const rows = await svc.services.db.kysely.selectFrom('partner_sessions').selectAll().execute()
      assert.ok(
        rows.every((r) => !cookie.includes(r.id)),
        'the cookie value is stored only as a digest',
      )
    })

    test('GET /session answers the same body; DELETE ends the session and clears the cookie', async () => {
      const user = await newPortalUser(svc, s, 'viewer')
      const read = await user.request('GET', '/api/partner/session')
      assert.equal(read.status, 200, read.text)
      assert.deepEqual(read.body, {
        user: { id: user.userId, email: user.email, name: null, role: 'viewer', partnerId: s.partnerId },
        csrfToken: user.csrfToken,
      })
      const out = await user.request('DELETE', '/api/partner/session')
      assert.equal(out.status, 204, out.text)
      assert.match(
        out.headers.get('set-cookie')!,
        /^alertbridge_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/,
      )
      const gone = await user.request('GET', '/api/partner/session')
      expectFailure(gone, 401, 'UNAUTHENTICATED')
      assert.match(gone.headers.get('set-cookie')!, /Max-Age=0/)
      expectFailure(await user.request('GET', '/api/partner/integrations'), 401, 'UNAUTHENTICATED')
    })

    test('GET /session with the API key or nothing is a 401', async () => {
      expectFailure(await s.partner('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
      expectFailure(await svc.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
      expectFailure(
        await svc.request('GET', '/api/partner/session', {
          headers: { cookie: 'alertbridge_session=abw_nope' },
        }),
        401,
        'UNAUTHENTICATED',
      )
    })

    test('a wrong password and an unknown email get the same answer, and change nothing', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      const before = await svc.snapshot()
      const wrong = await svc.request('POST', '/api/partner/session', {
        body: { email: user.email, password: 'not the password at all' },
      })
      const unknown = await svc.request('POST', '/api/partner/session', {
        body: { email: 'nobody@msp.example', password: goodPassword },
      })
      expectFailure(wrong, 401, 'INVALID_CREDENTIALS')
      expectFailure(unknown, 401, 'INVALID_CREDENTIALS')
      assert.equal(wrong.body.detail, unknown.body.detail)
      assert.equal(wrong.headers.get('set-cookie'), null)
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('an invited user who has not set a password cannot sign in', async () => {
      const invited = await s.partner('POST', '/api/partner/users', {
        email: 'pending@msp.example',
        role: 'admin',
      })
      assert.equal(invited.status, 201, invited.text)
      const res = await svc.request('POST', '/api/partner/session', {
        body: { email: 'pending@msp.example', password: goodPassword },
      })
      expectFailure(res, 401, 'INVALID_CREDENTIALS')
    })

    test('bad input to sign-in is a 400 in the failure shape and changes nothing', async () => {
      const before = await svc.snapshot()
      for (const body of [
        {},
        { email: 'a@b.c' },
        { email: 'a@b.c', password: '' },
        { email: 7, password: 'x' },
      ]) {
        expectFailure(await svc.request('POST', '/api/partner/session', { body }), 400, 'VALIDATION_FAILED')
      }
      expectFailure(
        await svc.request('POST', '/api/partner/session', {
          raw: 'email=a',
          headers: { 'content-type': 'text/plain' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      )
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('a change made with the session needs its CSRF token (403 otherwise, nothing changed); reads do not', async () => {
      const admin = await newPortalUser(svc, s, 'admin')
      const path = `/api/partner/integrations/${s.integrationId}`
      assert.equal((await admin.request('GET', path)).status, 200)
      const before = await svc.snapshot()
      for (const csrf of [null, 'wrong', `${admin.csrfToken}x`, '']) {
        const res = await admin.request('PATCH', path, { selfHealing: false }, { csrf })
        expectFailure(res, 403, 'FORBIDDEN')
        assert.match(res.body.detail, /x-csrf-token/)
      }
      assert.deepEqual(await svc.snapshot(), before)
      const ok = await admin.request('PATCH', path, { selfHealing: false })
      assert.equal(ok.status, 200, ok.text)
      assert.equal(ok.body.selfHealing, false)
      await admin.request('PATCH', path, { selfHealing: true })
    })

    test('another session’s CSRF token does not do', async () => {
      const a = await newPortalUser(svc, s, 'admin')
      const b = await newPortalUser(svc, s, 'admin')
      const res = await a.request(
        'POST',
        `/api/partner/integrations/${s.integrationId}/rules`,
        { productGroup: 'Backup' },
        { csrf: b.csrfToken },
      )
      expectFailure(res, 403, 'FORBIDDEN')
    })

    test('a viewer reads, and is refused 403 on every change but dry-run, template preview, PSA test, sign-out and their own sessions and password', async () => {
      const viewer = await newPortalUser(svc, s, 'viewer')
      assert.equal((await viewer.request('GET', '/api/partner/integrations')).status, 200)
      assert.equal((await viewer.request('GET', '/api/partner/users')).status, 200)
      assert.equal((await viewer.request('GET', '/api/partner/tickets')).status, 200)
      const doc = await svc.request('GET', '/docs/json')
      const allowed = new Set([
        'POST /api/partner/integrations/{id}/dry-run',
        // Renders templates on a sample alert and changes nothing, like the dry run.
        'POST /api/partner/integrations/{id}/template-preview',
        'POST /api/partner/psa/test',
        'DELETE /api/partner/session',
        // A user's own sessions and password: theirs, whatever their role.
        'DELETE /api/partner/sessions/{id}',
        'POST /api/partner/sessions/end-others',
        'POST /api/partner/session/password',
      ])
      const before = await svc.snapshot()
      let refused = 0
      for (const [path, methods] of Object.entries<Record<string, unknown>>(doc.body.paths)) {
        if (!path.startsWith('/api/partner/')) continue
        for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
          if (method === 'GET' || allowed.has(`${method} ${path}`)) continue
          if (path === '/api/partner/session' || path === '/api/partner/session/invite') continue
          const url = path.replace('{id}', s.integrationId).replace(/\{\w+\}/g, 'x')
          const res = await viewer.request(method, url, {})
          expectFailure(res, 403, 'FORBIDDEN')
          assert.match(res.body.detail, /viewer/, `${method} ${path}`)
          refused++
        }
      }
      assert.ok(refused > 20, `${refused} changes refused`)
      assert.deepEqual(await svc.snapshot(), before)
      const dry = await viewer.request('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: {
          title: 't',
          alertType: 'Malware Detected',
          accountId: 'acme-001',
          productGroup: 'Endpoint Security',
          incidentStatus: 'OPEN',
        },
      })
      assert.equal(dry.status, 200, dry.text)
      assert.equal((await viewer.request('POST', '/api/partner/psa/test')).status, 200)
      assert.equal((await viewer.request('DELETE', '/api/partner/session')).status, 204)
    })

    test('the API key keeps an admin’s rights and wins over a cookie sent beside it', async () => {
      const viewer = await newPortalUser(svc, s, 'viewer')
      const res = await svc.request('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
        token: s.partnerKey,
        body: { productGroup: 'Backup' },
        headers: { cookie: viewer.cookie },
      })
      assert.equal(res.status, 201, res.text)
      assert.equal(
        (await s.partner('DELETE', `/api/partner/integrations/${s.integrationId}/rules/${res.body.id}`))
          .status,
        204,
      )
      expectFailure(
        await svc.request('GET', '/api/partner/integrations', {
          token: 'abp_wrong',
          headers: { cookie: viewer.cookie },
        }),
        401,
        'INVALID_CREDENTIALS',
      )
    })

    test('a session sees only its own partner', async () => {
      const other = await setupIntegration(svc, { partnerName: 'Other MSP', vendorName: 'Other vendor' })
      const user = await newPortalUser(svc, s, 'admin')
      expectFailure(
        await user.request('GET', `/api/partner/integrations/${other.integrationId}`),
        404,
        'INTEGRATION_NOT_FOUND',
      )
      const list = await user.request('GET', '/api/partner/integrations')
      assert.deepEqual(
        list.body.data.map((i: { integrationId: string }) => i.integrationId),
        [s.integrationId],
      )
    })

    test('a disabled partner’s sessions are refused with 403 TENANT_DISABLED, and come back when it is enabled', async () => {
      const own = await setupIntegration(svc, { partnerName: 'Paused MSP', vendorName: 'Paused vendor' })
      const user = await newPortalUser(svc, own, 'admin')
      const admin = (path: string) => svc.request('POST', path, { token: svc.adminToken, body: {} })
      assert.equal((await admin(`/api/admin/partners/${own.partnerId}/disable`)).status, 200)
      expectFailure(await user.request('GET', '/api/partner/integrations'), 403, 'TENANT_DISABLED')
      expectFailure(
        await svc.request('POST', '/api/partner/session', {
          body: { email: user.email, password: goodPassword },
        }),
        403,
        'TENANT_DISABLED',
      )
      assert.equal((await admin(`/api/admin/partners/${own.partnerId}/enable`)).status, 200)
      assert.equal((await user.request('GET', '/api/partner/integrations')).status, 200)
    })
  })

  describe(`portal sign-in throttling and cookies behind a proxy (${backend})`, () => {
    let svc: TestService
    let s: Setup
    before(async () => {
      svc = await startService({
        backend,
        env: { SIGN_IN_FAILURES_PER_EMAIL: '3', SIGN_IN_FAILURES_PER_IP: '6', TRUST_PROXY: '127.0.0.1' },
      })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    const attempt = (email: string, password: string, ip = '203.0.113.7') =>
      svc.request('POST', '/api/partner/session', {
        body: { email, password },
        headers: { 'x-forwarded-for': ip },
      })

    test('past the failures allowed for an email from an address, that address waits (429, Retry-After); the owner elsewhere does not', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      for (let i = 0; i < 4; i++)
        expectFailure(await attempt(user.email, 'wrong password!', '203.0.113.1'), 401, 'INVALID_CREDENTIALS')
      const refused = await attempt(user.email, goodPassword, '203.0.113.1')
      expectFailure(refused, 429, 'RATE_LIMITED')
      const retryAfter = Number(refused.headers.get('retry-after'))
      assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`)
      // The owner from another address, and another user from the same one, are not held back.
      assert.equal((await attempt(user.email, goodPassword, '203.0.113.2')).status, 200)
      const other = await newPortalUser(svc, s, 'admin')
      assert.equal((await attempt(other.email, goodPassword, '203.0.113.1')).status, 200)
    })

    test('a success clears the failures of its address for the email', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      // Without the clearing, the second round's second failure would be the fourth: a wait.
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 2; i++)
          expectFailure(
            await attempt(user.email, 'wrong password!', '203.0.113.3'),
            401,
            'INVALID_CREDENTIALS',
          )
        assert.equal((await attempt(user.email, goodPassword, '203.0.113.3')).status, 200)
      }
    })

    test('after the failures allowed from an address, every email is refused from it (429), not from others', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      for (let i = 0; i < 6; i++)
        expectFailure(
          await attempt(`guess${i}@msp.example`, 'wrong password!', '198.51.100.9'),
          401,
          'INVALID_CREDENTIALS',
        )
      expectFailure(await attempt(user.email, goodPassword, '198.51.100.9'), 429, 'RATE_LIMITED')
      assert.equal((await attempt(user.email, goodPassword, '198.51.100.10')).status, 200)
    })

    test('behind a trusted proxy that says https, the cookie is Secure', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      const res = await svc.request('POST', '/api/partner/session', {
        body: { email: user.email, password: goodPassword },
        headers: { 'x-forwarded-proto': 'https' },
      })
      assert.equal(res.status, 200, res.text)
      assert.match(res.headers.get('set-cookie')!, /; Secure$/)
      sessionCookieOf(res)
      const plain = await signIn(svc, user.email)
      assert.equal(plain.cookie.includes('Secure'), false)
    })
  })

  describe(`x-forwarded-proto from an untrusted client (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    test('is ignored: no Secure flag is set on a plain http connection', async () => {
      const s = await setupIntegration(svc)
      const user = await newPortalUser(svc, s, 'admin')
      const res = await svc.request('POST', '/api/partner/session', {
        body: { email: user.email, password: goodPassword },
        headers: { 'x-forwarded-proto': 'https' },
      })
      assert.equal(res.status, 200, res.text)
      assert.doesNotMatch(res.headers.get('set-cookie')!, /Secure/)
    })
  })
}
