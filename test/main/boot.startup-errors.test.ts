// A start that fails says what is wrong in a sentence naming the variable, never a secret's value and
// never a stack trace: bad configuration values, PostgreSQL that cannot be reached or has no such
// database (the driver's errors would carry the URL), and a damaged SQLite file.
import assert from 'node:assert/strict'
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { failedStart, newKey, stackFrame, startServer } from '../support/process.js'
import { requester } from '../support/service.js'

const adminToken = `startup-test-admin-token-${'s'.repeat(24)}`

function assertSecretFree(output: string, secrets: string[]): void {
  for (const secret of secrets)
    assert.equal(output.includes(secret), false, `a secret was printed:\n${output}`)
  assert.doesNotMatch(output, stackFrame, 'no stack trace')
}

describe('startup errors name the variable, never its value', () => {
  test('bad values of every secret variable and of the URLs are named, not shown', async () => {
    const secrets = {
      ADMIN_TOKEN: 'short-admin-secret',
      SECRET_KEY: 'not a key: super-secret-key-material',
      SECRET_KEY_PREVIOUS: 'also-not-a-key!secret-previous-material',
      DATABASE_URL: 'mysql://bob:db-password-1234@db.example:3306/alerts',
      REDIS_URL: 'http://:redis-password-5678@cache.example:6379',
    }
    const result = await failedStart(secrets)
    assert.equal(result.code, 2, result.output)
    for (const name of Object.keys(secrets)) assert.match(result.output, new RegExp(`${name}: `))
    assertSecretFree(result.output, [
      secrets.ADMIN_TOKEN,
      secrets.SECRET_KEY,
      secrets.SECRET_KEY_PREVIOUS,
      'db-password-1234',
      'redis-password-5678',
    ])
    assert.match(result.output, /mysql:\/\/bob:\*\*\*@db\.example/, 'the URL is shown without its password')

    // A well-formed Redis URL beside the embedded database is refused too, still without its password.
    const redis = await failedStart({ REDIS_URL: 'redis://:redis-password-5678@127.0.0.1:6379' })
    assert.equal(redis.code, 2, redis.output)
    assert.match(redis.output, /REDIS_URL: needs DATABASE_URL=postgres/)
    assertSecretFree(redis.output, ['redis-password-5678'])
  })

  test('a Redis that does not answer stops the start: one sentence, no password', {
    skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set',
  }, async () => {
    const key = newKey()
    const result = await failedStart({
      DATABASE_URL: process.env.TEST_POSTGRES_URL!,
      REDIS_URL: 'redis://:redis-password-5678@127.0.0.1:1',
      SECRET_KEY: key,
    })
    assert.equal(result.code, 1, result.output)
    assert.match(result.output, /^alertbridge did not start: REDIS_URL: Redis at 127\.0\.0\.1:1 /)
    assertSecretFree(result.output, ['redis-password-5678', key])
  })

  test('SECRET_KEY_PREVIOUS equal to SECRET_KEY is named without the key', async () => {
    const key = newKey()
    const result = await failedStart({ SECRET_KEY: key, SECRET_KEY_PREVIOUS: key })
    assert.equal(result.code, 2, result.output)
    assert.match(result.output, /SECRET_KEY_PREVIOUS: is the same key as SECRET_KEY/)
    assertSecretFree(result.output, [key])
  })

  test('PostgreSQL that refuses the connection: one sentence, no password, no key, no token', async () => {
    const key = newKey()
    const result = await failedStart({
      DATABASE_URL: 'postgres://alice:pg-password-9876@127.0.0.1:1/alerts',
      SECRET_KEY: key,
      ADMIN_TOKEN: adminToken,
    })
    assert.equal(result.code, 1, result.output)
    assert.match(
      result.output,
      /^alertbridge did not start: DATABASE_URL: PostgreSQL at 127\.0\.0\.1:1 refused the connection/,
    )
    assert.equal(result.output.trim().split('\n').length, 1, result.output)
    assertSecretFree(result.output, ['pg-password-9876', key, adminToken])
  })

  test('a DATABASE_URL that is no URL is named without its password', async () => {
    const key = newKey()
    const result = await failedStart({
      DATABASE_URL: 'postgres://alice:pg-password-9876@[broken/alerts',
      SECRET_KEY: key,
    })
    assert.equal(result.code, 1, result.output)
    assert.match(result.output, /DATABASE_URL: the PostgreSQL URL is not valid/)
    assertSecretFree(result.output, ['pg-password-9876', key])
  })

  test('a PostgreSQL database that does not exist is named, the password is not', {
    skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set',
  }, async () => {
    const url = new URL(process.env.TEST_POSTGRES_URL!)
    url.password = 'pg-password-9876'
    url.pathname = '/alertbridge_test_never_created'
    const key = newKey()
    const result = await failedStart({ DATABASE_URL: url.toString(), SECRET_KEY: key })
    assert.equal(result.code, 1, result.output)
    assert.match(
      result.output,
      /DATABASE_URL: the PostgreSQL database alertbridge_test_never_created does not exist/,
    )
    assertSecretFree(result.output, ['pg-password-9876', key])
  })
})

describe('a damaged SQLite database is reported at start', () => {
  let dir: string
  let good: string
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'alertbridge-damaged-'))
    // A real database with a few hundred rows, stopped cleanly (its WAL checkpointed into the file).
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'good.db')}`,
      ADMIN_TOKEN: adminToken,
    })
    try {
      const call = requester(server.url)
      for (let i = 0; i < 40; i++) {
        const res = await call('POST', '/api/admin/partners', {
          token: adminToken,
          body: { name: `Partner ${i} ${'x'.repeat(100)}`, psa: { kind: 'sandbox' } },
        })
        assert.equal(res.status, 201, res.text)
      }
    } finally {
      assert.equal(await server.stop(), 0)
    }
    good = join(dir, 'good.db')
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  const copyAs = (name: string): string => {
    const path = join(dir, name)
    writeFileSync(path, readFileSync(good))
    return path
  }

  test('a file overwritten with garbage: not a database, restore from a backup', async () => {
    const path = join(dir, 'garbage.db')
    writeFileSync(path, Buffer.alloc(64 * 1024, 0x5a))
    const result = await failedStart({ DATABASE_URL: `sqlite:${path}`, ADMIN_TOKEN: adminToken })
    assert.equal(result.code, 1, result.output)
    assert.match(
      result.output,
      /^alertbridge did not start: DATABASE_URL: the SQLite file \S+garbage\.db is not a database .*restore it from a backup/,
    )
    assertSecretFree(result.output, [adminToken])
  })

  test('a truncated file: damaged', async () => {
    const path = copyAs('truncated.db')
    truncateSync(path, Math.floor(statSync(path).size / 2))
    const result = await failedStart({ DATABASE_URL: `sqlite:${path}`, ADMIN_TOKEN: adminToken })
    assert.equal(result.code, 1, result.output)
    assert.match(result.output, /DATABASE_URL: the SQLite file \S+truncated\.db is damaged/)
    assertSecretFree(result.output, [adminToken])
  })

  test('a page overwritten in the middle: damaged (found by the check of every page)', async () => {
    const path = copyAs('scribbled.db')
    const fd = openSync(path, 'r+')
    writeSync(fd, Buffer.alloc(4096, 0x33), 0, 4096, Math.floor(statSync(path).size / 4096 / 2) * 4096)
    closeSync(fd)
    const result = await failedStart({ DATABASE_URL: `sqlite:${path}`, ADMIN_TOKEN: adminToken })
    assert.equal(result.code, 1, result.output)
    assert.match(result.output, /DATABASE_URL: the SQLite file \S+scribbled\.db is damaged/)
    assertSecretFree(result.output, [adminToken])
  })
})
