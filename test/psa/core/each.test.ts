// eachAtMost (src/psa/core/each.ts): every item read in order, never more than the limit at once, and
// the first failure the answer, with no new reads started after it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fail, ok } from '../../../src/psa/adapter.js'
import { eachAtMost } from '../../../src/psa/core/each.js'

const tick = () => new Promise((r) => setTimeout(r, 1))

describe('eachAtMost', () => {
  test('in order, at most the limit in flight', async () => {
    let inFlight = 0
    let most = 0
    const r = await eachAtMost([1, 2, 3, 4, 5, 6, 7], 3, async (i) => {
      inFlight++
      most = Math.max(most, inFlight)
      await tick()
      inFlight--
      return ok(i * 10)
    })
    assert.deepEqual(r, { ok: true, value: [10, 20, 30, 40, 50, 60, 70] })
    assert.equal(most, 3)
  })

  test('the first failure is the answer; nothing new starts after it', async () => {
    const started: number[] = []
    const r = await eachAtMost([1, 2, 3, 4, 5, 6], 2, async (i) => {
      started.push(i)
      await tick()
      return i === 2 ? fail({ kind: 'unavailable', retryable: true, message: 'down' }) : ok(i)
    })
    assert.equal(r.ok ? null : r.failure.message, 'down')
    assert.ok(started.length < 6, `started ${started.join(',')}`)
    assert.deepEqual(await eachAtMost([], 4, async () => ok(1)), { ok: true, value: [] })
  })
})
