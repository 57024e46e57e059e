// The poll's changed list is read once a pass (docs/psa/sync.md#the-poll): a backlog read over several
// pages does not list Syncro's changed tickets again on each page, and every page's tickets are read.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Hooked } from '../../support/hooked.js'
import { syncroService } from '../../support/psa/service-fixtures.js'
import { syncedPartner } from '../../support/psa/synced-partner.js'
import { startService, type TestService } from '../../support/service.js'
import { type SyncroSim, startSyncroSim } from '../../support/sims/syncro/server.js'
import { hold } from '../../support/wait.js'

const intervalMs = 4000

describe('Syncro: the poll lists changed tickets once a pass, not once a page', () => {
  let sim: SyncroSim
  let svc: TestService
  let s: Hooked
  before(async () => {
    sim = await startSyncroSim({ perMinute: 100_000 })
    svc = await startService({
      env: {
        ALLOW_PRIVATE_NETWORK: 'true',
        PSA_POLL_INTERVAL_MS: String(intervalMs),
        PSA_POLL_PAGE_SIZE: '2',
        ...syncroService.env,
      },
    })
    s = await syncedPartner(svc, syncroService, sim.url)
  })
  after(async () => {
    await svc?.close()
    await sim?.close()
    await s?.receiver.close()
  })

  test('five open tickets, pages of two: three pages a pass, one list', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await s.sync({ title: `Malware on WS-${i}` })).status, 201)
    // Changed long ago as Syncro lists them (it compares days): only the poll's pages read them.
    for (const t of sim.state.tickets.slice(-5)) t.updated_at = '2024-01-01T00:00:00.000Z'
    const from = sim.calls.length
    const started = Date.now()
    await hold(intervalMs * 3, 'three poll intervals')
    const calls = sim.calls.slice(from)
    const lists = calls.filter((c) => c.method === 'GET' && c.url.includes('since_updated_at')).length
    const reads = calls.filter((c) => c.method === 'GET' && /\/api\/v1\/tickets\/\d+$/.test(c.url)).length
    const passes = Math.ceil((Date.now() - started) / intervalMs) + 1
    assert.ok(reads >= 10, `every page's tickets read: ${reads} reads`)
    assert.ok(
      lists <= passes,
      `${lists} lists in ${passes} passes at most (a list per page would be ${passes * 3})`,
    )
    assert.ok(lists >= 2, `${lists} lists: one each pass`)
  })
})
