// One PSA connection's limiter, on its own: calls in flight per endpoint, a pause after a 429, a
// breaker that stops calling a PSA that keeps failing (and lets one call through after a growing
// pause), and a caller that gives up while waiting for a slot.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import type { PsaFailure, PsaResult } from '../../../src/psa/adapter.js'
import { statusFailure } from '../../../src/psa/core/http.js'
import { ConnectionLimiter } from '../../../src/psa/core/limiter.js'
import { hold } from '../../support/wait.js'

const signal = () => AbortSignal.timeout(5000)
const okCall = async (): Promise<PsaResult<null>> => ({ ok: true, value: null })
const failing = (failure: PsaFailure) => async (): Promise<PsaResult<null>> => ({ ok: false, failure })
const serverError: PsaFailure = { kind: 'unavailable', retryable: true, status: 503, message: 'HTTP 503' }

describe('PSA connection limiter', () => {
  test('at most `perEndpoint` calls in flight per endpoint; other endpoints are not held up', async () => {
    const limiter = new ConnectionLimiter({ perEndpoint: 2 })
    let inFlight = 0
    let most = 0
    const slow = async (): Promise<PsaResult<null>> => {
      inFlight++
      most = Math.max(most, inFlight)
      await hold(30, 'a slow call, so that callers overlap')
      inFlight--
      return { ok: true, value: null }
    }
    await Promise.all(Array.from({ length: 7 }, () => limiter.run('tickets', signal(), slow)))
    assert.equal(most, 2)
    most = 0
    await Promise.all([
      ...Array.from({ length: 2 }, () => limiter.run('tickets', signal(), slow)),
      ...Array.from({ length: 2 }, () => limiter.run('companies', signal(), slow)),
    ])
    assert.equal(most, 4)
  })

  test('a 429 pauses the connection until its Retry-After; calls meanwhile fail at once, saying when', async () => {
    let now = 1_000_000
    const limiter = new ConnectionLimiter({ perEndpoint: 4, now: () => now })
    const limited: PsaFailure = {
      kind: 'rate-limited',
      retryable: true,
      status: 429,
      retryAfterMs: 30_000,
      message: '429',
    }
    await limiter.run('x', signal(), failing(limited))
    let called = false
    const held = await limiter.run('x', signal(), async () => {
      called = true
      return { ok: true, value: null }
    })
    assert.equal(called, false)
    assert.deepEqual(held.ok ? null : [held.failure.kind, held.failure.retryAfterMs], [
      'rate-limited',
      30_000,
    ])
    now += 30_001
    assert.ok((await limiter.run('x', signal(), okCall)).ok)
  })

  test('five failures in a row open the breaker; its pause grows; one success closes it', async () => {
    let now = 0
    const limiter = new ConnectionLimiter({ perEndpoint: 4, now: () => now })
    for (let i = 0; i < 5; i++) await limiter.run('x', signal(), failing(serverError))
    const open = await limiter.run('x', signal(), okCall)
    assert.deepEqual(open.ok ? null : [open.failure.kind, open.failure.retryAfterMs], ['unavailable', 5_000])
    now += 5_001
    await limiter.run('x', signal(), failing(serverError)) // the trial call fails: a longer pause
    const longer = await limiter.run('x', signal(), okCall)
    assert.equal(longer.ok ? null : longer.failure.retryAfterMs, 10_000)
    now += 10_001
    assert.ok((await limiter.run('x', signal(), okCall)).ok)
    assert.ok((await limiter.run('x', signal(), okCall)).ok, 'closed again')
  })

  test('refusals that are not the PSA failing (auth, 4xx) do not count toward the breaker', async () => {
    const limiter = new ConnectionLimiter({ perEndpoint: 4 })
    const refused: PsaFailure = { kind: 'rejected', retryable: false, status: 400, message: 'bad' }
    for (let i = 0; i < 10; i++) await limiter.run('x', signal(), failing(refused))
    assert.ok((await limiter.run('x', signal(), okCall)).ok)
  })

  test('a caller whose budget runs out while waiting for a slot gets a retryable timeout', async () => {
    const limiter = new ConnectionLimiter({ perEndpoint: 1 })
    const blocker = limiter.run('x', signal(), async () => {
      await hold(200, 'a call holding the only slot past the waiting caller’s budget')
      return { ok: true, value: null }
    })
    const started = Date.now()
    const waiting = await limiter.run('x', AbortSignal.timeout(50), okCall)
    assert.deepEqual(waiting.ok ? null : [waiting.failure.kind, waiting.failure.retryable], ['timeout', true])
    assert.ok(Date.now() - started < 150, 'answered when its budget ran out, not when the slot freed')
    await blocker
  })

  test('an hourly budget is kept: beyond it, calls fail at once until the hour frees room', async () => {
    const limiter = new ConnectionLimiter({ perEndpoint: 4, hourlyBudget: 3 })
    for (let i = 0; i < 3; i++) assert.ok((await limiter.run('x', signal(), okCall)).ok)
    const spent = await limiter.run('x', signal(), okCall)
    assert.equal(spent.ok ? null : spent.failure.kind, 'rate-limited')
    assert.ok((spent.ok ? 0 : (spent.failure.retryAfterMs ?? 0)) > 3_500_000)
    assert.equal(await limiter.budgetUsed(), 3)
  })

  test('share: how full the fullest budget is (connection, endpoint, shared), 0 without budgets', async () => {
    assert.equal(await new ConnectionLimiter({ perEndpoint: 2 }).share(), 0)
    const hourly = new ConnectionLimiter({ perEndpoint: 2, hourlyBudget: 10 })
    assert.equal(await hourly.share(), 0)
    for (let i = 0; i < 8; i++) await hourly.run('tickets', signal(), okCall)
    assert.equal(await hourly.share(), 0.8)
    for (let i = 0; i < 5; i++) await hourly.run('tickets', signal(), okCall)
    assert.equal(await hourly.share(), 1, 'refused calls never make it more than full')
    const perEndpoint = new ConnectionLimiter({
      perEndpoint: 2,
      budgets: [{ points: 4, perSeconds: 3600, per: 'endpoint' }],
    })
    await perEndpoint.run('tickets', signal(), okCall)
    for (let i = 0; i < 3; i++) await perEndpoint.run('notes', signal(), okCall)
    assert.equal(await perEndpoint.share(), 0.75, 'the fullest endpoint')
    const shared = new RateLimiterMemory({ points: 5, duration: 60 })
    const sharing = new ConnectionLimiter({
      perEndpoint: 2,
      shared: [{ limiter: shared, key: 'egress', label: 'the shared budget' }],
    })
    await shared.consume('egress', 2)
    await sharing.run('tickets', signal(), okCall)
    assert.equal(await sharing.share(), 0.6, 'calls of other connections count in a shared budget')
  })

  test('a budget per endpoint: one endpoint spent does not hold up another; a minute budget says so', async () => {
    const limiter = new ConnectionLimiter({
      perEndpoint: 4,
      budgets: [
        { points: 2, perSeconds: 3600, per: 'endpoint' },
        { points: 3, perSeconds: 60, per: 'connection' },
      ],
    })
    for (let i = 0; i < 2; i++) assert.ok((await limiter.run('tickets', signal(), okCall)).ok)
    const spent = await limiter.run('tickets', signal(), okCall)
    assert.equal(spent.ok ? null : spent.failure.kind, 'rate-limited')
    assert.match(spent.ok ? '' : spent.failure.message, /2 requests per hour for tickets/)
    assert.ok((await limiter.run('accounts', signal(), okCall)).ok, 'another endpoint has its own budget')
    const minute = await limiter.run('queues', signal(), okCall)
    assert.match(minute.ok ? '' : minute.failure.message, /3 requests per minute/)
    const wait = minute.ok ? 0 : (minute.failure.retryAfterMs ?? 0)
    assert.ok(wait > 50_000 && wait <= 60_000, `waits for the minute to free room (${wait} ms)`)
  })
  test('a wait the PSA asked for (429 or 503 with Retry-After) is throttled: paused, never counted toward the breaker', async () => {
    const asked = statusFailure(429, 'slow down', '2', 60_000)
    assert.deepEqual([asked.kind, asked.throttled, asked.retryAfterMs], ['rate-limited', true, 2000])
    const guessed = statusFailure(429, 'slow down', null, 60_000)
    assert.deepEqual([guessed.throttled, guessed.retryAfterMs], [undefined, 60_000])
    const busy = statusFailure(503, 'maintenance', '3', 60_000)
    assert.deepEqual([busy.kind, busy.throttled, busy.retryAfterMs], ['unavailable', true, 3000])
    assert.equal(statusFailure(503, 'down', null, 60_000).throttled, undefined)

    let now = 1_000_000
    const limiter = new ConnectionLimiter({
      perEndpoint: 4,
      breaker: { failures: 2, firstPauseMs: 60_000, maxPauseMs: 60_000 },
      now: () => now,
    })
    for (let i = 0; i < 3; i++) {
      await limiter.run('x', signal(), failing(busy))
      const held = await limiter.run('x', signal(), okCall)
      assert.deepEqual(held.ok ? null : [held.failure.throttled, held.failure.retryAfterMs], [true, 3000])
      now += 3001
    }
    assert.ok((await limiter.run('x', signal(), okCall)).ok, 'three throttles did not open the breaker')
    // A bare 429 pauses for the PSA's usual time, but the pause is a guess: not throttled.
    await limiter.run('x', signal(), failing(guessed))
    const held = await limiter.run('x', signal(), okCall)
    assert.equal(held.ok ? null : held.failure.throttled, undefined)
  })

  test('a shared budget is spent by every connection that shares it; past it, calls are throttled', async () => {
    const shared = new RateLimiterMemory({ points: 3, duration: 60 })
    const budget = { limiter: shared, key: 'host|egress', label: "the host's 3 requests a minute" }
    const a = new ConnectionLimiter({ perEndpoint: 4, shared: [budget] })
    const b = new ConnectionLimiter({ perEndpoint: 4, shared: [budget] })
    assert.ok((await a.run('x', signal(), okCall)).ok)
    assert.ok((await b.run('x', signal(), okCall)).ok)
    assert.ok((await a.run('x', signal(), okCall)).ok)
    const spent = await b.run('x', signal(), okCall)
    assert.equal(spent.ok, false)
    const f = spent.ok ? null : spent.failure
    assert.deepEqual([f?.kind, f?.throttled], ['rate-limited', true])
    assert.ok((f?.retryAfterMs ?? 0) > 0)
    assert.match(f?.message ?? '', /3 requests a minute/)
  })

  test("two-way sync's reads spend only what alerts leave: half of each budget, the due read up to 95%", async () => {
    const limiter = new ConnectionLimiter({
      perEndpoint: 4,
      budgets: [{ points: 20, perSeconds: 60, per: 'connection' }],
    })
    let made = 0
    const counted = async (): Promise<PsaResult<null>> => {
      made++
      return { ok: true, value: null }
    }
    for (let i = 0; i < 9; i++) assert.ok((await limiter.run('x', signal(), counted, 'sync')).ok)
    assert.ok((await limiter.run('x', signal(), counted, 'sync')).ok, 'the tenth call fills half')
    const held = await limiter.run('x', signal(), counted, 'sync')
    assert.equal(made, 10, 'a held read reaches nothing')
    const f = held.ok ? null : held.failure
    assert.deepEqual([f?.kind, f?.throttled], ['rate-limited', true])
    assert.ok((f?.retryAfterMs ?? 0) > 50_000, 'it waits for the window to free room')
    assert.match(
      f?.message ?? '',
      /leaves the rest of the budget of 20 requests per minute to alerts \(50% used\)/,
    )
    // An alert's call goes on past half; the due read until 95%; alerts keep the last of it.
    for (let i = 0; i < 8; i++) assert.ok((await limiter.run('x', signal(), counted)).ok)
    assert.ok((await limiter.run('x', signal(), counted, 'sync-due')).ok, '18 of 20 used: below 95%')
    assert.equal((await limiter.run('x', signal(), counted, 'sync-due')).ok, false, '19 of 20: held')
    assert.ok((await limiter.run('x', signal(), counted)).ok, 'the last call is an alert’s')
    assert.equal(made, 20)
    assert.equal(await limiter.share(), 1)
  })

  test('sync reads hold back on the fullest budget: an endpoint of its own, or one shared with others', async () => {
    const perEndpoint = new ConnectionLimiter({
      perEndpoint: 4,
      budgets: [{ points: 4, perSeconds: 3600, per: 'endpoint' }],
    })
    for (let i = 0; i < 2; i++) await perEndpoint.run('tickets', signal(), okCall)
    assert.equal((await perEndpoint.run('tickets', signal(), okCall, 'sync')).ok, false)
    assert.ok((await perEndpoint.run('notes', signal(), okCall, 'sync')).ok, 'another endpoint has room')
    const shared = new RateLimiterMemory({ points: 10, duration: 60 })
    const sharing = new ConnectionLimiter({
      perEndpoint: 4,
      shared: [{ limiter: shared, key: 'egress', label: "Syncro's 10 requests a minute from this address" }],
    })
    await shared.consume('egress', 5)
    const held = await sharing.run('x', signal(), okCall, 'sync')
    assert.match(held.ok ? '' : held.failure.message, /Syncro's 10 requests a minute from this address/)
    assert.ok((await sharing.run('x', signal(), okCall)).ok, 'an alert still goes')
    // Without budgets (the sandbox) nothing holds a sync read back.
    assert.ok((await new ConnectionLimiter({ perEndpoint: 1 }).run('x', signal(), okCall, 'sync')).ok)
  })
})
