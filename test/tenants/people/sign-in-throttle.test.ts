// The sign-in throttle on its own (src/tenants/people/sign-in-throttle.ts, in memory): failures make the
// failing address wait longer each time for that email, never another address; an address failing
// across emails is stopped; a success clears the pair and gives its attempt back; the password is not
// checked while waiting; attempts sent together cannot all pass.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { maxWaitSeconds, SignInThrottle, waitAfter } from '../../../src/tenants/people/sign-in-throttle.js'
import { hold } from '../../support/wait.js'

const right = async () => true
const wrong = async () => false

describe('the sign-in throttle', () => {
  test('the wait doubles after the free failures, from 1 s up to 15 minutes', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => waitAfter(n, 2)),
      [0, 0, 1, 2, 4, 8, 16],
    )
    assert.equal(waitAfter(12, 2), 512)
    assert.equal(waitAfter(13, 2), maxWaitSeconds)
    assert.equal(waitAfter(5000, 2), maxWaitSeconds)
  })

  test('an address that failed waits, and its password is not checked; another address is never held back', async () => {
    const throttle = new SignInThrottle({ failuresPerEmail: 1, failuresPerIp: 100 })
    assert.deepEqual(await throttle.attempt('owner@msp.example', 'A', wrong), {
      refused: false,
      passed: false,
    })
    assert.deepEqual(await throttle.attempt('owner@msp.example', 'A', wrong), {
      refused: false,
      passed: false,
    })
    let checked = false
    const refused = await throttle.attempt('owner@msp.example', 'A', async () => {
      checked = true
      return true
    })
    assert.equal(refused.refused, true)
    assert.equal(refused.refused && refused.retryAfter, 1)
    assert.equal(refused.refused && refused.why, 'pair')
    assert.equal(checked, false, 'the password is not checked while the pair waits')
    assert.deepEqual(await throttle.attempt('owner@msp.example', 'B', right), {
      refused: false,
      passed: true,
    })
    // A's other emails are not held back by this pair.
    assert.deepEqual(await throttle.attempt('other@msp.example', 'A', right), {
      refused: false,
      passed: true,
    })
  })

  test('the wait grows with each failure after it, and a success clears it', async () => {
    const throttle = new SignInThrottle({ failuresPerEmail: 1, failuresPerIp: 100 })
    const retry = async () => {
      const r = await throttle.attempt('u@msp.example', 'A', right)
      return r.refused ? r.retryAfter : 0
    }
    await throttle.attempt('u@msp.example', 'A', wrong)
    assert.equal(await retry(), 0, 'the first failure is free')
    // That success cleared the pair: two failures again to be made to wait.
    await throttle.attempt('u@msp.example', 'A', wrong)
    await throttle.attempt('u@msp.example', 'A', wrong)
    assert.equal(await retry(), 1)
    await hold(1100, 'the 1 s wait runs out')
    await throttle.attempt('u@msp.example', 'A', wrong)
    assert.equal(await retry(), 2)
    await hold(2100, 'the 2 s wait runs out')
    assert.equal(await retry(), 0, 'the right password once the wait is over')
    await throttle.attempt('u@msp.example', 'A', wrong)
    assert.equal(await retry(), 0, 'and the count started again')
  })

  test('an address failing over many emails is refused for any email; successes give their attempt back', async () => {
    const throttle = new SignInThrottle({ failuresPerEmail: 5, failuresPerIp: 3 })
    for (let i = 0; i < 10; i++)
      assert.equal((await throttle.attempt(`colleague${i}@msp.example`, 'office', right)).refused, false)
    for (let i = 0; i < 3; i++) await throttle.attempt(`guess${i}@msp.example`, 'A', wrong)
    const refused = await throttle.attempt('owner@msp.example', 'A', right)
    assert.equal(refused.refused && refused.why, 'address')
    assert.ok(refused.refused && refused.retryAfter > 0 && refused.retryAfter <= 3600)
    assert.equal((await throttle.attempt('owner@msp.example', 'B', right)).refused, false)
  })

  test('attempts of one pair sent together: one has its password checked, the others wait', async () => {
    const throttle = new SignInThrottle({ failuresPerEmail: 2, failuresPerIp: 1000 })
    let checks = 0
    const slowWrong = async () => {
      checks++
      await hold(20, 'a slow password check, so that the attempts overlap')
      return false
    }
    const results = await Promise.all(
      Array.from({ length: 20 }, () => throttle.attempt('u@msp.example', 'A', slowWrong)),
    )
    assert.equal(checks, 1)
    assert.equal(results.filter((r) => r.refused).length, 19)
    // Across emails, an address's attempts sent together stop at its limit.
    const spraying = new SignInThrottle({ failuresPerEmail: 5, failuresPerIp: 4 })
    checks = 0
    const sprayed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => spraying.attempt(`u${i}@msp.example`, 'A', slowWrong)),
    )
    assert.equal(checks, 4)
    assert.equal(sprayed.filter((r) => r.refused).length, 16)
  })
})
