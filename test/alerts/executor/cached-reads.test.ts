// The intake's configuration cache (alerts/executor/cached-reads.ts): a clear that lands while a read is loading (a
// configuration notice from another process: docs/decisions/scale-out/configuration-notices.md) must not
// fail that read; the read answers what it loads, and the next read loads again.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { CachedReads } from '../../../src/alerts/executor/cached-reads.js'
import type { Store } from '../../../src/platform/db/store.js'

describe('the intake cache', () => {
  test('a clear during a load: the load still answers, and is not kept', async () => {
    let loads = 0
    const pending: ((v: unknown) => void)[] = []
    const store = {
      vendors: {
        findByClientId: (clientId: string) => {
          loads++
          return new Promise((resolve) => pending.push(() => resolve({ id: `v-${clientId}`, loads })))
        },
      },
    } as unknown as Store
    const reads = new CachedReads(store, 60_000)
    const first = reads.vendors.findByClientId('c1')
    await new Promise((r) => setImmediate(r))
    reads.clear()
    // The aborted shared load is read afresh for the caller: a second load starts.
    await new Promise((r) => setImmediate(r))
    for (const resolve of pending.splice(0)) resolve(undefined)
    const vendor = (await first) as unknown as { id: string }
    assert.equal(vendor.id, 'v-c1')
    const again = reads.vendors.findByClientId('c1')
    await new Promise((r) => setImmediate(r))
    for (const resolve of pending.splice(0)) resolve(undefined)
    await again
    assert.equal(
      loads,
      3,
      'loaded, aborted and loaded afresh, then loaded again (nothing kept across the clear)',
    )
  })

  test('a failed load without a clear fails the read', async () => {
    const store = {
      vendors: { findByClientId: async () => Promise.reject(new Error('database down')) },
    } as unknown as Store
    const reads = new CachedReads(store, 60_000)
    await assert.rejects(reads.vendors.findByClientId('c1'), /database down/)
  })
})
