// kill -9 in the middle of a batched drain (docs/performance.md) loses nothing and duplicates nothing,
// on SQLite, PostgreSQL and PostgreSQL + Redis: a ROLE=api process queues the alerts, a ROLE=all
// process starts draining them and is killed with SIGKILL once some status_updates arrived, and a
// third process finishes. Every alert then
// has one event, one ticket, one sandbox ticket and one status_update delivery in the database, and the
// vendor saw one webhook-id per alert (a webhook-id may arrive twice: delivery is at least once).
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { setupIntegration } from '../support/fixtures.js'
import { newKey, startServer } from '../support/process.js'
import { type Receiver, startReceiver } from '../support/receiver.js'
import { backends, postgresDatabase, redisPrefix, requester } from '../support/service.js'
import { waitFor } from '../support/wait.js'

const adminToken = `crash-batched-admin-token-${'x'.repeat(24)}`
// Enough for the kill to land mid-drain with batches on either side of it.
const alerts = 240

for (const backend of backends('matrix')) {
  describe(`kill -9 mid batched drain (${backend})`, () => {
    const cleanups: (() => Promise<void> | void)[] = []
    after(async () => {
      for (const c of cleanups.reverse()) await c()
    })

    test('every alert has one event, one ticket and one status_update; nothing is lost', async () => {
      let databaseUrl: string
      let query: (sql: string) => Promise<Record<string, unknown>[]>
      if (backend === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'alertbridge-crash-batched-'))
        cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
        const file = join(dir, 'alertbridge.db')
        databaseUrl = `sqlite:${file}`
        query = async (sql) => {
          const db = new SQLite(file, { readonly: true })
          try {
            return db.prepare(sql).all() as Record<string, unknown>[]
          } finally {
            db.close()
          }
        }
      } else {
        const database = await postgresDatabase({ migrated: true })
        cleanups.push(database.drop)
        databaseUrl = database.url
        query = async (sql) => {
          const client = new pg.Client({ connectionString: database.url })
          await client.connect()
          try {
            return (await client.query(sql)).rows
          } finally {
            await client.end()
          }
        }
      }
      // The scale-out configuration: the same processes with the Redis transport (docs/deploy.md).
      const redisEnv: Record<string, string> = {}
      if (backend === 'postgres+redis') {
        const redis = redisPrefix()
        cleanups.push(redis.drop)
        Object.assign(redisEnv, { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: redis.prefix })
      }
      const receiver: Receiver = await startReceiver()
      cleanups.push(() => receiver.close())
      const env = (role: string) => ({
        DATABASE_URL: databaseUrl,
        ADMIN_TOKEN: adminToken,
        SECRET_KEY: key,
        ALLOW_PRIVATE_NETWORK: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1',
        // A killed worker's jobs are due again within one lease: 5 s rather than 30 (JOB_LEASE_SECONDS).
        JOB_LEASE_SECONDS: '5',
        ROLE: role,
        ...redisEnv,
      })
      const key = newKey()

      // Queue the alerts with no worker running.
      const api = await startServer(env('api'))
      const svc = { request: requester(api.url), adminToken }
      const s = await setupIntegration(svc, { vendorName: 'Crash Vendor', webhooksTo: receiver })
      const off = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      assert.equal(off.status, 200, off.text)
      const ids: string[] = []
      let next = 0
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = next++; i < alerts; i = next++) {
            const res = await svc.request('POST', '/api/oem-alerts-api/alert', {
              body: s.body({ title: `a${i}` }),
            })
            assert.equal(res.status, 201, res.text)
            ids.push(res.body.data.messageId)
          }
        }),
      )
      assert.equal(await api.stop(), 0)

      const arrived = () => new Set(receiver.accepted('status_update').map((r) => r.body.payload.messageId))
      // Drain, and kill the process in the middle of it.
      const first = await startServer(env('all'))
      await receiver.waitFor(() => arrived().size >= 60, '60 status_updates before the kill', 120_000)
      first.child.kill('SIGKILL')
      await new Promise((resolve) => first.child.once('exit', resolve))
      assert.ok(arrived().size < alerts, 'the kill happened mid-drain')

      const second = await startServer(env('all'))
      cleanups.push(() => void second.child.kill('SIGKILL'))
      await receiver.waitFor(
        () => ids.every((id) => arrived().has(id)),
        `all ${alerts} status_updates (have ${arrived().size})`,
        180_000,
      )
      // The killed process's jobs whose outcome it had recorded stay until their lease runs out (5 s
      // here, on PostgreSQL; SQLite takes leases back at start): then they run again, find their message
      // recorded, and are done without doing anything twice.
      let left = 0
      await waitFor(
        async () => {
          left = Number((await query(`select count(*) as n from jobs where kind = 'alert'`))[0]?.n)
          return left === 0
        },
        { what: () => `no alert job left (${left} left)`, timeoutMs: 90_000, intervalMs: 250 },
      )
      assert.equal(await second.stop(), 0)

      // The vendor: one webhook-id per alert, every signature good, every alert's ticket made.
      const webhookIds = new Map<string, Set<string>>()
      for (const r of receiver.accepted('status_update')) {
        const set = webhookIds.get(r.body.payload.messageId) ?? new Set<string>()
        set.add(r.id)
        webhookIds.set(r.body.payload.messageId, set)
        assert.equal(r.body.payload.event, 'Ticket Created')
      }
      for (const id of ids) assert.equal(webhookIds.get(id)?.size, 1, `one webhook-id for ${id}`)
      assert.deepEqual(receiver.unverified, [])

      // The database: one of each per alert.
      const count = async (sql: string) => Number((await query(sql))[0]?.n)
      assert.equal(await count(`select count(*) as n from events where event = 'Ticket Created'`), alerts)
      assert.equal(await count('select count(distinct message_id) as n from events'), alerts)
      assert.deepEqual(await query('select status, count(*) as n from tickets group by status'), [
        { status: 'open', n: backend === 'sqlite' ? alerts : String(alerts) },
      ])
      assert.equal(await count('select count(*) as n from sandbox_tickets'), alerts)
      // One status_update row per alert. The one in flight when the process was killed may still be
      // pending under its lease (the receiver has it; it is sent again once the lease runs out).
      assert.equal(
        await count(`select count(*) as n from webhook_deliveries where event_type = 'status_update'`),
        alerts,
      )
      assert.equal(
        await count(
          `select count(distinct message_id) as n from webhook_deliveries where event_type = 'status_update'`,
        ),
        alerts,
      )
      assert.equal(await count(`select count(*) as n from jobs where kind = 'alert'`), 0)
      assert.equal(await count('select count(*) as n from psa_effects'), 0)
    })
  })
}
