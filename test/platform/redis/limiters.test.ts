// The limiters of src/platform/redis/limiters.ts on their own: two processes' factories on one Redis prefix
// count once, another prefix counts apart, and a Redis that cannot be reached never refuses or holds
// anything: the count goes on in memory, and that is logged.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, describe, test } from 'node:test'
import pino from 'pino'
import { RateLimiterRes } from 'rate-limiter-flexible'
import { connectRedis, type RedisHandle } from '../../../src/platform/redis/connect.js'
import { type Limiter, redisLimiters } from '../../../src/platform/redis/limiters.js'
import { redisPrefix } from '../../support/service.js'
import { waitFor } from '../../support/wait.js'

function logged() {
  const lines: { msg: string; level: number }[] = []
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  })
  return { lines, log: pino({ level: 'info' }, sink) }
}

/** Consumes until refused; answers how many were allowed (at most `max`). */
async function allowed(limiter: Limiter, key: string, max: number): Promise<number> {
  for (let i = 0; i < max; i++) {
    try {
      await limiter.consume(key)
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return i
      throw rejection
    }
  }
  return max
}

describe('rate limiters when Redis cannot be reached', () => {
  const handles: RedisHandle[] = []
  after(async () => {
    for (const h of handles) await h.close()
  })

  test('they count in memory at once, never refuse for the store, and say so in the log', async () => {
    const redis = connectRedis({ url: 'redis://127.0.0.1:1', prefix: 'unreachable' })
    handles.push(redis)
    const { lines, log } = logged()
    const limiter = redisLimiters(redis, log)({ keyPrefix: 'alerts', points: 3, duration: 60 })
    const started = Date.now()
    assert.equal(await allowed(limiter, 'vendor-1', 10), 3, 'the limit holds, counted in memory')
    assert.equal(await allowed(limiter, 'vendor-2', 10), 3, 'per key')
    assert.ok(Date.now() - started < 2000, 'no waiting for a Redis that is not there')
    assert.equal(await limiter.get('vendor-1').then((r) => r?.consumedPoints), 4)
    assert.equal(await limiter.delete('vendor-1'), true)
    const warnings = lines.filter((l) => /Redis cannot be reached/.test(l.msg))
    assert.equal(warnings.length, 1, 'logged once, not per alert')
  })
})

const redisUrl = process.env.TEST_REDIS_URL
describe('rate limiters in Redis', { skip: redisUrl ? false : 'needs TEST_REDIS_URL' }, () => {
  const handles: RedisHandle[] = []
  const prefixes: ReturnType<typeof redisPrefix>[] = []
  after(async () => {
    for (const h of handles) await h.close()
    for (const p of prefixes) await p.drop()
  })
  /** A process's limiters, once their connection is up (before, they count in memory). */
  const limitersOf = async (prefix: string) => {
    const redis = connectRedis({ url: redisUrl!, prefix })
    handles.push(redis)
    const make = redisLimiters(redis, logged().log)
    const probe = make({ keyPrefix: 'probe', points: 1000, duration: 60 })
    await waitFor(
      async () => {
        await probe.consume('up')
        return redis.client.exists(redis.key('limit', 'probe', 'up'))
      },
      { what: 'the limiters to reach Redis', timeoutMs: 2000, intervalMs: 10 },
    )
    return make
  }

  test('two processes on one prefix count once; another installation (prefix) counts apart', async () => {
    const mine = redisPrefix()
    const theirs = redisPrefix()
    prefixes.push(mine, theirs)
    const spec = { keyPrefix: 'alerts', points: 4, duration: 60 }
    const [one, two] = [(await limitersOf(mine.prefix))(spec), (await limitersOf(mine.prefix))(spec)]
    await one.consume('vendor-1')
    await two.consume('vendor-1')
    await one.consume('vendor-1')
    assert.equal(await allowed(two, 'vendor-1', 10), 1, 'the fourth, counted across both')
    await assert.rejects(one.consume('vendor-1'), RateLimiterRes)
    assert.equal(await allowed((await limitersOf(theirs.prefix))(spec), 'vendor-1', 10), 4)
    // Another limiter (what is counted) under the same prefix is apart too.
    assert.equal(
      await allowed((await limitersOf(mine.prefix))({ ...spec, keyPrefix: 'access-tokens' }), 'vendor-1', 10),
      4,
    )
  })
})
