// The synchronous strategy's budget (src/alerts/intake/synchronous.ts): which PSA failures are tried again
// inside one request, and when a wait no longer fits.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { withinBudget } from '../../../src/alerts/intake/synchronous.js'
import type { PsaFailure } from '../../../src/psa/adapter.js'

const throttled = (retryAfterMs: number): PsaFailure => ({
  kind: 'rate-limited',
  retryable: true,
  status: 429,
  retryAfterMs,
  throttled: true,
  message: '429',
})

function policy(budgetMs: number, requestTimeoutMs = 3000) {
  let now = 0
  const slept: number[] = []
  const p = withinBudget({
    deadline: budgetMs,
    requestTimeoutMs,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms)
      now += ms
    },
  })
  return { p, slept, advance: (ms: number) => (now += ms) }
}

describe('the synchronous budget', () => {
  test('a wait the PSA asked for is waited while the next try still fits', async () => {
    const { p, slept } = policy(9000)
    assert.equal(await p.again?.(throttled(1000)), true)
    assert.equal(await p.again?.(throttled(1000)), true)
    assert.deepEqual(slept, [1000, 1000])
  })

  test('a wait that leaves the next try no time is not waited', async () => {
    const { p, slept } = policy(9000)
    assert.equal(await p.again?.(throttled(12_000)), false)
    assert.equal(await p.again?.(throttled(6500)), false, 'fits, but leaves less than a request')
    assert.deepEqual(slept, [])
  })

  test('a Retry-After below a second waits a second', async () => {
    const { p, slept } = policy(9000)
    assert.equal(await p.again?.(throttled(0)), true)
    assert.deepEqual(slept, [1000])
  })

  test('a lost answer is tried again at once, twice at most', async () => {
    const { p } = policy(30_000)
    const lost: PsaFailure = { kind: 'unreachable', retryable: true, message: 'socket closed' }
    assert.equal(await p.again?.(lost), true)
    assert.equal(await p.again?.({ ...lost, kind: 'timeout' }), true)
    assert.equal(await p.again?.(lost), false)
  })

  test('a 5xx or a refusal is answered as it is', async () => {
    const { p } = policy(30_000)
    assert.equal(
      await p.again?.({ kind: 'unavailable', retryable: true, status: 500, message: '500' }),
      false,
    )
    assert.equal(await p.again?.({ kind: 'rejected', retryable: false, status: 400, message: 'no' }), false)
  })

  test('nothing is tried once the budget is spent', async () => {
    const { p, advance } = policy(9000)
    advance(8900)
    assert.equal(await p.again?.({ kind: 'unreachable', retryable: true, message: 'reset' }), false)
  })
})
