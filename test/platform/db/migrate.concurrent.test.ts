// Several processes starting together on one fresh PostgreSQL database
// (docs/decisions/scale-out/migration-lock.md): every one comes up, the schema is migrated once (one
// process applies every migration, the others find none pending), and they then share one database: what
// one process writes the others read.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import pg from 'pg'
import { openDatabase } from '../../../src/platform/db/connect.js'
import { migrateToLatest, migrationNames } from '../../../src/platform/db/migrate.js'
import { newKey, postgresDatabase, type Running, startServer } from '../../support/process.js'
import { requester } from '../../support/service.js'

describe('migrations when several processes start at once', {
  skip: !process.env.TEST_POSTGRES_URL && 'TEST_POSTGRES_URL is not set',
}, () => {
  test('three processes on a fresh PostgreSQL database all come up; the schema is migrated once', async () => {
    const database = await postgresDatabase()
    const adminToken = `test-admin-${randomBytes(24).toString('hex')}`
    const env = {
      DATABASE_URL: database.url,
      SECRET_KEY: newKey(),
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'info',
    }
    const started = await Promise.allSettled([
      startServer({ ...env, ROLE: 'api' }),
      startServer({ ...env, ROLE: 'worker' }),
      startServer({ ...env, ROLE: 'worker' }),
    ])
    const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    try {
      for (const s of started) if (s.status === 'rejected') throw s.reason
      const [api] = running as [Running, Running, Running]

      const migrators = running.filter((r) => /migrated the database to/.test(r.output()))
      assert.equal(migrators.length, 1, running.map((r) => r.output()).join('\n---\n'))
      assert.match(
        migrators[0]!.output(),
        new RegExp(`"migrations":\\[${migrationNames.map((n) => `"${n}"`)}\\]`),
      )

      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      try {
        const executed = await client.query<{ name: string }>(
          'select name from kysely_migration order by name',
        )
        assert.deepEqual(
          executed.rows.map((r) => r.name),
          [...migrationNames],
        )
        const check = await client.query(
          "select count(*)::int as n from settings where key = 'secret_key_check'",
        )
        assert.equal(check.rows[0].n, 1)
      } finally {
        await client.end()
      }

      for (const r of running) assert.equal((await requester(r.url)('GET', '/readyz')).status, 200)
      const vendor = await requester(api.url)('POST', '/api/admin/vendors', {
        token: adminToken,
        body: { name: 'Shared by every process' },
      })
      assert.equal(vendor.status, 201, vendor.text)
    } finally {
      await Promise.all(running.map((r) => r.stop()))
      await database.drop()
    }
  })

  // Processes start at slightly different times; three migrators in one process, each with its own
  // pool, are sure to overlap. Without the migrator's lock two of them fail (a table created twice).
  test('three migrators racing on one fresh database: one applies every migration, two apply none', async () => {
    const database = await postgresDatabase()
    const dbs = [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: database.url }))
    try {
      const applied = await Promise.all(dbs.map((db) => migrateToLatest(db)))
      assert.deepEqual(applied.map((a) => a.length).sort(), [0, 0, migrationNames.length])
    } finally {
      for (const db of dbs) await db.close()
      await database.drop()
    }
  })
})
