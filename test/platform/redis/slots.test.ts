// A capped kind's group slots in Redis, shared by every process of an installation (platform/redis/slots.ts):
// what holds 4 webhook deliveries in flight per endpoint, one usage push per line and a partner's
// alerts at once with REDIS_URL. The limit holds across processes, the slots live under the
// installation's prefix, a dead holder's slots come back when their lease ends, and a holder that is
// alive keeps them past the lease by renewing them.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { connectRedis, type RedisHandle } from '../../../src/platform/redis/connect.js'
import { type GroupSlots, redisGroupSlots, type Slot } from '../../../src/platform/redis/slots.js'
import { backends, redisPrefix } from '../../support/service.js'
import { hold } from '../../support/wait.js'

const log = pino({ level: 'silent' })

async function takeAll(slots: GroupSlots, group: string, n: number): Promise<Slot[]> {
  const out: Slot[] = []
  for (let i = 0; i < n; i++) {
    const slot = await slots.take(group, 4)
    assert.ok(slot, `slot ${i + 1} of ${n}`)
    out.push(slot)
  }
  return out
}

describe('group slots in Redis', { skip: !backends('matrix').includes('postgres+redis') }, () => {
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
  const slots = (o: { leaseMs?: number; renewEveryMs?: number } = {}) =>
    redisGroupSlots(redis, { log, leaseMs: o.leaseMs ?? 30_000, renewEveryMs: o.renewEveryMs ?? 10_000 })

  test('4 taken, the 5th refused (from another process too), one given back: free again', async () => {
    const a = slots()
    const b = slots() // a second process: the same Redis and prefix
    const held = [...(await takeAll(a, 'delivery:v1', 2)), ...(await takeAll(b, 'delivery:v1', 2))]
    assert.equal(await a.take('delivery:v1', 4), false)
    assert.equal(await b.take('delivery:v1', 4), false)
    const other = await a.take('delivery:v2', 4)
    assert.ok(other, 'another group has its own slots')
    // The slots live under the installation's prefix, where nothing of another installation is.
    assert.equal(await redis.client.exists(redis.key('group', 'delivery:v1')), 1)
    await held[3]!.release()
    const again = await a.take('delivery:v1', 4)
    assert.ok(again, 'a slot given back in one process is free for the other')
    assert.equal(await b.take('delivery:v1', 4), false)
    for (const s of [held[0]!, held[1]!, held[2]!, again, other]) await s.release()
    for (const s of await takeAll(b, 'delivery:v1', 4)) await s.release()
  })

  test('a holder that dies without giving its slots back loses them when their lease ends', async () => {
    const dead = slots({ leaseMs: 300, renewEveryMs: 0 })
    await takeAll(dead, 'delivery:v3', 4) // never released, never renewed
    const alive = slots({ leaseMs: 300 })
    assert.equal(await alive.take('delivery:v3', 4), false)
    // Time passing is the test: the crashed holder's 300 ms leases lapse.
    await hold(400, 'the crashed holder’s 300 ms leases lapse')
    for (const s of await takeAll(alive, 'delivery:v3', 4)) await s.release()
  })

  test('a holder that is alive renews its slots: a long job keeps them past the lease', async () => {
    const long = slots({ leaseMs: 300, renewEveryMs: 100 })
    const held = await takeAll(long, 'delivery:v4', 4)
    const other = slots({ leaseMs: 300 })
    // Time passing is the test: past two lease lengths, renewed slots are still held.
    await hold(700, 'past two lease lengths')
    assert.equal(await other.take('delivery:v4', 4), false, 'renewed slots are still taken')
    for (const s of held) await s.release()
    const freed = await other.take('delivery:v4', 4)
    assert.ok(freed)
    await freed.release()
  })
})
