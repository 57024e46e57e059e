// Wakeup, the sleep of the job runner and the queue relay: a wake that came before the wait is not lost
// (the wait returns at once, and only once), a wait otherwise lasts its timeout, and a wake during a
// wait ends it early. Timers are node:test mock timers, so nothing here sleeps or depends on speed.
import assert from 'node:assert/strict'
import { describe, type TestContext, test } from 'node:test'
import { Wakeup } from '../../../src/platform/queue/wakeup.js'

/** Lets promise callbacks run (setImmediate is not mocked: only setTimeout is). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Watches a promise so a test can ask whether it has settled yet. */
function watch(p: Promise<void>): { settled: () => Promise<boolean> } {
  let done = false
  void p.then(() => {
    done = true
  })
  return {
    async settled() {
      await nextTurn()
      return done
    },
  }
}

function mockTimers(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout'] })
  return t.mock.timers
}

describe('Wakeup', () => {
  test('a wake before the wait makes the wait resolve at once', async (t) => {
    mockTimers(t)
    const w = new Wakeup()
    w.wake()
    const p = watch(w.wait(60_000))
    assert.equal(await p.settled(), true, 'resolved without any time passing')
  })

  test('a remembered wake is used up by one wait; several wakes count as one', async (t) => {
    const timers = mockTimers(t)
    const w = new Wakeup()
    w.wake()
    w.wake()
    assert.equal(await watch(w.wait(1000)).settled(), true)
    const second = watch(w.wait(1000))
    assert.equal(await second.settled(), false, 'the second wait sleeps')
    timers.tick(1000)
    assert.equal(await second.settled(), true)
  })

  test('without a wake, the wait resolves after its timeout and not before', async (t) => {
    const timers = mockTimers(t)
    const w = new Wakeup()
    const p = watch(w.wait(1000))
    assert.equal(await p.settled(), false)
    timers.tick(999)
    assert.equal(await p.settled(), false, 'still asleep 1 ms before the timeout')
    timers.tick(1)
    assert.equal(await p.settled(), true)
  })

  test('a negative timeout (a job already due) is a wait of zero', async (t) => {
    const timers = mockTimers(t)
    const w = new Wakeup()
    const p = watch(w.wait(-500))
    timers.tick(0)
    assert.equal(await p.settled(), true)
  })

  test('a wake during a wait resolves it early, and is not remembered for the next wait', async (t) => {
    const timers = mockTimers(t)
    const w = new Wakeup()
    const p = watch(w.wait(10_000))
    timers.tick(10)
    assert.equal(await p.settled(), false)
    w.wake()
    assert.equal(await p.settled(), true, 'resolved long before its timeout')
    const next = watch(w.wait(10_000))
    assert.equal(await next.settled(), false, 'the wake was used by the wait it ended')
    // The first wait's timer was cleared: its old deadline neither ends the second wait nor
    // detaches it, so a wake still reaches the second wait.
    timers.tick(9_990)
    assert.equal(await next.settled(), false)
    w.wake()
    assert.equal(await next.settled(), true)
  })

  test('after a wait ended by its timeout, a later wake is remembered for the next wait', async (t) => {
    const timers = mockTimers(t)
    const w = new Wakeup()
    const p = watch(w.wait(100))
    timers.tick(100)
    assert.equal(await p.settled(), true)
    w.wake()
    assert.equal(await watch(w.wait(100)).settled(), true)
  })
})
