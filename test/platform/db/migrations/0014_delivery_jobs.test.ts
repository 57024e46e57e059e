// Upgrading to one scheduler (migration 0014_delivery_jobs): every pending delivery of the old outbox
// gets its delivery job, due when its next attempt was (one a dead process had leased included), in
// its endpoint's group; finished deliveries get none; the deliveries' own lease column is gone.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { Migrator, sql } from 'kysely'
import { openDatabase } from '../../../../src/platform/db/connect.js'
import { migrateToLatest, migrations } from '../../../../src/platform/db/migrate.js'
import { backends, postgresDatabase } from '../../../support/service.js'

for (const backend of backends('databases')) {
  test(`pending deliveries get their jobs when the database is upgraded (${backend})`, async () => {
    let target: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }
    let drop: () => Promise<void> | void
    if (backend === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'alertbridge-migration-'))
      target = { kind: 'sqlite', path: join(dir, 'alertbridge.db') }
      drop = () => rmSync(dir, { recursive: true, force: true })
    } else {
      const database = await postgresDatabase()
      target = { kind: 'postgres', url: database.url }
      drop = database.drop
    }
    const db = openDatabase(target)
    try {
      const before = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } })
      const at = await before.migrateTo('0013_row_names')
      assert.equal(at.error, undefined)
      const created = '2026-11-01T00:00:00.000Z'
      const next = '2026-11-01T00:05:00.000Z'
      await sql`insert into vendors (id, name, client_id, client_secret_digest, created_at, updated_at)
        values ('v1', 'V', 'c1', 'digest', ${created}, ${created})`.execute(db.kysely)
      for (const [id, status, lease] of [
        ['msg_waiting', 'pending', null],
        ['msg_leased', 'pending', 'token-of-a-dead-process'],
        ['msg_done', 'delivered', null],
        ['msg_dead', 'dead', null],
      ] as const)
        await sql`insert into webhook_deliveries (id, vendor_id, event_type, body, status, failed_attempts,
            attempt_count, manual, run_at, lease_token, created_at, updated_at)
          values (${id}, 'v1', 'status_update', '{}', ${status}, 1, 1, 0, ${next}, ${lease}, ${created},
            ${created})`.execute(db.kysely)

      assert.equal((await migrateToLatest(db))[0], '0014_delivery_jobs')
      const jobs = await db.kysely
        .selectFrom('jobs')
        .select(['kind', 'payload', 'group_key', 'run_at', 'attempts', 'lease_token'])
        .orderBy('payload')
        .execute()
      assert.deepEqual(jobs, [
        {
          kind: 'delivery',
          payload: '{"deliveryId":"msg_leased"}',
          group_key: 'delivery:v1',
          run_at: next,
          attempts: 0,
          lease_token: null,
        },
        {
          kind: 'delivery',
          payload: '{"deliveryId":"msg_waiting"}',
          group_key: 'delivery:v1',
          run_at: next,
          attempts: 0,
          lease_token: null,
        },
      ])
      const row = (await sql<Record<string, unknown>>`select * from webhook_deliveries`.execute(db.kysely))
        .rows[0]
      assert.ok(row && !('lease_token' in row), 'the deliveries keep no lease of their own')
    } finally {
      await db.kysely.destroy()
      await drop()
    }
  })
}
