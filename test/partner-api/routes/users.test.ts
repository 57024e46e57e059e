// The partner portal's users (docs/partner-api.md#portal-users-and-sessions): invited by an admin or the
// operator, the invite accepted once, roles, disabling and resetting (which end sessions), the last admin
// kept, and sessions that end when idle or old.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { goodPassword, newPortalUser, portalSession, signIn } from '../../support/portal.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends()) {
  describe(`portal users (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend, env: { SNAPSHOT_COALESCE_MS: '0' } })
    })
    after(() => svc.close())

    const accept = (inviteToken: string, password = goodPassword, name?: string) =>
      svc.request('POST', '/api/partner/session/invite', {
        body: { inviteToken, password, ...(name ? { name } : {}) },
      })

    test('an admin invites; the token is shown once, accepted once, and signs the user in', async () => {
      const s = await setupIntegration(svc)
      const invited = await s.partner('POST', '/api/partner/users', {
        email: 'Sam@MSP.example',
        role: 'viewer',
        name: 'Sam',
      })
      assert.equal(invited.status, 201, invited.text)
      assert.deepEqual(Object.keys(invited.body), ['user', 'inviteToken', 'inviteExpiresAt'])
      assert.match(invited.body.inviteToken, /^abi_[A-Za-z0-9_-]{43}$/)
      const user = invited.body.user
      assert.equal(user.email, 'sam@msp.example')
      assert.equal(user.status, 'invited')
      assert.equal(user.inviteExpiresAt, invited.body.inviteExpiresAt)
      assert.equal(
        Date.parse(user.inviteExpiresAt) - Date.parse(user.createdAt),
        7 * 24 * 3600_000,
        'good for a week',
      )
      const stored = await svc.services.db.kysely
        .selectFrom('partner_users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow()
      assert.notEqual(stored.invite_digest, invited.body.inviteToken, 'only a digest is stored')
      assert.equal(stored.password_hash, null)

      const listed = await s.partner('GET', '/api/partner/users')
      assert.deepEqual(listed.body.data, [user])
      assert.equal(listed.body.nextCursor, null)

      const accepted = await accept(invited.body.inviteToken, goodPassword, 'Sam Smith')
      const session = portalSession(svc, accepted, 'sam@msp.example')
      assert.deepEqual(accepted.body.user, {
        id: user.id,
        email: 'sam@msp.example',
        name: 'Sam Smith',
        role: 'viewer',
        partnerId: s.partnerId,
      })
      assert.equal((await session.request('GET', '/api/partner/integrations')).status, 200)
      const after = (await s.partner('GET', '/api/partner/users')).body.data[0]
      assert.equal(after.status, 'active')
      assert.equal(after.inviteExpiresAt, null)
      assert.match(
        (
          await svc.services.db.kysely
            .selectFrom('partner_users')
            .select('password_hash')
            .where('id', '=', user.id)
            .executeTakeFirstOrThrow()
        ).password_hash!,
        /^scrypt\$14\$8\$1\$/,
      )
      expectFailure(await accept(invited.body.inviteToken), 401, 'INVALID_CREDENTIALS')
      assert.equal((await signIn(svc, 'sam@msp.example')).userId, user.id)
    })

    test('a password shorter than 12 characters is refused (400) and the invite stays open', async () => {
      const s = await setupIntegration(svc)
      const invited = await s.partner('POST', '/api/partner/users', {
        email: 'short@msp.example',
        role: 'admin',
      })
      const before = await svc.snapshot()
      const res = await accept(invited.body.inviteToken, 'elevenchars')
      expectFailure(res, 400, 'VALIDATION_FAILED')
      assert.match(res.body.detail, /password/)
      expectFailure(await accept('abi_not-a-token-we-gave'), 401, 'INVALID_CREDENTIALS')
      assert.deepEqual(await svc.snapshot(), before)
      assert.equal((await accept(invited.body.inviteToken, 'twelve chars')).status, 200)
    })

    test('inviting an email that is taken (by any partner) is a 409; bad input a 400; neither changes anything', async () => {
      const s = await setupIntegration(svc)
      const other = await setupIntegration(svc, { partnerName: 'Other MSP', vendorName: 'Other vendor' })
      assert.equal(
        (await s.partner('POST', '/api/partner/users', { email: 'taken@msp.example', role: 'admin' })).status,
        201,
      )
      const before = await svc.snapshot()
      expectFailure(
        await s.partner('POST', '/api/partner/users', { email: 'TAKEN@msp.example', role: 'viewer' }),
        409,
        'CONFLICT',
      )
      expectFailure(
        await other.partner('POST', '/api/partner/users', { email: 'taken@msp.example', role: 'admin' }),
        409,
        'CONFLICT',
      )
      for (const body of [
        {},
        { email: 'not an email', role: 'admin' },
        { email: 'x@msp.example', role: 'owner' },
        { email: 'x@msp.example' },
        { email: 'x@msp.example', role: 'admin', name: '' },
      ]) {
        expectFailure(await s.partner('POST', '/api/partner/users', body), 400, 'VALIDATION_FAILED')
      }
      expectFailure(
        await s.partner('PATCH', '/api/partner/users/x', { role: 'owner' }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(
        await s.partner('PATCH', '/api/partner/users/x', { disabled: 'yes' }),
        400,
        'VALIDATION_FAILED',
      )
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('the last admin cannot be demoted, disabled or removed; with a second admin it can', async () => {
      const s = await setupIntegration(svc)
      const first = await newPortalUser(svc, s, 'admin')
      const viewer = await newPortalUser(svc, s, 'viewer')
      const path = `/api/partner/users/${first.userId}`
      const before = await svc.snapshot()
      for (const body of [{ role: 'viewer' }, { disabled: true }]) {
        const res = await first.request('PATCH', path, body)
        expectFailure(res, 409, 'CONFLICT')
        assert.match(res.body.detail, /last admin/)
      }
      expectFailure(await s.partner('DELETE', path), 409, 'CONFLICT')
      assert.deepEqual(await svc.snapshot(), before)

      // A viewer made admin: now the first admin may step down.
      const promoted = await first.request('PATCH', `/api/partner/users/${viewer.userId}`, { role: 'admin' })
      assert.equal(promoted.status, 200, promoted.text)
      const demoted = await first.request('PATCH', path, { role: 'viewer', name: 'Former admin' })
      assert.equal(demoted.status, 200, demoted.text)
      assert.equal(demoted.body.role, 'viewer')
      assert.equal(demoted.body.name, 'Former admin')
      // The role is read at each request: the demoted session can no longer change anything.
      const refused = await first.request('POST', '/api/partner/users', {
        email: 'n@msp.example',
        role: 'viewer',
      })
      expectFailure(refused, 403, 'FORBIDDEN')
      expectFailure(await viewer.request('DELETE', `/api/partner/users/${viewer.userId}`), 409, 'CONFLICT')
      assert.equal((await viewer.request('DELETE', path)).status, 204)
      expectFailure(await first.request('GET', '/api/partner/integrations'), 401, 'UNAUTHENTICATED')
      expectFailure(await s.partner('DELETE', path), 404, 'NOT_FOUND')
    })

    test('disabling a user ends its sessions and keeps it from signing in; enabling lets it sign in again', async () => {
      const s = await setupIntegration(svc)
      await newPortalUser(svc, s, 'admin')
      const user = await newPortalUser(svc, s, 'viewer')
      const second = await signIn(svc, user.email)
      const off = await s.partner('PATCH', `/api/partner/users/${user.userId}`, { disabled: true })
      assert.equal(off.status, 200, off.text)
      assert.equal(off.body.status, 'disabled')
      for (const session of [user, second])
        expectFailure(await session.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
      const rows = await svc.services.db.kysely
        .selectFrom('partner_sessions')
        .selectAll()
        .where('user_id', '=', user.userId)
        .execute()
      assert.deepEqual(rows, [])
      expectFailure(
        await svc.request('POST', '/api/partner/session', {
          body: { email: user.email, password: goodPassword },
        }),
        403,
        'FORBIDDEN',
      )
      assert.equal(
        (await s.partner('PATCH', `/api/partner/users/${user.userId}`, { disabled: false })).body.status,
        'active',
      )
      assert.equal((await signIn(svc, user.email)).userId, user.userId)
    })

    test('a reset ends the sessions, drops the password and gives a new invite', async () => {
      const s = await setupIntegration(svc)
      const admin = await newPortalUser(svc, s, 'admin')
      const user = await newPortalUser(svc, s, 'viewer')
      const reset = await admin.request('POST', `/api/partner/users/${user.userId}/reset`)
      assert.equal(reset.status, 200, reset.text)
      assert.equal(reset.body.user.status, 'invited')
      expectFailure(await user.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
      expectFailure(
        await svc.request('POST', '/api/partner/session', {
          body: { email: user.email, password: goodPassword },
        }),
        401,
        'INVALID_CREDENTIALS',
      )
      const again = await accept(reset.body.inviteToken, 'a brand new passphrase')
      assert.equal(again.status, 200, again.text)
      assert.equal((await signIn(svc, user.email, 'a brand new passphrase')).userId, user.userId)
    })

    test('a viewer cannot manage users; another partner’s users do not exist for this one', async () => {
      const s = await setupIntegration(svc)
      const other = await setupIntegration(svc, { partnerName: 'Other MSP', vendorName: 'Other vendor' })
      const viewer = await newPortalUser(svc, s, 'viewer')
      const stranger = await newPortalUser(svc, other, 'admin')
      expectFailure(
        await viewer.request('POST', '/api/partner/users', { email: 'v@msp.example', role: 'admin' }),
        403,
        'FORBIDDEN',
      )
      expectFailure(
        await viewer.request('PATCH', `/api/partner/users/${viewer.userId}`, { role: 'admin' }),
        403,
        'FORBIDDEN',
      )
      for (const [method, suffix] of [
        ['PATCH', ''],
        ['DELETE', ''],
        ['POST', '/reset'],
      ] as const) {
        expectFailure(
          await s.partner(
            method,
            `/api/partner/users/${stranger.userId}${suffix}`,
            method === 'PATCH' ? { name: 'x' } : undefined,
          ),
          404,
          'NOT_FOUND',
        )
      }
      const list = await s.partner('GET', '/api/partner/users')
      assert.deepEqual(
        list.body.data.map((u: { id: string }) => u.id),
        [viewer.userId],
      )
    })

    test('the users list pages', async () => {
      const s = await setupIntegration(svc)
      for (let i = 0; i < 3; i++)
        await s.partner('POST', '/api/partner/users', { email: `page${i}@msp.example`, role: 'viewer' })
      const first = await s.partner('GET', '/api/partner/users?limit=2')
      assert.equal(first.body.data.length, 2)
      assert.ok(first.body.nextCursor)
      const second = await s.partner('GET', `/api/partner/users?limit=2&cursor=${first.body.nextCursor}`)
      assert.deepEqual(
        second.body.data.map((u: { email: string }) => u.email),
        ['page2@msp.example'],
      )
      assert.equal(second.body.nextCursor, null)
      expectFailure(await s.partner('GET', '/api/partner/users?cursor=garbage'), 400, 'VALIDATION_FAILED')
    })

    test('the operator invites a partner’s first admin; it is audited, without the token', async () => {
      const s = await setupIntegration(svc)
      const path = `/api/admin/partners/${s.partnerId}/users`
      const res = await svc.request('POST', path, {
        token: svc.adminToken,
        body: { email: 'boss@msp.example', role: 'admin', name: 'Boss' },
      })
      assert.equal(res.status, 201, res.text)
      assert.equal(res.body.user.partnerId, s.partnerId)
      assert.equal(res.body.user.role, 'admin')
      const session = portalSession(svc, await accept(res.body.inviteToken), 'boss@msp.example')
      assert.equal((await session.request('GET', '/api/partner/users')).body.data[0].name, 'Boss')

      const audit = await svc.request(
        'GET',
        `/api/admin/audit?targetId=${s.partnerId}&action=partner.user.invite`,
        {
          token: svc.adminToken,
        },
      )
      assert.equal(audit.body.data.length, 1)
      const entry = audit.body.data[0]
      assert.equal(entry.actor.kind, 'operator')
      assert.deepEqual(entry.summary, { userId: res.body.user.id, email: 'boss@msp.example', role: 'admin' })
      assert.ok(!JSON.stringify(audit.body).includes(res.body.inviteToken))

      // The partner's own changes are audited too, naming the portal user who made them.
      await session.request('POST', '/api/partner/users', { email: 'helper@msp.example', role: 'viewer' })
      const own = await svc.request(
        'GET',
        `/api/admin/audit?targetId=${s.partnerId}&actor=user:${session.userId}`,
        {
          token: svc.adminToken,
        },
      )
      assert.deepEqual(
        own.body.data.map((e: { action: string }) => e.action),
        ['partner.user.invite'],
      )

      const before = await svc.snapshot()
      expectFailure(
        await svc.request('POST', '/api/admin/partners/nope/users', {
          token: svc.adminToken,
          body: { email: 'x@msp.example', role: 'admin' },
        }),
        404,
        'NOT_FOUND',
      )
      expectFailure(
        await svc.request('POST', path, {
          token: s.partnerKey,
          body: { email: 'x@msp.example', role: 'admin' },
        }),
        401,
        'INVALID_CREDENTIALS',
      )
      expectFailure(
        await svc.request('POST', path, {
          token: svc.adminToken,
          body: { email: 'boss@msp.example', role: 'admin' },
        }),
        409,
        'CONFLICT',
      )
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('a portal admin may rotate the partner’s API key; GET /api-key says it was a session', async () => {
      const s = await setupIntegration(svc)
      const admin = await newPortalUser(svc, s, 'admin')
      const state = await admin.request('GET', '/api/partner/api-key')
      assert.equal(state.status, 200, state.text)
      assert.equal(state.body.usedKey, 'session')
      const rotated = await admin.request('POST', '/api/partner/api-key/rotate', { overlapSeconds: 0 })
      assert.equal(rotated.status, 200, rotated.text)
      expectFailure(await s.partner('GET', '/api/partner/integrations'), 401, 'INVALID_CREDENTIALS')
    })
  })

  describe(`portal sessions and invites end in time (${backend})`, () => {
    let svc: TestService
    const clock = manualClock()
    let s: Setup
    before(async () => {
      svc = await startService({
        backend,
        clock,
        env: { SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '2', SNAPSHOT_COALESCE_MS: '0' },
      })
      s = await setupIntegration(svc)
    })
    after(() => svc.close())

    const minutes = (n: number) => clock.advance(n * 60_000)

    test('a session unused for the idle limit ends; each successful request keeps it alive', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      minutes(25)
      assert.equal((await user.request('GET', '/api/partner/session')).status, 200)
      minutes(25)
      assert.equal((await user.request('GET', '/api/partner/session')).status, 200, '50 minutes in, 25 idle')
      // A refused request does not keep it alive (and changes nothing).
      minutes(20)
      expectFailure(await user.request('GET', '/api/partner/users?limit=0'), 400, 'VALIDATION_FAILED')
      minutes(11)
      expectFailure(await user.request('GET', '/api/partner/session'), 401, 'UNAUTHENTICATED')
    })

    test('a session ends at its absolute limit however busy it is, and the cookie says so', async () => {
      const res = await svc.request('POST', '/api/partner/session/invite', {
        body: {
          inviteToken: (
            await s.partner('POST', '/api/partner/users', { email: 'busy@msp.example', role: 'viewer' })
          ).body.inviteToken,
          password: goodPassword,
        },
      })
      assert.match(res.headers.get('set-cookie')!, /Max-Age=7200/)
      const user = portalSession(svc, res, 'busy@msp.example')
      for (let i = 0; i < 5; i++) {
        minutes(20)
        assert.equal(
          (await user.request('GET', '/api/partner/integrations')).status,
          200,
          `${(i + 1) * 20} min`,
        )
      }
      minutes(20) // two hours since sign-in
      expectFailure(await user.request('GET', '/api/partner/integrations'), 401, 'UNAUTHENTICATED')
    })

    test('an invite not accepted within 7 days is refused', async () => {
      const invited = await s.partner('POST', '/api/partner/users', {
        email: 'late@msp.example',
        role: 'viewer',
      })
      clock.advance(7 * 24 * 3600_000)
      const before = await svc.snapshot()
      expectFailure(
        await svc.request('POST', '/api/partner/session/invite', {
          body: { inviteToken: invited.body.inviteToken, password: goodPassword },
        }),
        401,
        'INVALID_CREDENTIALS',
      )
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('sessions that ended are pruned when someone signs in', async () => {
      const user = await newPortalUser(svc, s, 'admin')
      const count = async () =>
        (await svc.services.db.kysely.selectFrom('partner_sessions').select('id').execute()).length
      assert.ok((await count()) >= 1)
      minutes(31)
      await signIn(svc, user.email)
      assert.equal(await count(), 1, 'only the new session is left')
    })
  })
}
