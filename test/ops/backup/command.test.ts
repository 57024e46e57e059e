// `npm run backup -- <file>` (src/backup/): an online backup of the embedded database while the
// service takes alerts. The copy passes integrity_check, is a self-contained file, holds every ticket
// answered before the backup began, and is consistent: each created ticket and its event were
// committed together, so the copy has both or neither. PostgreSQL, a missing database and an existing
// target are refused with a sentence.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import SQLite from 'better-sqlite3'
import { setupIntegration } from '../../support/fixtures.js'
import { newKey, runToExit, stackFrame } from '../../support/process.js'
import { startService } from '../../support/service.js'
import { hold } from '../../support/wait.js'

function backup(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return runToExit('ops/backup/command', [file], {
    ...process.env,
    SECRET_KEY: '',
    SECRET_KEY_PREVIOUS: '',
    REDIS_URL: '',
    ...env,
  })
}

describe('npm run backup', () => {
  let dir: string
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'alertbridge-backup-'))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  test('a backup taken under write load is complete, consistent and passes integrity_check', async () => {
    const svc = await startService()
    try {
      const { path } = svc.services.config.database as { path: string }
      const s = await setupIntegration(svc)
      const dedup = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      assert.equal(dedup.status, 200, dedup.text)
      const accounts = Array.from({ length: 500 }, (_, i) => ({
        vendorAccountId: `bulk-${i}`,
        name: `Bulk company ${i} ${'n'.repeat(60)}`,
        externalId: `B-${i}`,
      }))
      for (let round = 0; round < 3; round++) {
        const res = await svc.request('POST', '/api/vendor-api/organization/accounts', {
          token: s.vendorToken,
          body: accounts.map((a) => ({ ...a, name: `${a.name} ${round}` })),
        })
        assert.equal(res.status, 200, res.text)
      }

      // Alerts keep arriving, each creating a ticket and its event in one transaction.
      const answered: string[] = []
      const failures: string[] = []
      let running = true
      let n = 0
      const load = async () => {
        while (running) {
          const correlationId = `load-${n++}`
          const res = await s.sync({ title: `under load ${correlationId}` }, { correlationId })
          if (res.status === 201) answered.push(correlationId)
          else failures.push(res.text)
        }
      }
      const loops = Array.from({ length: 4 }, load)
      // The backup is taken while the load runs: let it get going first (time passing, not a wait for an event).
      await hold(300, 'the load gets going before the backup')

      const copies: { file: string; before: string[] }[] = []
      try {
        for (let i = 0; i < 3; i++) {
          const file = join(dir, `under-load-${i}.db`)
          const before = [...answered]
          const result = await backup(file, { DATABASE_URL: `sqlite:${path}` })
          assert.equal(result.code, 0, result.output)
          assert.match(result.output, /^backed up \S+ to \S+: \d+ pages \([\d.]+ MiB\), integrity ok/)
          copies.push({ file, before })
        }
      } finally {
        running = false
        await Promise.all(loops)
      }
      assert.deepEqual(failures, [], 'the service kept answering during the backups')
      assert.ok(answered.length > copies[0]!.before.length, 'alerts were written while backing up')

      for (const { file, before } of copies) {
        assert.equal(existsSync(`${file}-wal`), false, 'the copy is one self-contained file')
        assert.equal(statSync(file).mode & 0o077, 0, 'the copy is readable by its owner only')
        const copy = new SQLite(file, { readonly: true, fileMustExist: true })
        try {
          assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok')
          assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete')
          const accountsCopied = copy.prepare('select count(*) as n from vendor_accounts').get() as {
            n: number
          }
          assert.equal(accountsCopied.n, 502)
          const open = new Set(
            (
              copy.prepare("select correlation_id as id from tickets where status = 'open'").all() as {
                id: string
              }[]
            ).map((r) => r.id),
          )
          const createdEvents = (
            copy.prepare("select correlation_id as id from events where event = 'Ticket Created'").all() as {
              id: string
            }[]
          ).map((r) => r.id)
          // A ticket whose PSA call has just succeeded is written down with its psa_effects row a moment
          // before its event (docs/decision-table.md#psa-effect-first): the copy may hold it so.
          const effects = (
            copy.prepare("select correlation_id as id from psa_effects where row = '11'").all() as {
              id: string
            }[]
          ).map((r) => r.id)
          for (const id of before)
            assert.ok(open.has(id), `ticket ${id}, answered before the backup, is in it`)
          assert.deepEqual(
            [...open].sort(),
            [...new Set([...createdEvents, ...effects])].sort(),
            'every ticket has its event (or its PSA effect, about to be recorded) and every event its ticket',
          )
          assert.equal(createdEvents.length + effects.length, open.size, 'one event per ticket')
        } finally {
          copy.close()
        }
      }
    } finally {
      await svc.close()
    }
  })

  test('PostgreSQL is refused, pointing at pg_dump', async () => {
    const file = join(dir, 'pg.db')
    const result = await backup(file, {
      DATABASE_URL: 'postgres://alice:pg-password-4321@127.0.0.1:1/alerts',
      SECRET_KEY: newKey(),
    })
    assert.equal(result.code, 1, result.output)
    assert.match(result.output, /DATABASE_URL names PostgreSQL.*pg_dump/)
    assert.equal(result.output.includes('pg-password-4321'), false)
    assert.equal(existsSync(file), false)
  })

  test('a missing database is refused, and nothing is created', async () => {
    const missing = join(dir, 'no-such.db')
    const file = join(dir, 'from-missing.db')
    const result = await backup(file, { DATABASE_URL: `sqlite:${missing}` })
    assert.equal(result.code, 1, result.output)
    assert.match(
      result.output,
      /^backup: There is no database at \S+no-such\.db \(DATABASE_URL\): nothing to back up\.$/m,
    )
    assert.doesNotMatch(result.output, stackFrame)
    assert.equal(existsSync(missing), false)
    assert.equal(existsSync(file), false)
  })

  test('an existing file is never overwritten', async () => {
    const svc = await startService()
    try {
      const { path } = svc.services.config.database as { path: string }
      const file = join(dir, 'exists.db')
      writeFileSync(file, 'keep me')
      const result = await backup(file, { DATABASE_URL: `sqlite:${path}` })
      assert.equal(result.code, 1, result.output)
      assert.match(result.output, /exists\.db already exists/)
    } finally {
      await svc.close()
    }
  })
})
