// Syncro's 180 requests a minute are counted per client address (docs/psa/syncro.md, "Limits"): every
// partner whose calls leave through one alertbridge address shares them. Here, with a small budget: two
// partners' connections to one Syncro share it (another Syncro has its own); a 429 pauses every
// connection of the process to that Syncro and, Syncro naming no wait, spends the minute for the other
// processes too; and, with TEST_REDIS_URL, two processes (two adapters on their own Redis connections)
// count once per egress address, while another egress counts apart, and one process's sync reads hold
// back on what the other's alerts spent.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import { connectRedis, type RedisHandle } from '../../../src/platform/redis/connect.js'
import { type LimiterFactory, redisLimiters } from '../../../src/platform/redis/limiters.js'
import type { PsaOperations, PsaResult } from '../../../src/psa/adapter.js'
import type { PsaKindOptions } from '../../../src/psa/core/http.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { type SyncroTuning, syncroPsa } from '../../../src/psa/syncro/adapter.js'
import { serviceOf } from '../../../src/psa/syncro/limits.js'
import { redisPrefix } from '../../support/service.js'
import type { StartedSim } from '../../support/sims/harness.js'
import { type SyncroState, startSyncroSim } from '../../support/sims/syncro/server.js'
import { waitFor } from '../../support/wait.js'

const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })

/** One process's Syncro kind: its registry, and a client per partner connecting through it. */
function process_(options: Partial<PsaKindOptions> = {}, tuning: SyncroTuning = {}) {
  const registry = new PsaRegistry([syncroPsa({ http, ...options }, tuning)])
  return (sim: StartedSim<SyncroState>, partnerId: string): PsaOperations => {
    const c = registry.connect(partnerId, {
      kind: 'syncro',
      settings: { baseUrl: sim.url, apiToken: 'syncro-api-token' },
    })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
}

/** One Syncro call (the statuses list, read afresh every time). */
const oneCall = (client: PsaOperations) => client.lookup('statuses', {}, call())

async function calls(client: PsaOperations, n: number): Promise<PsaResult<unknown>[]> {
  const out = []
  for (let i = 0; i < n; i++) out.push(await oneCall(client))
  return out
}

const failureOf = (r: PsaResult<unknown> | undefined) => (r && !r.ok ? r.failure : null)

/** Limiters that every "process" of a test shares, as Redis would have them shared: one per keyPrefix. */
function sharedInMemory(): LimiterFactory {
  const made = new Map<string, RateLimiterMemory>()
  return (spec) => {
    let l = made.get(spec.keyPrefix)
    if (!l) {
      l = new RateLimiterMemory(spec)
      made.set(spec.keyPrefix, l)
    }
    return l
  }
}

describe('Syncro: one budget per address', () => {
  let sim: StartedSim<SyncroState>
  let other: StartedSim<SyncroState>
  before(async () => {
    sim = await startSyncroSim({ tickets: 0 })
    other = await startSyncroSim({ tickets: 0 })
  })
  after(async () => {
    await sim.close()
    await other.close()
  })

  test('every syncromsp.com account is one Syncro; any other root is its own', () => {
    assert.equal(serviceOf('https://acme.syncromsp.com'), 'syncromsp.com')
    assert.equal(serviceOf('https://Other.SyncroMSP.com'), 'syncromsp.com')
    assert.equal(serviceOf('http://127.0.0.1:9105'), '127.0.0.1:9105')
    assert.equal(serviceOf('https://syncromsp.com.evil.example'), 'syncromsp.com.evil.example')
  })

  test("two partners' connections to one Syncro share its budget; another Syncro has its own", async () => {
    const connect = process_({}, { perMinute: 10 })
    const a = connect(sim, 'p-a')
    const b = connect(sim, 'p-b')
    assert.ok((await calls(a, 6)).every((r) => r.ok))
    const ofB = await calls(b, 5)
    assert.equal(ofB.filter((r) => r.ok).length, 4, 'the rest of the ten')
    const held = failureOf(ofB[4])
    assert.deepEqual([held?.kind, held?.retryable, held?.throttled], ['rate-limited', true, true])
    assert.match(held?.message ?? '', /Syncro's 10 requests a minute from this address are spent/)
    assert.ok((held?.retryAfterMs ?? 0) > 0 && (held?.retryAfterMs ?? 0) <= 60_000)
    assert.equal(sim.calls.length, 10, 'the held call never reached Syncro')
    assert.ok((await oneCall(connect(other, 'p-c'))).ok, 'another Syncro is not held back')
  })

  test('a 429 (no wait named) pauses every connection to that Syncro and spends the minute for every process', async () => {
    const limited = await startSyncroSim({ tickets: 0, perMinute: 3 })
    try {
      const limiters = sharedInMemory()
      const connect = process_({ limiters, egress: 'office' })
      const a = connect(limited, 'p-429-a')
      assert.ok((await calls(a, 3)).every((r) => r.ok))
      const refused = failureOf(await oneCall(a))
      assert.deepEqual([refused?.kind, refused?.status, refused?.retryAfterMs], ['rate-limited', 429, 60_000])
      const sent = limited.calls.length
      const b = failureOf(await oneCall(connect(limited, 'p-429-b')))
      assert.equal(b?.kind, 'rate-limited', 'another partner of this process waits too')
      assert.ok((b?.retryAfterMs ?? 0) > 55_000, `${b?.retryAfterMs}`)
      assert.equal(b?.throttled, undefined, 'a guessed wait, not one Syncro asked for')
      // Another process (sharing the limiters as Redis would) finds the minute spent.
      const elsewhere = failureOf(await oneCall(process_({ limiters, egress: 'office' })(limited, 'p-429-c')))
      assert.match(elsewhere?.message ?? '', /requests a minute from this address are spent/)
      assert.equal(limited.calls.length, sent, 'nothing reached Syncro meanwhile')
      // A process with another egress address is not held back by this one's count.
      limited.state.rate.windows = {}
      assert.ok((await oneCall(process_({ limiters, egress: 'branch' })(limited, 'p-429-d'))).ok)
    } finally {
      await limited.close()
    }
  })

  test('a 429 with Retry-After: every connection of the process waits what Syncro asked, as a throttle', async () => {
    const limited = await startSyncroSim({ tickets: 0, perMinute: 2, retryAfterSeconds: 7 })
    try {
      const connect = process_()
      const a = connect(limited, 'p-ra-a')
      assert.ok((await calls(a, 2)).every((r) => r.ok))
      const refused = failureOf(await oneCall(a))
      assert.deepEqual([refused?.status, refused?.retryAfterMs, refused?.throttled], [429, 7000, true])
      const sent = limited.calls.length
      const b = failureOf(await oneCall(connect(limited, 'p-ra-b')))
      assert.deepEqual([b?.kind, b?.throttled], ['rate-limited', true])
      assert.ok((b?.retryAfterMs ?? 0) > 6000 && (b?.retryAfterMs ?? 0) <= 7000, `${b?.retryAfterMs}`)
      assert.equal(limited.calls.length, sent)
    } finally {
      await limited.close()
    }
  })
})

const redisUrl = process.env.TEST_REDIS_URL
describe('Syncro: one budget per address across processes (Redis)', {
  skip: redisUrl ? false : 'needs TEST_REDIS_URL',
}, () => {
  const handles: RedisHandle[] = []
  const prefix = redisPrefix()
  let sim: StartedSim<SyncroState>
  before(async () => {
    sim = await startSyncroSim({ tickets: 0 })
  })
  after(async () => {
    await sim.close()
    for (const h of handles) await h.close()
    await prefix.drop()
  })
  const quiet = pino(
    { level: 'warn' },
    new Writable({
      write: (_c, _e, done) => done(),
    }),
  )
  /** A process's limiters, once their own Redis connection is up (before, they count in memory). */
  const limitersOf = async () => {
    const redis = connectRedis({ url: redisUrl!, prefix: prefix.prefix })
    handles.push(redis)
    const make = redisLimiters(redis, quiet)
    const probe = make({ keyPrefix: 'probe', points: 1000, duration: 60 })
    // A key of this process's own: another process's probe having reached Redis says nothing of this one.
    const up = `up-${handles.length}`
    await waitFor(
      async () => {
        await probe.consume(up)
        return redis.client.exists(redis.key('limit', 'probe', up))
      },
      { what: 'the limiters to reach Redis', timeoutMs: 2000, intervalMs: 10 },
    )
    return make
  }

  test('two processes with one egress name share the 10; a process with another egress counts apart', async () => {
    const one = process_({ limiters: await limitersOf(), egress: 'office' }, { perMinute: 10 })
    const two = process_({ limiters: await limitersOf(), egress: 'office' }, { perMinute: 10 })
    assert.ok((await calls(one(sim, 'p-r1'), 7)).every((r) => r.ok))
    const ofTwo = await calls(two(sim, 'p-r2'), 4)
    assert.equal(ofTwo.filter((r) => r.ok).length, 3, 'the rest of the ten, counted in Redis')
    assert.match(
      failureOf(ofTwo[3])?.message ?? '',
      /Syncro's 10 requests a minute from this address are spent/,
    )
    assert.equal(sim.calls.length, 10)
    const branch = process_({ limiters: await limitersOf(), egress: 'branch' }, { perMinute: 10 })
    assert.ok((await oneCall(branch(sim, 'p-r3'))).ok)
  })

  test("one process's alerts fill half the shared 10: another process's sync reads hold back, its alerts go", async () => {
    const one = process_({ limiters: await limitersOf(), egress: 'hq' }, { perMinute: 10 })
    const two = process_({ limiters: await limitersOf(), egress: 'hq' }, { perMinute: 10 })
    const reader = two(sim, 'p-h2')
    // The poll's read of a ticket it tracks (whether Syncro has it does not matter here: only whether
    // the read is made).
    const syncRead = () => reader.readTickets(['4242'], { ...call(), spend: 'sync' })
    const start = sim.calls.length
    await syncRead()
    assert.equal(sim.calls.length, start + 1, 'below half, a sync read is made')
    assert.ok((await calls(one(sim, 'p-h1'), 4)).every((r) => r.ok))
    const reached = sim.calls.length
    const held = failureOf(await syncRead())
    assert.deepEqual([held?.kind, held?.retryable, held?.throttled], ['rate-limited', true, true])
    assert.match(
      held?.message ?? '',
      /two-way sync leaves the rest of Syncro's 10 requests a minute from this address to alerts \(50% used\)/,
    )
    assert.ok((held?.retryAfterMs ?? 0) > 0 && (held?.retryAfterMs ?? 0) <= 60_000, `${held?.retryAfterMs}`)
    assert.equal(sim.calls.length, reached, 'the held read reached nothing')
    assert.ok((await oneCall(reader)).ok, "the other process's alert call still goes")
    assert.equal(sim.calls.length, reached + 1)
  })
})
