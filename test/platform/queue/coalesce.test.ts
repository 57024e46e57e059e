// Jobs added before their write runs share it (platform/queue/coalesce.ts): every caller's promise settles with
// it, adds made once it has started go to the next write, and a failed write fails its callers only.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { coalescedAdd } from '../../../src/platform/queue/coalesce.js'
import type { NewJob } from '../../../src/platform/queue/port.js'

const job = (id: string): NewJob => ({ id, kind: 'echo', payload: {} })
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('adds coalesced until their write runs', () => {
  test('adds before the write runs share it; an add after it started gets the next one', async () => {
    const writes: string[][] = []
    // A write that runs a turn later and takes a turn to commit, as a batched write does.
    const add = coalescedAdd(async (take) => {
      await turn()
      const jobs = take().map((j) => j.id)
      await turn()
      writes.push(jobs)
    })
    const first = [add([job('a')]), add([job('b'), job('c')])]
    await turn() // the write has taken a, b and c and is committing
    const late = add([job('d')])
    await Promise.all([...first, late])
    assert.deepEqual(writes, [['a', 'b', 'c'], ['d']])
  })

  test('a failed write fails every add of its group, and only those', async () => {
    let calls = 0
    const add = coalescedAdd(async (take) => {
      await turn()
      take()
      if (++calls === 1) throw new Error('disk full')
    })
    const results = await Promise.allSettled([add([job('a')]), add([job('b')])])
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    )
    await add([job('c')])
    assert.equal(calls, 2)
  })
})
