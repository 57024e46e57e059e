// The endpoint slot stores on their own: this process's count, and the Redis leases every process
// shares (issue 14): the limit, giving back, a dead holder's slots coming back when their lease ends,
// a long attempt keeping its slot by renewing it, and an unreachable Redis answering with an error.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { connectRedis, type RedisHandle } from '../../src/redis/connect.js'
import { LocalEndpointSlots, RedisEndpointSlots, type Slot } from '../../src/webhooks/endpoint-slots.js'
import { backends, redisPrefix } from '../helpers/service.js'

const log = pino({ level: 'silent' })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function takeAll(
  slots: { tryAcquire(v: string): Promise<Slot | null> },
  vendorId: string,
  n: number,
): Promise<Slot[]> {
  const out: Slot[] = []
  for (let i = 0; i < n; i++) {
    const slot = await slots.tryAcquire(vendorId)
    assert.ok(slot, `slot ${i + 1} of ${n}`)
    out.push(slot)
  }
  return out
}

describe('endpoint slots of one process', () => {
  test('4 taken, the 5th refused, one given back: free again; other endpoints are not affected', async () => {
    const slots = new LocalEndpointSlots(4)
    const held = await takeAll(slots, 'v1', 4)
    assert.equal(await slots.tryAcquire('v1'), null)
    assert.ok(await slots.tryAcquire('v2'), 'another endpoint has its own slots')
    await slots.release(held[0]!)
    await slots.release(held[0]!) // twice: harmless, frees one slot only
    assert.ok(await slots.tryAcquire('v1'))
    assert.equal(await slots.tryAcquire('v1'), null)
  })
})

describe('endpoint slots in Redis', { skip: !backends().includes('postgres+redis') }, () => {
  let redis: RedisHandle
  let drop: () => Promise<void>
  before(() => {
    const p = redisPrefix()
    drop = p.drop
    redis = connectRedis({ url: process.env.TEST_REDIS_URL!, prefix: p.prefix })
  })
  after(async () => {
    await redis.close()
    await drop()
  })
  const store = (o: { lockTimeoutMs?: number; refreshMs?: number } = {}) =>
    new RedisEndpointSlots(redis, {
      limit: 4,
      lockTimeoutMs: o.lockTimeoutMs ?? 30_000,
      refreshMs: o.refreshMs ?? 0,
      acquireTimeoutMs: 2_000,
      log,
    })

  test('4 taken, the 5th refused (from another process too), one given back: free again', async () => {
    const a = store()
    const b = store() // a second process: the same Redis and prefix
    const held = [...(await takeAll(a, 'v1', 2)), ...(await takeAll(b, 'v1', 2))]
    assert.equal(await a.tryAcquire('v1'), null)
    assert.equal(await b.tryAcquire('v1'), null)
    assert.ok(await a.tryAcquire('v2'), 'another endpoint has its own slots')
    // The slots live under the installation's prefix, where nothing else of another installation is.
    assert.equal(await redis.client.exists(redis.key('endpoint', 'v1')), 1)
    await b.release(held[3]!)
    const again = await a.tryAcquire('v1')
    assert.ok(again, 'a slot given back in one process is free for the other')
    assert.equal(await b.tryAcquire('v1'), null)
    await a.release(held[0]!)
    await a.release(held[1]!)
    await b.release(held[2]!)
    await a.release(again)
    await takeAll(b, 'v1', 4)
  })

  test('a holder that dies without giving its slots back loses them when their lease ends', async () => {
    const dead = store({ lockTimeoutMs: 300 })
    await takeAll(dead, 'v3', 4) // never released
    const alive = store({ lockTimeoutMs: 300 })
    assert.equal(await alive.tryAcquire('v3'), null)
    await sleep(400)
    await takeAll(alive, 'v3', 4)
  })

  test('a holder that is alive renews its slots: a long attempt keeps them past the lease', async () => {
    const long = store({ lockTimeoutMs: 300, refreshMs: 100 })
    const held = await takeAll(long, 'v4', 4)
    const other = store({ lockTimeoutMs: 300 })
    await sleep(700)
    assert.equal(await other.tryAcquire('v4'), null, 'renewed slots are still taken')
    for (const s of held) await long.release(s)
    assert.ok(await other.tryAcquire('v4'))
  })

  test('Redis unreachable: taking a slot fails within its time limit instead of waiting for ever', async () => {
    // Nothing listens on port 1: the connection keeps retrying and the command waits in its queue.
    const away = connectRedis({ url: 'redis://127.0.0.1:1', prefix: 'abtest-unreachable' })
    try {
      const slots = new RedisEndpointSlots(away, {
        limit: 4,
        lockTimeoutMs: 30_000,
        refreshMs: 0,
        acquireTimeoutMs: 200,
        log,
      })
      const started = Date.now()
      await assert.rejects(slots.tryAcquire('v5'), /did not answer/)
      assert.ok(Date.now() - started < 1_500)
    } finally {
      await away.close()
    }
  })
})
