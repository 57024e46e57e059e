// Secrets: random, stored only as digests (or sealed when they must be read back), never logged,
// never in an event; configuration validated with a message per bad variable.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, test } from 'node:test'
import pino from 'pino'
import { redactPaths } from '../../../src/main/app.js'
import { ConfigError, loadConfig } from '../../../src/platform/config.js'
import { createCryptoBox } from '../../../src/platform/security/crypto-box.js'
import { digest, matchesDigest, newSecret, newWebhookSecret } from '../../../src/platform/security/secrets.js'
import { setupIntegration } from '../../support/fixtures.js'
import { startService } from '../../support/service.js'

describe('secrets', () => {
  test('are at least 256 bits of randomness and match only their own digest', () => {
    const a = newSecret('clientSecret')
    const b = newSecret('clientSecret')
    assert.notEqual(a, b)
    assert.ok(a.startsWith('abs_'))
    assert.ok(Buffer.from(a.slice('abs_'.length), 'base64url').length >= 32)
    assert.equal(matchesDigest(a, digest(a)), true)
    assert.equal(matchesDigest(b, digest(a)), false)
    assert.match(newWebhookSecret(), /^whsec_[A-Za-z0-9+/]{43}=$/)
  })

  test('sealed values open only with the same key and detect tampering', () => {
    const box = createCryptoBox(Buffer.alloc(32, 7).toString('base64'))
    const sealed = box.seal('private-key-123')
    assert.equal(box.open(sealed), 'private-key-123')
    assert.doesNotMatch(sealed, /private-key/)
    const other = createCryptoBox(Buffer.alloc(32, 8).toString('base64'))
    assert.throws(() => other.open(sealed))
    // One byte of the ciphertext changed (editing the last base64 characters could touch only the
    // padding bits, which decode to the same bytes: this test failed now and then that way).
    const cut = sealed.lastIndexOf('.') + 1
    const bytes = Buffer.from(sealed.slice(cut), 'base64url')
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01
    const tampered = `${sealed.slice(0, cut)}${bytes.toString('base64url')}`
    assert.notEqual(tampered, sealed)
    assert.throws(() => box.open(tampered))
  })

  test('no secret is stored in plain text or appears in any event or log line', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const logger = pino({ level: 'trace', redact: { paths: redactPaths, censor: '[redacted]' } }, sink)
    const svc = await startService({ logger })
    try {
      const s = await setupIntegration(svc)
      const partnerUpdate = await svc.request('PATCH', `/api/admin/partners/${s.partnerId}`, {
        token: svc.adminToken,
        body: { psa: { kind: 'sandbox', defaults: { board: 'Ops' } } },
      })
      assert.equal(partnerUpdate.status, 200)
      await s.sync()
      await s.sync({}, { clientSecret: 'wrong-secret' })
      await s.partner('PUT', '/api/partner/sandbox/fault', { mode: 'defect', count: 1 })
      await s.sync({ title: 'during a defect' })
      logger.info({ body: s.body() }, 'a log line that carries a whole alert body')
      // The portal: an invite, its acceptance with a password, a session and a change with it.
      const invited = await s.partner('POST', '/api/partner/users', {
        email: 'log@msp.example',
        role: 'admin',
      })
      const password = 'a password never to be logged'
      const accepted = await svc.request('POST', '/api/partner/session/invite', {
        body: { inviteToken: invited.body.inviteToken, password },
      })
      const cookie = accepted.headers.get('set-cookie')!.split(';')[0]!
      const changed = await svc.request('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        body: { selfHealing: true },
        headers: { cookie, 'x-csrf-token': accepted.body.csrfToken },
      })
      assert.equal(changed.status, 200, changed.text)
      const secrets = [
        s.clientSecret,
        s.orgToken,
        s.partnerKey,
        s.vendorToken,
        svc.adminToken,
        invited.body.inviteToken,
        password,
        cookie.slice('alertbridge_session='.length),
        accepted.body.csrfToken,
      ]

      const dump: string[] = []
      for (const table of [
        'vendors',
        'partners',
        'integrations',
        'vendor_tokens',
        'events',
        'tickets',
        'settings',
        'partner_users',
        'partner_sessions',
        'operator_audit',
      ] as const) {
        dump.push(JSON.stringify(await svc.services.db.kysely.selectFrom(table).selectAll().execute()))
      }
      const stored = dump.join('\n')
      for (const secret of secrets)
        assert.equal(stored.includes(secret), false, 'a secret reached the database')
      const logged = lines.join('')
      for (const secret of secrets) assert.equal(logged.includes(secret), false, 'a secret reached the log')
      assert.match(logged, /\[redacted\]/)
    } finally {
      await svc.close()
    }
  })
})

describe('configuration', () => {
  test('defaults give the embedded SQLite service on 127.0.0.1:8080', () => {
    const c = loadConfig({})
    assert.equal(c.port, 8080)
    assert.equal(c.host, '127.0.0.1')
    assert.deepEqual(c.database, { kind: 'sqlite', path: './data/alertbridge.db' })
    assert.equal(c.allowPrivateNetwork, false)
  })

  test('every bad variable is named with what was given', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' })
      assert.fail('expected a ConfigError')
    } catch (err) {
      assert.ok(err instanceof ConfigError)
      assert.equal(err.problems.length >= 3, true, err.message)
      assert.match(err.message, /PORT.*eighty/)
      assert.match(err.message, /DATABASE_URL/)
      assert.match(err.message, /LOG_LEVEL/)
    }
  })

  test('PostgreSQL needs SECRET_KEY', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' }), /SECRET_KEY/)
  })

  test('REDIS_URL needs PostgreSQL: beside the one-process embedded database it is refused, not ignored', () => {
    assert.throws(
      () => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }),
      /REDIS_URL: needs DATABASE_URL=postgres/,
    )
    const c = loadConfig({
      DATABASE_URL: 'postgres://localhost/x',
      SECRET_KEY: 'a'.repeat(43),
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: 'ab-test',
    })
    assert.deepEqual(c.redis, { url: 'redis://127.0.0.1:6379', prefix: 'ab-test' })
  })

  test('schedules are lists of seconds', () => {
    const c = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0.5, 2,10', PSA_RETRY_SCHEDULE: '1' })
    assert.deepEqual(c.webhookRetryScheduleSeconds, [0.5, 2, 10])
    assert.deepEqual(c.psaRetryScheduleSeconds, [1])
    assert.equal(loadConfig({}).webhookRetryScheduleSeconds, undefined)
    assert.throws(() => loadConfig({ PSA_RETRY_SCHEDULE: '5,,6' }), /PSA_RETRY_SCHEDULE/)
  })
})
