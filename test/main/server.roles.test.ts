// `npm run start:api` and `npm run start:worker` pass --role=api / --role=worker to the service: the
// command line's role wins over ROLE, and a role that does not exist stops the start naming ROLE.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { failedStart, newKey, startServer } from '../support/process.js'
import { requester } from '../support/service.js'

const adminToken = `roles-test-admin-token-${'r'.repeat(24)}`

describe('the role on the command line', () => {
  test('--role=worker wins over ROLE=api: the process serves only health, readiness and metrics', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alertbridge-roles-'))
    const env = { DATABASE_URL: `sqlite:${join(dir, 'a.db')}`, SECRET_KEY: newKey(), ADMIN_TOKEN: adminToken }
    const worker = await startServer({ ...env, ROLE: 'api' }, 40_000, ['--role=worker'])
    try {
      const request = requester(worker.url)
      assert.equal((await request('GET', '/readyz')).status, 200)
      assert.equal((await request('GET', '/api/admin/vendors', { token: adminToken })).status, 404)
    } finally {
      await worker.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('--role=nope stops the start with a sentence naming ROLE', async () => {
    const result = await failedStart({ DATABASE_URL: 'sqlite::memory:', SECRET_KEY: newKey() }, 40_000, [
      '--role=nope',
    ])
    assert.equal(result.code, 2, result.output)
    assert.match(result.output, /ROLE: .*\(got "nope"\)/)
  })
})
