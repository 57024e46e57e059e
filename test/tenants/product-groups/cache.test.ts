// The dynamic catalogue's cache with an injected clock and a fake vendor call: 15-minute hits,
// single-flight, the 500 ms budget, stale-if-error.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type CacheEvents,
  type FetchResult,
  ProductGroupCache,
} from '../../../src/tenants/product-groups/cache.js'
import { manualClock } from '../../support/service.js'
import { hold, waitFor } from '../../support/wait.js'

const minutes = (n: number) => n * 60 * 1000
const listA = { 'Endpoint Security': ['Malware Detected'] }
const listB = { Backup: ['Backup Failed'] }

function fakeVendor() {
  let calls = 0
  let next: () => Promise<FetchResult> = async () => ({ ok: true, groups: listA })
  return {
    fetch: () => {
      calls++
      return next()
    },
    calls: () => calls,
    answer(fn: () => Promise<FetchResult>) {
      next = fn
    },
  }
}

function recorder(): CacheEvents & { log: string[] } {
  const log: string[] = []
  return {
    log,
    fetched: (_key, r, previous, stored) =>
      log.push(`${r.ok ? 'ok' : 'error'}${previous ? ' (had a list)' : ''}${stored ? '' : ' (dropped)'}`),
    timedOut: () => log.push('timeout'),
  }
}

describe('catalogue cache', () => {
  test('a lookup within 15 minutes is a hit; after 15 minutes the vendor is called again', async () => {
    const clock = manualClock()
    const vendor = fakeVendor()
    const cache = new ProductGroupCache(clock, recorder())
    const first = await cache.lookup('i1', 'src', vendor.fetch)
    assert.equal(first.kind, 'fresh')
    clock.advance(minutes(14))
    assert.ok(cache.hit('i1', 'src'), 'a synchronous hit')
    assert.equal((await cache.lookup('i1', 'src', vendor.fetch)).kind, 'fresh')
    assert.equal(vendor.calls(), 1)
    clock.advance(minutes(1) + 1)
    assert.equal(cache.hit('i1', 'src'), null)
    vendor.answer(async () => ({ ok: true, groups: listB }))
    const refreshed = await cache.lookup('i1', 'src', vendor.fetch)
    assert.equal(vendor.calls(), 2)
    assert.equal(refreshed.kind, 'fresh')
    assert.deepEqual(refreshed.kind === 'fresh' && refreshed.list.groups, listB)
  })

  test('another integration, or another source (URL, mapping), has its own list', async () => {
    const vendor = fakeVendor()
    const cache = new ProductGroupCache(manualClock(), recorder())
    await cache.lookup('i1', 'src', vendor.fetch)
    await cache.lookup('i2', 'src', vendor.fetch)
    await cache.lookup('i1', 'other url', vendor.fetch)
    assert.equal(vendor.calls(), 3)
  })

  test('50 concurrent lookups make one vendor call', async () => {
    const vendor = fakeVendor()
    vendor.answer(async () => {
      await hold(30, 'a vendor slow enough that the lookups overlap')
      return { ok: true, groups: listA }
    })
    const cache = new ProductGroupCache(manualClock(), recorder())
    const all = await Promise.all(Array.from({ length: 50 }, () => cache.lookup('i1', 'src', vendor.fetch)))
    assert.equal(vendor.calls(), 1)
    assert.ok(all.every((l) => l.kind === 'fresh'))
  })

  test('a call slower than the budget: the caller gets no list at 500 ms, the late answer fills the cache', async () => {
    const vendor = fakeVendor()
    vendor.answer(async () => {
      await hold(700, 'a vendor slower than the 500 ms budget')
      return { ok: true, groups: listA }
    })
    const events = recorder()
    const cache = new ProductGroupCache(manualClock(), events)
    const started = performance.now()
    const lookup = await cache.lookup('i1', 'src', vendor.fetch)
    const took = performance.now() - started
    assert.equal(lookup.kind, 'none')
    assert.ok(took >= 480 && took < 650, `waited ${took} ms`)
    assert.deepEqual(events.log, ['timeout'])
    // A caller arriving while the late call is still running does not wait a second budget.
    const again = performance.now()
    assert.equal((await cache.lookup('i1', 'src', vendor.fetch)).kind, 'none')
    assert.ok(performance.now() - again < 400)
    await waitFor(() => cache.hit('i1', 'src'), { what: 'the late answer to be cached', timeoutMs: 300 })
    assert.equal(vendor.calls(), 1)
  })

  test('a slow refresh serves the stale list within the budget', async () => {
    const clock = manualClock()
    const vendor = fakeVendor()
    const cache = new ProductGroupCache(clock, recorder())
    await cache.lookup('i1', 'src', vendor.fetch)
    clock.advance(minutes(16))
    vendor.answer(() => new Promise(() => {}))
    const lookup = await cache.lookup('i1', 'src', vendor.fetch)
    assert.equal(lookup.kind, 'stale')
    assert.deepEqual(lookup.kind === 'stale' && [lookup.why, lookup.list.groups], ['timeout', listA])
  })

  test('stale-if-error: a failing vendor keeps the last good list, however old, and is not hammered', async () => {
    const clock = manualClock()
    const vendor = fakeVendor()
    const events = recorder()
    const cache = new ProductGroupCache(clock, events)
    await cache.lookup('i1', 'src', vendor.fetch)
    vendor.answer(async () => ({ ok: false, reason: 'HTTP 503' }))
    clock.advance(minutes(60))
    const stale = await cache.lookup('i1', 'src', vendor.fetch)
    assert.equal(stale.kind, 'stale')
    assert.deepEqual(stale.kind === 'stale' && stale.list.groups, listA)
    assert.equal(vendor.calls(), 2)
    // Within 30 s of a failure nobody calls again; afterwards one call, still failing, still stale.
    assert.equal((await cache.lookup('i1', 'src', vendor.fetch)).kind, 'stale')
    assert.equal(vendor.calls(), 2)
    clock.advance(31_000)
    assert.equal((await cache.lookup('i1', 'src', vendor.fetch)).kind, 'stale')
    assert.equal(vendor.calls(), 3)
    // A throwing call counts as a failure too.
    vendor.answer(async () => {
      throw new Error('boom')
    })
    clock.advance(31_000)
    assert.equal((await cache.lookup('i1', 'src', vendor.fetch)).kind, 'stale')
    assert.deepEqual(events.log, ['ok', 'error (had a list)', 'error (had a list)', 'error (had a list)'])
  })

  test('a failure with no good list yet gives none (the caller uses the static list)', async () => {
    const vendor = fakeVendor()
    vendor.answer(async () => ({ ok: false, reason: 'HTTP 500' }))
    const cache = new ProductGroupCache(manualClock(), recorder())
    const lookup = await cache.lookup('i1', 'src', vendor.fetch)
    assert.deepEqual(lookup, { kind: 'none', why: 'error', reason: 'HTTP 500' })
  })

  test('forget drops the list, and an answer still in flight does not come back', async () => {
    const vendor = fakeVendor()
    const events = recorder()
    const cache = new ProductGroupCache(manualClock(), events)
    await cache.lookup('i1', 'src', vendor.fetch)
    cache.forget('i1')
    assert.equal(cache.hit('i1', 'src'), null)
    let release: () => void = () => {}
    vendor.answer(
      () =>
        new Promise((r) => {
          release = () => r({ ok: true, groups: listB })
        }),
    )
    cache.refresh('i1', 'src', vendor.fetch)
    cache.forget('i1')
    release()
    await waitFor(() => events.log.at(-1) === 'ok (dropped)', {
      what: 'the forgotten answer to arrive',
      timeoutMs: 1000,
    })
    assert.equal(cache.peek('i1', 'src'), null)
    assert.equal(events.log.at(-1), 'ok (dropped)')
  })
})
