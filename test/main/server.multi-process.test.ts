// Scale-out with real processes (docs/deploy.md, "Three processes on PostgreSQL"): two ROLE=api and
// two ROLE=worker processes on one PostgreSQL database and one Redis prefix. One ticket per dedup key
// when 20 same-key OPENs hit both api processes at once; webhook-strategy alerts all reach the vendor,
// one webhook-id each, while a worker is killed with kill -9; jobs an api process committed but never
// handed to Redis (its Redis path went dead, then the process was killed) are re-sent by the relay;
// and after Redis loses every key of the installation, everything queued is sent again from
// PostgreSQL.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { type Setup, setupIntegration } from '../support/fixtures.js'
import { newKey, type Running, startServer } from '../support/process.js'
import { type Receiver, startReceiver } from '../support/receiver.js'
import { backends, postgresDatabase, redisPrefix, requester } from '../support/service.js'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js'

const adminToken = `scale-admin-token-${'s'.repeat(32)}`

describe('several api and worker processes on PostgreSQL and Redis', {
  skip:
    !backends('matrix').includes('postgres+redis') && 'TEST_POSTGRES_URL and TEST_REDIS_URL are not both set',
}, () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  const processes: Running[] = []
  let receiver: Receiver
  let proxy: TcpProxy
  let databaseUrl: string
  let prefix: string
  let key: string
  let api: Running[]
  let workers: Running[]
  let query: (sql: string) => Promise<Record<string, unknown>[]>
  /** The webhook-strategy integration: its vendor posts to `receiver`. */
  let s: Setup

  const env = (role: string, redisUrl = process.env.TEST_REDIS_URL!) => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN: adminToken,
    SECRET_KEY: key,
    ALLOW_PRIVATE_NETWORK: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1',
    // A killed worker's jobs are due again within one lease: 5 s rather than 30 (JOB_LEASE_SECONDS).
    JOB_LEASE_SECONDS: '5',
    ROLE: role,
  })
  const start = async (role: string, redisUrl?: string) => {
    const p = await startServer(env(role, redisUrl))
    processes.push(p)
    return p
  }

  before(async () => {
    const database = await postgresDatabase({ migrated: true })
    cleanups.push(database.drop)
    databaseUrl = database.url
    const redis = redisPrefix()
    cleanups.push(redis.drop)
    prefix = redis.prefix
    key = newKey()
    receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const target = new URL(process.env.TEST_REDIS_URL!)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) })
    cleanups.push(() => proxy.close())
    query = async (sql) => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      try {
        return (await client.query(sql)).rows
      } finally {
        await client.end()
      }
    }
    // The first process migrates; the others start together.
    const first = await start('api')
    const proxied = new URL(process.env.TEST_REDIS_URL!)
    proxied.host = `127.0.0.1:${proxy.port}`
    const others = await Promise.all([start('api', proxied.toString()), start('worker'), start('worker')])
    api = [first, others[0]]
    workers = [others[1], others[2]]

    const svc = { request: requester(first.url), adminToken }
    s = await setupIntegration(svc, { vendorName: 'Scale Vendor', webhooksTo: receiver })
    const off = await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
      deduplication: { enabled: false },
    })
    assert.equal(off.status, 200, off.text)
  })

  after(async () => {
    for (const p of processes) p.child.kill('SIGKILL')
    for (const c of cleanups.reverse()) await c()
  })

  const arrived = () => new Set(receiver.accepted('status_update').map((r) => r.body.payload.messageId))

  /** Sends `n` webhook-strategy alerts, 8 at a time, round robin over `urls`; answers their messageIds. */
  async function send(n: number, urls: string[], label: string): Promise<string[]> {
    const ids: string[] = []
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < n; i = next++) {
          const res = await requester(urls[i % urls.length]!)('POST', '/api/oem-alerts-api/alert', {
            body: s.body({ title: `${label} ${i}` }),
          })
          assert.equal(res.status, 201, res.text)
          ids.push(res.body.data.messageId)
        }
      }),
    )
    return ids
  }

  /** Every accepted messageId arrived, each under one webhook-id (a webhook-id may arrive twice). */
  function assertOncePerMessage(ids: readonly string[]): void {
    const webhookIds = new Map<string, Set<string>>()
    for (const r of receiver.accepted('status_update')) {
      const set = webhookIds.get(r.body.payload.messageId) ?? new Set<string>()
      set.add(r.id)
      webhookIds.set(r.body.payload.messageId, set)
    }
    for (const id of ids) assert.equal(webhookIds.get(id)?.size, 1, `one webhook-id for ${id}`)
    assert.deepEqual(receiver.unverified, [])
  }

  async function assertOneOutcomeEach(ids: readonly string[]): Promise<void> {
    const list = ids.map((id) => `'${id.replaceAll("'", "''")}'`).join(',')
    const [row] = await query(
      `select count(*) as events, count(distinct message_id) as messages from events where message_id in (${list})`,
    )
    assert.deepEqual([Number(row?.events), Number(row?.messages)], [ids.length, ids.length], 'one event each')
    const [deliveries] = await query(
      `select count(*) as n from webhook_deliveries where event_type = 'status_update' and message_id in (${list})`,
    )
    assert.equal(Number(deliveries?.n), ids.length, 'one status_update delivery each')
  }

  test('20 concurrent same-key OPENs over two api processes: one ticket', async () => {
    const sync = await setupIntegration(
      { request: requester(api[0]!.url), adminToken },
      { vendorName: 'Sync Vendor', partnerName: 'Race MSP' },
    )
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        requester(api[i % 2]!.url)('POST', '/api/oem-alerts-api/alert/sync', {
          body: sync.body({ title: `Burst ${i}` }),
        }),
      ),
    )
    const messages = results.map((r) => r.body.message)
    assert.equal(messages.filter((m) => m === 'created').length, 1, JSON.stringify(messages))
    assert.equal(messages.filter((m) => m === 'updated').length, 19, JSON.stringify(messages))
    const sandbox = await sync.partner('GET', '/api/partner/sandbox/tickets')
    assert.equal(sandbox.body.data.length, 1, 'one ticket in the PSA')
  })

  test('a worker killed with kill -9 mid-run: every alert delivered, one webhook-id each', async () => {
    const sending = send(
      300,
      api.map((p) => p.url),
      'kill',
    )
    await receiver.waitFor(() => arrived().size >= 60, '60 status_updates before the kill', 120_000)
    const victim = workers[1]!
    victim.child.kill('SIGKILL')
    await new Promise((resolve) => victim.child.once('exit', resolve))
    assert.ok(arrived().size < 300, 'the kill happened mid-run')
    const ids = await sending
    await receiver.waitFor(
      () => ids.every((id) => arrived().has(id)),
      `all ${ids.length} status_updates (have ${ids.filter((id) => arrived().has(id)).length})`,
      180_000,
    )
    assertOncePerMessage(ids)
    await assertOneOutcomeEach(ids)
    workers[1] = await start('worker')
  })

  test('an api process whose hand-over never reached Redis, then killed: the relay sends its jobs', async () => {
    const victim = api[1]!
    // Its Redis path goes dead without a reset: its hand-overs hang, its commits do not.
    proxy.blackhole()
    const ids = await send(30, [victim.url], 'orphan')
    victim.child.kill('SIGKILL')
    await new Promise((resolve) => victim.child.once('exit', resolve))
    await receiver.waitFor(
      () => ids.every((id) => arrived().has(id)),
      `all ${ids.length} orphaned alerts delivered (have ${ids.filter((id) => arrived().has(id)).length})`,
      90_000,
    )
    assertOncePerMessage(ids)
    await assertOneOutcomeEach(ids)
    const metrics = await requester(workers[0]!.url)('GET', '/metrics')
    assert.match(metrics.text, /alertbridge_queue_relay_resent_total \d+/)
  })

  test('Redis loses every key mid-run: everything queued is sent again from PostgreSQL', async () => {
    const sending = send(200, [api[0]!.url], 'flush')
    await receiver.waitFor(() => arrived().size >= 1, 'a first delivery', 60_000)
    await redisPrefix(prefix).drop()
    const ids = await sending
    await redisPrefix(prefix).drop()
    await receiver.waitFor(
      () => ids.every((id) => arrived().has(id)),
      `all ${ids.length} delivered after the flush (have ${ids.filter((id) => arrived().has(id)).length})`,
      120_000,
    )
    assertOncePerMessage(ids)
    await assertOneOutcomeEach(ids)
  })
})
