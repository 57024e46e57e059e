// Two processes of one installation (one PostgreSQL database, one Redis prefix) share what must be shared
// (docs/decisions/scale-out/what-is-shared.md). A vendor's alert rate limit and the portal's sign-in
// throttle are counted once for both; a configuration change made through one (a rule turned off, a vendor
// or partner disabled, a token revoked, credentials changed) reaches the other's caches within a second, by
// notice.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Redis } from 'ioredis'
import type { Heard } from '../../../src/platform/redis/notices.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { goodPassword, newPortalUser } from '../../support/portal.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncFailure } from '../../support/shapes.js'
import { waitFor } from '../../support/wait.js'

/** Polls `check` until it holds; fails if that takes longer than `withinMs`. Answers the time taken. */
async function within(what: string, withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now()
  await waitFor(check, { what, timeoutMs: withinMs })
  return Date.now() - start
}

const env = { SIGN_IN_FAILURES_PER_EMAIL: '4', SIGN_IN_FAILURES_PER_IP: '100', TRUST_PROXY: '127.0.0.1' }

describe('two processes of one installation (postgres+redis)', {
  skip: backends('matrix').includes('postgres+redis') ? false : 'needs TEST_POSTGRES_URL and TEST_REDIS_URL',
}, () => {
  let a: TestService
  let b: TestService
  /** What B's notice subscriber heard, in order. */
  const heardByB: Heard[] = []
  before(async () => {
    a = await startService({ backend: 'postgres+redis', env })
    b = await startService({ share: a, env })
    await Promise.all([a.services.notices.listening(), b.services.notices.listening()])
    b.services.notices.subscribe((h) => heardByB.push(h))
  })
  after(async () => {
    // B leaves the database and the Redis keys to A.
    await b?.close()
    await a?.close()
  })

  const admin = (svc: TestService, method: string, path: string, body?: unknown) =>
    svc.request(method, path, { token: svc.adminToken, body })
  /** The setup's alert, sent to `svc`. */
  const syncAt = (svc: TestService, s: Setup, data: Record<string, string> = {}) =>
    svc.request('POST', '/api/oem-alerts-api/alert/sync', { body: s.body(data) })
  const ok = (status: number) => status === 200 || status === 201

  test("a vendor's alert limit is counted once: N alerts in all, alternating between the processes, then 429", async () => {
    const s = await setupIntegration(a)
    const limit = 6
    const patch = await admin(a, 'PATCH', `/api/admin/vendors/${s.vendorId}`, { rateLimitPerMinute: limit })
    assert.equal(patch.status, 200, patch.text)
    for (let i = 0; i < limit; i++) {
      const res = await syncAt(i % 2 === 0 ? a : b, s, { title: `alert ${i}` })
      assert.ok(ok(res.status), `alert ${i}: ${res.text}`)
      assert.match(res.headers.get('ratelimit') ?? '', new RegExp(`^"alerts";r=${limit - i - 1};t=\\d+$`))
    }
    // Each process saw 3 of 6: counted per process, both would still accept.
    for (const svc of [a, b]) {
      const res = await syncAt(svc, s, { title: 'one too many' })
      expectSyncFailure(res, { status: 429, error: 'RATE_LIMITED' })
      const retryAfter = Number(res.headers.get('retry-after'))
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)
      assert.equal(res.headers.get('ratelimit-policy'), `"alerts";q=${limit};w=60`)
      assert.match(res.headers.get('ratelimit') ?? '', /^"alerts";r=0;t=\d+$/)
    }
  })

  test('failed portal sign-ins are counted once: failures at either process add up', async () => {
    const s = await setupIntegration(a)
    const user = await newPortalUser(a, s, 'admin')
    const attempt = (svc: TestService, password: string, ip = '203.0.113.50') =>
      svc.request('POST', '/api/partner/session', {
        body: { email: user.email, password },
        headers: { 'x-forwarded-for': ip },
      })
    // Four answered at once, the fifth makes the address wait: at either process.
    for (let i = 0; i < 5; i++)
      expectFailure(await attempt(i % 2 === 0 ? a : b, 'wrong password!'), 401, 'INVALID_CREDENTIALS')
    for (const svc of [a, b]) expectFailure(await attempt(svc, goodPassword), 429, 'RATE_LIMITED')
    // The owner from another address is not held back at either.
    for (const svc of [a, b]) assert.equal((await attempt(svc, goodPassword, '198.51.100.50')).status, 200)
  })

  test("a rule turned off through A: B's next alert follows the no-rule path within a second", async () => {
    const s = await setupIntegration(a)
    assert.ok(ok((await syncAt(b, s)).status), 'B has the rule cached')
    heardByB.length = 0
    const off = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}/rules/${s.ruleId}`, {
      enabled: false,
    })
    assert.equal(off.status, 200, off.text)
    await within(
      'RULES_DISABLED at B',
      1000,
      async () => (await syncAt(b, s)).body.error === 'RULES_DISABLED',
    )
    assert.ok(
      heardByB.some((h) => h.kind === 'configuration'),
      'B heard the change as a notice, not only by its copies expiring',
    )
  })

  test('a vendor disabled through A is refused by B (alerts and tokens) within a second; enabled again, accepted', async () => {
    const s = await setupIntegration(a)
    assert.ok(ok((await syncAt(b, s)).status), 'B has the tenant state cached')
    const off = await admin(a, 'POST', `/api/admin/vendors/${s.vendorId}/disable`, {
      reason: 'unpaid invoices',
    })
    assert.equal(off.status, 200, off.text)
    await within('TENANT_DISABLED at B', 1000, async () => (await syncAt(b, s)).status === 403)
    expectSyncFailure(await syncAt(b, s), { status: 403, error: 'TENANT_DISABLED' })
    const accounts = await b.request('GET', '/api/vendor-api/organization/accounts', { token: s.vendorToken })
    expectFailure(accounts, 403, 'TENANT_DISABLED')

    assert.equal((await admin(a, 'POST', `/api/admin/vendors/${s.vendorId}/enable`)).status, 200)
    await within('accepted again at B', 1000, async () => ok((await syncAt(b, s)).status))
  })

  test("a partner disabled through A: B refuses its key and its integration's alerts within a second", async () => {
    const s = await setupIntegration(a)
    assert.ok(ok((await syncAt(b, s)).status))
    assert.equal((await admin(a, 'POST', `/api/admin/partners/${s.partnerId}/disable`)).status, 200)
    await within('TENANT_DISABLED at B', 1000, async () => (await syncAt(b, s)).status === 403)
    expectSyncFailure(await syncAt(b, s), { status: 403, error: 'TENANT_DISABLED' })
    const key = await b.request('GET', '/api/partner/integrations', { token: s.partnerKey })
    expectFailure(key, 403, 'TENANT_DISABLED')
  })

  test('a vendor token revoked through A is refused by B at once', async () => {
    const s = await setupIntegration(a)
    const works = () => b.request('GET', '/api/vendor-api/organization/accounts', { token: s.vendorToken })
    assert.equal((await works()).status, 200)
    const revoked = await admin(a, 'POST', `/api/admin/vendors/${s.vendorId}/tokens/revoke`)
    assert.equal(revoked.status, 200, revoked.text)
    const refused = await works()
    expectFailure(refused, 401, 'INVALID_CREDENTIALS')
    assert.match(refused.body.detail, /revoked/)
  })

  test("vendor credentials changed through A: B forgets that integration's product-group list", async () => {
    const s = await setupIntegration(a)
    heardByB.length = 0
    const patch = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      vendorCredentials: { value: 'Bearer new-secret' },
    })
    assert.equal(patch.status, 200, patch.text)
    await within('the catalogue notice at B', 1000, async () =>
      heardByB.some((h) => h.kind === 'catalogue' && h.integrationId === s.integrationId),
    )
  })

  test("B's notice connection dropped and back: B forgets every cached copy (notices may have been missed)", async () => {
    heardByB.length = 0
    const prefix = a.installation.REDIS_PREFIX!
    const killer = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 })
    try {
      const list = String(await killer.call('client', 'list', 'type', 'pubsub'))
      const ids = list
        .split('\n')
        .filter((line) => line.includes(` name=alertbridge-notices-${prefix} `))
        .map((line) => /(?:^| )id=(\d+)/.exec(line)?.[1])
        .filter((id): id is string => id !== undefined)
      assert.equal(ids.length, 2, 'one notice connection per process')
      for (const id of ids) await killer.call('client', 'kill', 'id', id)
    } finally {
      killer.disconnect()
    }
    await within("B's 'all' after reconnecting", 5000, async () => heardByB.some((h) => h.kind === 'all'))
    await b.services.notices.listening()
    // Heard again: a change through A reaches B by notice.
    heardByB.length = 0
    const s = await setupIntegration(a)
    await within('a notice at B after the reconnection', 1000, async () =>
      heardByB.some((h) => h.kind === 'configuration'),
    )
    assert.ok(s.ruleId)
  })
})
