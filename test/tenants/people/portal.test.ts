// The portal's pure rules (docs/partner-api.md#portal-users-and-sessions): what a session may do, when it
// ends, the last-admin guard; and the password hasher's round trip.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { PasswordHasher } from '../../../src/platform/security/passwords.js'
import {
  csrfTokenOf,
  keepsAnAdmin,
  type PortalRole,
  sameSecret,
  sessionAccess,
  sessionAlive,
} from '../../../src/tenants/people/portal.js'

describe('what a portal session may do', () => {
  const csrfToken = csrfTokenOf('abw_cookie')
  const access = (method: string, role: PortalRole, csrfHeader: string | undefined, viewerAllowed = false) =>
    sessionAccess({ method, role, csrfToken, csrfHeader, viewerAllowed })

  test('reads need neither a CSRF token nor a role', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      assert.deepEqual(access(method, 'viewer', undefined), { ok: true })
  })

  test('every unsafe method needs the CSRF token, whatever the role', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
        fc.constantFrom<PortalRole>('admin', 'viewer'),
        fc.option(fc.string(), { nil: undefined }),
        fc.boolean(),
        (method, role, header, viewerAllowed) => {
          const r = access(method, role, header === csrfToken ? `${header}x` : header, viewerAllowed)
          assert.equal(r.ok, false)
        },
      ),
    )
  })

  test('with the token an admin may change anything, a viewer only what changes nothing', () => {
    assert.deepEqual(access('POST', 'admin', csrfToken), { ok: true })
    assert.deepEqual(access('POST', 'viewer', csrfToken, true), { ok: true })
    const refused = access('DELETE', 'viewer', csrfToken)
    assert.equal(refused.ok, false)
    assert.equal(!refused.ok && refused.code, 'FORBIDDEN')
  })

  test('the CSRF token is the session’s own and reveals nothing of its cookie', () => {
    assert.equal(csrfTokenOf('abw_a'), csrfTokenOf('abw_a'))
    assert.notEqual(csrfTokenOf('abw_a'), csrfTokenOf('abw_b'))
    assert.ok(!csrfTokenOf('abw_secret').includes('secret'))
    assert.equal(sameSecret('x', 'x'), true)
    assert.equal(sameSecret('x', 'xx'), false)
  })
})

describe('when a session ends', () => {
  const limits = { idleMs: 30 * 60_000, absoluteMs: 12 * 3600_000 }
  const at = (iso: string) => new Date(iso)
  const session = { lastSeenAt: '2026-01-01T10:00:00.000Z', expiresAt: '2026-01-01T22:00:00.000Z' }

  test('alive until idle for the limit or past its absolute end', () => {
    assert.equal(sessionAlive(session, limits, at('2026-01-01T10:29:59.999Z')), true)
    assert.equal(sessionAlive(session, limits, at('2026-01-01T10:30:00.000Z')), false)
    const busy = { ...session, lastSeenAt: '2026-01-01T21:59:00.000Z' }
    assert.equal(sessionAlive(busy, limits, at('2026-01-01T21:59:59.999Z')), true)
    assert.equal(sessionAlive(busy, limits, at('2026-01-01T22:00:00.000Z')), false)
  })
})

describe('the last admin', () => {
  const admin = { id: 'a', role: 'admin' as const, disabledAt: null }
  const other = { id: 'b' }

  test('an admin may not be demoted, disabled or removed when no other enabled admin is left', () => {
    assert.equal(keepsAnAdmin(admin, { role: 'viewer', disabledAt: null }, [admin]), false)
    assert.equal(keepsAnAdmin(admin, { role: 'admin', disabledAt: 'now' }, [admin]), false)
    assert.equal(keepsAnAdmin(admin, null, [admin]), false)
  })

  test('with another admin, or for a change that keeps it admin, or for a viewer, it may', () => {
    assert.equal(keepsAnAdmin(admin, null, [admin, other]), true)
    assert.equal(keepsAnAdmin(admin, { role: 'admin', disabledAt: null }, [admin]), true)
    assert.equal(keepsAnAdmin({ id: 'v', role: 'viewer', disabledAt: null }, null, [admin]), true)
    assert.equal(keepsAnAdmin({ id: 'd', role: 'admin', disabledAt: 'then' }, null, [admin]), true)
  })
})

describe('the password hasher', () => {
  test('verifies its own hash, nothing else, and says when the cost changed', async () => {
    const low = new PasswordHasher({ log2N: 14, r: 8, p: 1 })
    const stored = await low.hash('correct horse battery staple')
    assert.match(stored, /^scrypt\$14\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    assert.equal(await low.verify('correct horse battery staple', stored), true)
    assert.equal(await low.verify('correct horse battery stapl', stored), false)
    assert.equal(await low.verify('anything', null), false)
    assert.equal(await low.verify('anything', 'not-a-hash'), false)
    assert.notEqual(await low.hash('correct horse battery staple'), stored, 'salted')
    assert.equal(low.outdated(stored), false)
    const higher = new PasswordHasher({ log2N: 15, r: 8, p: 1 })
    assert.equal(higher.outdated(stored), true)
    assert.equal(
      await higher.verify('correct horse battery staple', stored),
      true,
      'older hashes still verify',
    )
  })

  test('a password is compared in its NFC form', async () => {
    const h = new PasswordHasher({ log2N: 14, r: 8, p: 1 })
    const stored = await h.hash('caf\u00e9 au lait, s\u2019il vous pla\u00eet')
    assert.equal(await h.verify('cafe\u0301 au lait, s\u2019il vous pla\u00eet', stored), true)
  })
})
