// Idempotency keys across processes (docs/vendor-api.md#idempotency-keys): two real service processes
// on one PostgreSQL database and one Redis prefix, as docs/deploy.md scales out. A key claimed in one
// process is held in the other (409 while the first runs, then its answer again; another request 422),
// because the claim is a row under a unique constraint, not a lock in memory. Same-key alerts sent to
// both at once make one ticket in the PSA (the ConnectWise simulator, slowed so that they overlap) and,
// with the webhook strategy, one status_update.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { hooked } from '../../support/hooked.js'
import { newKey, type Running, startServer } from '../../support/process.js'
import { connectWiseService } from '../../support/psa/service-fixtures.js'
import type { Receiver } from '../../support/receiver.js'
import {
  backends,
  postgresDatabase,
  type Response,
  redisPrefix,
  requester,
  type TestService,
} from '../../support/service.js'
import { type ConnectWiseSim, startConnectWiseSim } from '../../support/sims/connectwise/server.js'
import { hold, waitFor } from '../../support/wait.js'

const adminToken = `idempotency-admin-token-${'i'.repeat(32)}`
const sync = '/api/oem-alerts-api/alert/sync'

describe('idempotency keys across two processes on PostgreSQL and Redis', {
  skip:
    !backends('matrix').includes('postgres+redis') && 'TEST_POSTGRES_URL and TEST_REDIS_URL are not both set',
}, () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  const receivers: Receiver[] = []
  let sim: ConnectWiseSim
  let processes: Running[]
  /** The two processes, as the fixtures talk to a service. */
  let svc: [TestService, TestService]
  let query: (sql: string, values?: unknown[]) => Promise<Record<string, unknown>[]>

  before(async () => {
    const database = await postgresDatabase({ migrated: true })
    cleanups.push(database.drop)
    const redis = redisPrefix()
    cleanups.push(redis.drop)
    sim = await startConnectWiseSim()
    cleanups.push(() => sim.close())
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_PREFIX: redis.prefix,
      ADMIN_TOKEN: adminToken,
      SECRET_KEY: newKey(),
      ALLOW_PRIVATE_NETWORK: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.1,0.1',
    }
    // The first process migrates; the second starts on the migrated database.
    const first = await startServer(env)
    processes = [first, await startServer(env)]
    svc = processes.map((p) => ({ request: requester(p.url), adminToken })) as unknown as [
      TestService,
      TestService,
    ]
    query = async (sql, values) => {
      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      try {
        return (await client.query(sql, values)).rows
      } finally {
        await client.end()
      }
    }
  })
  after(async () => {
    for (const p of processes ?? []) await p.stop()
    for (const r of receivers) await r.close()
    for (const c of cleanups.reverse()) await c()
  })

  const send = (i: number, body: unknown, key: string) =>
    svc[i % 2]!.request('POST', sync, { body, headers: { 'idempotency-key': key } })
  const replayed = (r: Response) => r.headers.get('idempotent-replayed') === 'true'

  test('a key running in one process is 409 in the other, then its answer; another request 422; one PSA ticket', async () => {
    const s: Setup = await setupIntegration(svc[0], {
      psa: connectWiseService.settings(sim.url),
      psaCompanyId: connectWiseService.companyId,
      rule: { productGroup: 'Endpoint Security', ticket: { board: connectWiseService.board } },
    })
    const tickets = sim.state.tickets.length
    const key = randomUUID()
    sim.faults.set({ latencyMs: 500 })
    let first: Response
    try {
      const calls = sim.calls.length
      const running = send(0, s.body(), key)
      await waitFor(() => sim.calls.length > calls, {
        what: 'the first call to reach the PSA',
        intervalMs: 10,
      })
      const busy = await send(1, s.body(), key)
      assert.equal(busy.status, 409, busy.text)
      assert.equal(busy.body.error, 'IDEMPOTENCY_KEY_IN_USE')
      assert.equal(busy.headers.get('retry-after'), '1')
      const other = await send(1, s.body({ title: 'Another alert' }), key)
      assert.equal(other.status, 422, other.text)
      assert.equal(other.body.error, 'IDEMPOTENCY_KEY_REUSED')
      // Both processes at once, while it runs.
      const burst = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => send(i, s.body(), key)))
      first = await running
      assert.equal(first.status, 201, first.text)
      assert.equal(replayed(first), false)
      for (const r of burst) {
        if (r.status === 409) assert.equal(r.body.error, 'IDEMPOTENCY_KEY_IN_USE')
        else assert.ok(replayed(r) && r.text === first.text, r.text)
      }
    } finally {
      sim.faults.clear()
    }
    for (const i of [0, 1]) {
      const again = await send(i, s.body(), key)
      assert.equal(again.text, first.text)
      assert.ok(replayed(again))
    }
    assert.equal(sim.state.tickets.length, tickets + 1)
    assert.deepEqual(sim.state.tickets.at(-1)?.notes ?? [], [])
    const rows = await query(
      'select status, response_status from idempotency_keys where idempotency_key = $1',
      [key],
    )
    assert.deepEqual(rows, [{ status: 'done', response_status: 201 }])
  })

  test('webhook strategy: the same key sent to both processes at once makes one alert and one status_update', async () => {
    const h = await hooked(svc[0])
    receivers.push(h.receiver)
    const key = randomUUID()
    const answers = await Promise.all(
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
        svc[i % 2]!.request('POST', '/api/oem-alerts-api/alert', {
          body: h.body(),
          headers: { 'idempotency-key': key },
        }),
      ),
    )
    const ran = answers.filter((r) => r.status === 201 && !replayed(r))
    assert.equal(ran.length, 1, answers.map((r) => `${r.status} ${r.text}`).join('\n'))
    const first = ran[0]!
    for (const r of answers) {
      if (r === first) continue
      if (r.status === 409) assert.equal(r.body.error, 'IDEMPOTENCY_KEY_IN_USE')
      else assert.ok(replayed(r) && r.text === first.text, r.text)
    }
    const again = await svc[1].request('POST', '/api/oem-alerts-api/alert', {
      body: h.body(),
      headers: { 'idempotency-key': key },
    })
    assert.equal(again.text, first.text)
    await h.statusUpdate(first.body.data.messageId)
    // Anything a second run would have sent has had its time to arrive.
    await hold(1000, 'a period in which a second run would have sent a status_update')
    assert.equal(h.receiver.accepted('status_update').length, 1)
    const events = await query('select count(*)::int as n from events where integration_id = $1', [
      h.integrationId,
    ])
    assert.deepEqual(events, [{ n: 1 }])
    const psa = await query('select count(*)::int as n from sandbox_tickets where partner_id = $1', [
      h.partnerId,
    ])
    assert.deepEqual(psa, [{ n: 1 }])
  })
})
