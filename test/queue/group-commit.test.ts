// GroupCommit batches durable writes: submits made in the same tick share one commit call, submits
// that arrive while a commit runs wait for the next one (never a second commit in parallel), batches
// never exceed maxBatch, a failed batch is retried item by item so only the bad item rejects, and an
// idle submit commits alone. The commit function is a stub that records every call it receives.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { GroupCommit } from '../../src/queue/group-commit.js'

/** One turn of the event loop: GroupCommit starts a batch on the next turn (setImmediate). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

interface Gate {
  /** Resolves once a commit call is waiting on the gate. */
  entered: Promise<void>
  open(): void
}

/** A commit stub that records its batches, can hold a call at a gate, and fails on chosen items. */
function recorder<T>(options: { maxBatch?: number; failsOn?: (item: T) => boolean } = {}) {
  const calls: T[][] = []
  let inFlight = 0
  let maxInFlight = 0
  let gate: { wait: Promise<void>; enter: () => void } | null = null
  const errors = new Map<T, Error>()
  const commit = async (items: T[]) => {
    calls.push([...items])
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    try {
      const held = gate
      if (held) {
        gate = null
        held.enter()
        await held.wait
      }
      const bad = items.find((i) => options.failsOn?.(i))
      if (bad !== undefined) {
        const err = errors.get(bad) ?? new Error(`cannot commit ${String(bad)}`)
        errors.set(bad, err)
        throw err
      }
    } finally {
      inFlight--
    }
  }
  return {
    group: new GroupCommit<T>(commit, options.maxBatch),
    calls,
    errors,
    maxInFlight: () => maxInFlight,
    /** Holds the next commit call until `open()`. */
    hold(): Gate {
      let enter!: () => void
      let open!: () => void
      const entered = new Promise<void>((r) => {
        enter = r
      })
      const wait = new Promise<void>((r) => {
        open = r
      })
      gate = { wait, enter }
      return { entered, open }
    },
  }
}

describe('GroupCommit', () => {
  test('submits in the same tick share one commit call', async () => {
    const r = recorder<number>()
    const done = Promise.all([1, 2, 3, 4, 5].map((n) => r.group.submit(n)))
    assert.equal(r.calls.length, 0, 'the batch starts on the next turn, not inside submit')
    await done
    assert.deepEqual(r.calls, [[1, 2, 3, 4, 5]])
  })

  test('an idle single submit commits alone, and each later idle submit gets its own commit', async () => {
    const r = recorder<string>()
    await r.group.submit('a')
    assert.deepEqual(r.calls, [['a']])
    await r.group.submit('b')
    assert.deepEqual(r.calls, [['a'], ['b']])
  })

  test('submits arriving while a commit runs go into the next batch, never a parallel commit', async () => {
    const r = recorder<number>()
    const gate = r.hold()
    const first = r.group.submit(1)
    await gate.entered
    let laterSettled = false
    const later = Promise.all([r.group.submit(2), r.group.submit(3), r.group.submit(4)]).then(() => {
      laterSettled = true
    })
    // Give a commit for the later items every chance to start early.
    await nextTurn()
    await nextTurn()
    assert.deepEqual(r.calls, [[1]], 'nothing else commits while the first batch is running')
    assert.equal(laterSettled, false)
    gate.open()
    await Promise.all([first, later])
    assert.deepEqual(r.calls, [[1], [2, 3, 4]])
    assert.equal(r.maxInFlight(), 1)
  })

  test('a submit waits for its own batch: it does not resolve with the batch running when it arrived', async () => {
    const r = recorder<number>()
    const gate = r.hold()
    const first = r.group.submit(1)
    await gate.entered
    const secondGate = r.hold()
    let secondSettled = false
    const second = r.group.submit(2).then(() => {
      secondSettled = true
    })
    gate.open()
    await first
    await secondGate.entered
    assert.equal(secondSettled, false, 'item 2 is still committing')
    secondGate.open()
    await second
    assert.equal(secondSettled, true)
    assert.deepEqual(r.calls, [[1], [2]])
  })

  test('maxBatch is respected: a burst is split into batches of at most maxBatch, in order', async () => {
    const r = recorder<number>({ maxBatch: 3 })
    await Promise.all([0, 1, 2, 3, 4, 5, 6].map((n) => r.group.submit(n)))
    assert.deepEqual(r.calls, [[0, 1, 2], [3, 4, 5], [6]])
    assert.equal(r.maxInFlight(), 1)
  })

  test('the default maxBatch is 256', async () => {
    const r = recorder<number>()
    const items = Array.from({ length: 300 }, (_, i) => i)
    await Promise.all(items.map((n) => r.group.submit(n)))
    assert.deepEqual(
      r.calls.map((c) => c.length),
      [256, 44],
    )
    assert.deepEqual(r.calls.flat(), items)
  })

  test('a failed batch is retried one by one: only the bad item rejects, the others resolve', async () => {
    const r = recorder<string>({ failsOn: (i) => i === 'bad' })
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((i) => r.group.submit(i)))
    assert.deepEqual(r.calls, [['a', 'bad', 'c'], ['a'], ['bad'], ['c']])
    assert.equal(results[0]?.status, 'fulfilled')
    assert.equal(results[2]?.status, 'fulfilled')
    assert.equal(results[1]?.status, 'rejected')
    assert.equal(
      (results[1] as PromiseRejectedResult).reason,
      r.errors.get('bad'),
      'the bad item rejects with its own error',
    )
  })

  test('a single item that fails is rejected without a retry, and the group keeps working', async () => {
    const r = recorder<string>({ failsOn: (i) => i === 'bad' })
    await assert.rejects(r.group.submit('bad'), /cannot commit bad/)
    assert.deepEqual(r.calls, [['bad']])
    await r.group.submit('good')
    assert.deepEqual(r.calls, [['bad'], ['good']])
  })

  test('a failure in one batch does not hold back the batch after it', async () => {
    const r = recorder<string>({ maxBatch: 2, failsOn: (i) => i === 'bad' })
    const results = await Promise.allSettled(['bad', 'x', 'y', 'z'].map((i) => r.group.submit(i)))
    assert.deepEqual(
      results.map((s) => s.status),
      ['rejected', 'fulfilled', 'fulfilled', 'fulfilled'],
    )
    assert.deepEqual(r.calls, [['bad', 'x'], ['bad'], ['x'], ['y', 'z']])
  })
})
