// Nothing accepted is lost, and nothing waits long for a crash: the real server process in its default
// mode (ROLE=all, one process) takes a few hundred webhook-strategy alerts, is killed with SIGKILL in
// the middle of the stream, and restarted on the same database, on SQLite, PostgreSQL and PostgreSQL +
// Redis. Every alert that was answered 2xx reaches the vendor's endpoint within 60 s of the restart:
// the jobs the killed process held (alerts and deliveries alike) hold only the one short lease
// (src/platform/queue/lease.ts), which SQLite takes back at start and PostgreSQL lets run out. A SIGTERM in the
// middle of a stream exits cleanly (code 0) and loses nothing either.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../support/fixtures.js'
import { newKey, type Running, startServer } from '../support/process.js'
import { type Receiver, startReceiver } from '../support/receiver.js'
import { backends, postgresDatabase, redisPrefix, requester } from '../support/service.js'

const adminToken = `crash-test-admin-token-${'x'.repeat(24)}`
/** The bound of the brief's promise: every accepted alert's status_update within a minute of a restart. */
const afterRestartMs = 60_000

/** Posts `total` alerts, `parallel` at a time; calls `midway` once `killAfter` were answered. */
async function stream(
  server: Running,
  s: Setup,
  total: number,
  killAfter: number,
  midway: () => void,
): Promise<string[]> {
  const answered: string[] = []
  let next = 0
  let killed = false
  const one = async (): Promise<void> => {
    while (next < total) {
      const i = next++
      try {
        const res = await fetch(`${server.url}/api/oem-alerts-api/alert`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(s.body({ title: `alert ${i}` }, { correlationId: `c-${i}` })),
        })
        const body = (await res.json()) as { data: { messageId: string } }
        if (res.status >= 200 && res.status < 300) answered.push(body.data.messageId)
      } catch {
        // The server went away: this alert was never answered, so it may be lost.
      }
      if (!killed && answered.length >= killAfter) {
        killed = true
        midway()
      }
    }
  }
  await Promise.all(Array.from({ length: 16 }, one))
  return answered
}

const exitOf = (server: Running) =>
  new Promise<number | null>((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) resolve(server.child.exitCode)
    else server.child.once('exit', (code) => resolve(code))
  })

for (const backend of backends('matrix')) {
  describe(`crash safety (real server process, ROLE=all, ${backend})`, () => {
    const cleanups: (() => Promise<unknown> | unknown)[] = []
    const env: Record<string, string> = {
      ADMIN_TOKEN: adminToken,
      SECRET_KEY: newKey(),
      LOG_LEVEL: 'error',
      ALLOW_PRIVATE_NETWORK: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1',
      // A killed worker's jobs are due again within one lease: 5 s rather than 30 (JOB_LEASE_SECONDS).
      JOB_LEASE_SECONDS: '5',
    }
    let receiver: Receiver
    let server: Running | null = null
    let s: Setup

    before(async () => {
      if (backend === 'sqlite') {
        const dataDir = mkdtempSync(join(tmpdir(), 'alertbridge-crash-'))
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
        env.DATABASE_URL = `sqlite:${join(dataDir, 'alertbridge.db')}`
      } else {
        const database = await postgresDatabase({ migrated: true })
        cleanups.push(database.drop)
        env.DATABASE_URL = database.url
      }
      if (backend === 'postgres+redis') {
        const redis = redisPrefix()
        cleanups.push(redis.drop)
        Object.assign(env, { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: redis.prefix })
      }
      receiver = await startReceiver()
      cleanups.push(() => receiver.close())
      server = await startServer(env)
      const svc = { request: requester(server.url), adminToken }
      s = await setupIntegration(svc, { vendorName: 'Crash Vendor', webhooksTo: receiver })
    })
    after(async () => {
      if (server) {
        server.child.kill('SIGKILL')
        await exitOf(server)
      }
      for (const c of cleanups.reverse()) await c()
    })

    const arrived = () => new Set(receiver.accepted('status_update').map((r) => r.body.payload.messageId))

    test('kill -9 mid-stream: every alert answered 2xx reaches the receiver within 60 s of the restart', async (t) => {
      const running = server!
      const answered = await stream(running, s, 300, 120, () => running.child.kill('SIGKILL'))
      await exitOf(running)
      server = null
      assert.ok(answered.length >= 120, `answered ${answered.length}`)
      assert.ok(answered.length < 300, 'the kill happened mid-stream')
      const missing = () => answered.filter((id) => !arrived().has(id)).length
      assert.ok(missing() > 0, 'the kill left status updates to deliver')

      // The bound counts from the restart's spawn, the process's own start included.
      const restarted = Date.now()
      server = await startServer(env)
      await receiver.waitFor(
        () => missing() === 0,
        `${answered.length} status updates within 60 s of the restart (${missing()} missing)`,
        afterRestartMs - (Date.now() - restarted),
      )
      t.diagnostic(
        `${answered.length} answered; the last arrived ${Date.now() - restarted} ms after the restart`,
      )
      assert.deepEqual(receiver.unverified, [])
    })

    test('SIGTERM mid-stream exits 0, and a restart delivers everything answered', async () => {
      const running = server!
      const answered = await stream(running, s, 200, 60, () => running.child.kill('SIGTERM'))
      assert.equal(await exitOf(running), 0, running.output())
      server = await startServer(env)
      await receiver.waitFor(
        () => answered.every((id) => arrived().has(id)),
        `${answered.length} status updates`,
        90_000,
      )
    })
  })
}
