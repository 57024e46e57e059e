// Two-way sync on Kaseya BMS, against the BMS simulator: the sync contract without a push (BMS does not
// publish how it signs its webhooks, so alertbridge takes no BMS push and the poll alone hears it),
// then what is BMS's own: the connection test says why; the open tickets changed since a time list a
// reopened one (how the poll hears a reopen); a webhook an earlier version registered is deleted, and
// one already gone is no failure; merges made through the API, a status that is called "Resolved" but
// does not complete, who changed a ticket, a reopen to a named status and its retry after a lost answer.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { kaseyaBmsPsa } from '../../../src/psa/kaseya-bms/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { seedOldWebhook } from '../../support/sims/kaseya-bms/routes-webhooks.js'
import { type KaseyaBmsSim, startKaseyaBmsSim } from '../../support/sims/kaseya-bms/server.js'

const settings = (url: string) => ({
  baseUrl: url,
  tenant: 'Acme MSP',
  username: 'api@acme-msp.example',
  password: 'bms-password',
  source: 'Monitoring System',
})

function connect(url: string): PsaOperations {
  const registry = new PsaRegistry([
    kaseyaBmsPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
  ])
  const c = registry.connect('p-bms', { kind: 'kaseya-bms', settings: settings(url) })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

const ticket = { companyId: '1002', board: 'Monitoring Alerts', priority: 'High', type: null, status: null }

function find(sim: KaseyaBmsSim, id: string) {
  const t = sim.state.tickets.find((x) => String(x.id) === id)
  if (!t) throw new Error(`no Kaseya BMS ticket ${id}`)
  return t
}

syncContract('Kaseya BMS', async () => {
  const sim = await startKaseyaBmsSim({ accounts: 20, tickets: 30 })
  return {
    client: connect(sim.url),
    ticket,
    technician: sim.technician,
    async state(id) {
      const t = find(sim, id)
      return {
        closed: t.completedDate !== null,
        statusName: sim.state.statuses.find((s) => s.id === t.statusId)?.name ?? '',
        notes: t.notes.map((n) => n.details),
      }
    },
    push: null,
    close: () => sim.close(),
  }
})

describe('Kaseya BMS sync specifics', () => {
  let sim: KaseyaBmsSim
  let client: PsaOperations
  const call = () => ({ signal: AbortSignal.timeout(5000) })
  let n = 0
  const noteCall = (marker = `m-${n++}`, adopt = false) => ({
    ...call(),
    correlationId: marker,
    ref: marker,
    marker,
    adopt,
  })
  const create = async () => {
    const r = await client.createTicket(
      { ...ticket, summary: 'Disk full on SRV-01', description: 'C: at 99%' },
      noteCall(),
    )
    assert.ok(r.ok)
    return r.value.ticketId
  }
  const read = async (ids: string[]) => {
    const r = await client.readTickets(ids, call())
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    return r.value
  }
  before(async () => {
    sim = await startKaseyaBmsSim({ accounts: 20, tickets: 30 })
    client = connect(sim.url)
  })
  after(() => sim.close())

  test('no push: the kind has none and registers nothing; the connection test says why, and that the poll is used', async () => {
    assert.equal(client.push, null)
    assert.match(client.pollOnlyReason ?? '', /Signature header whose scheme it does not publish/)
    const r = await client.test(call())
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    assert.match(r.value.detail, /^Connected to Kaseya BMS at /)
    assert.match(r.value.detail, /does not publish how it signs its webhooks \(the Signature header\)/)
    assert.match(r.value.detail, /trusts no BMS push and polls BMS/)
    assert.equal(sim.callsTo(/\/admin\/webhooks/).length, 0, 'no webhook route is called')
  })

  test('open tickets changed since a time: a reopened one is listed, a closed or untouched one is not', async () => {
    assert.ok(client.changedSince, 'a list of what changed, for the poll')
    const [a, b, c] = [await create(), await create(), await create()]
    await sim.technician.close(a)
    await sim.technician.close(b)
    const since = new Date(Date.now() + 1).toISOString()
    await new Promise((resolve) => setTimeout(resolve, 5))
    await sim.technician.reopen(a)
    const changed = await client.changedSince(since, call())
    assert.ok(changed.ok, changed.ok ? '' : changed.failure.message)
    assert.ok(changed.value.ticketIds.includes(a), 'the reopened ticket')
    assert.ok(!changed.value.ticketIds.includes(b), 'a closed ticket is not open')
    assert.ok(!changed.value.ticketIds.includes(c), 'an untouched ticket did not change')
    const listed = sim.callsTo(/\/servicedesk\/tickets$/, 'GET').at(-1)
    assert.match(listed?.url ?? '', /Filter\.ExcludeCompleted=1/)
  })

  test('a webhook an earlier version registered is deleted; one already gone is no failure', async () => {
    const retired = client.retiredPush
    assert.ok(retired)
    const id = seedOldWebhook(sim.state, {
      url: 'https://alertbridge.example/api/psa-push/tok',
      secret: 's1',
    })
    assert.ok((await retired.unregister(id, call())).ok)
    assert.deepEqual(sim.state.webhooks, [])
    assert.equal(sim.callsTo(new RegExp(`/admin/webhooks/${id}$`), 'DELETE').length, 1)
    assert.ok((await retired.unregister(id, call())).ok, 'a webhook already gone is not a failure')
    const notAnId = await retired.unregister('hook-1', call())
    assert.equal(notAnId.ok, false)
  })

  test('a merge (over /__sim/technician/merge) reads merged into its absorber; the absorber stays open', async () => {
    const [a, b] = [await create(), await create()]
    const res = await fetch(`${sim.url}/__sim/technician/merge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: a, into: b }),
    })
    assert.equal(res.status, 204)
    const [ra, rb] = await read([a, b])
    assert.deepEqual([ra?.state, ra?.mergedInto, rb?.state], ['merged', b, 'open'])
  })

  test('a completed ticket related to another, without a merge note, is closed, not merged', async () => {
    const [a, b] = [await create(), await create()]
    find(sim, a).related = [Number(b)]
    await sim.technician.close(a)
    const [r] = await read([a])
    assert.deepEqual([r?.state, r?.mergedInto], ['closed', null])
  })

  test('"Resolved" that does not complete a ticket reads open; alertbridge’s close is not work; changedBy names the technician', async () => {
    const id = await create()
    const t = find(sim, id)
    t.statusId = 4 // Resolved, a basic status that does not complete
    const [open] = await read([id])
    assert.deepEqual([open?.state, open?.statusName], ['open', 'Resolved'])
    const closed = await client.closeTicket(id, { note: 'Alert cleared', closedStatus: null }, noteCall())
    assert.ok(closed.ok)
    const [ours] = await read([id])
    assert.deepEqual([ours?.state, ours?.worked, ours?.changedBy], ['closed', false, 'AlertBridge API'])
    await sim.technician.reopen(id)
    const [theirs] = await read([id])
    assert.deepEqual([theirs?.state, theirs?.worked], ['open', true])
    await sim.technician.note(id, 'On it')
    assert.equal((await read([id]))[0]?.changedBy, 'Dana Okafor')
  })

  test('reopen to a named status; a completing one is refused; a retry after a lost answer writes once', async () => {
    const id = await create()
    await sim.technician.close(id)
    const refused = await client.reopenTicket(id, { note: 'back', openStatus: 'Closed' }, noteCall())
    assert.equal(refused.ok, false)
    sim.faults.set({ loseAnswer: { count: 1, match: '/notes$', method: 'POST' } })
    const lost = await client.reopenTicket(
      id,
      { note: 'It came back (r1)', openStatus: 'In Progress' },
      noteCall('r1'),
    )
    assert.equal(lost.ok, false)
    const retry = await client.reopenTicket(
      id,
      { note: 'It came back (r1)', openStatus: 'In Progress' },
      noteCall('r1', true),
    )
    assert.ok(retry.ok)
    const t = find(sim, id)
    assert.equal(t.statusId, 2)
    assert.equal(t.completedDate, null)
    assert.equal(t.notes.filter((x) => x.details.includes('came back')).length, 1)
  })

  test('reads cost two calls a ticket (three for a completed one); an unknown id reads deleted', async () => {
    const ids = [await create(), await create(), '999999']
    const before = sim.calls.length
    const reads = await read(ids)
    assert.deepEqual(
      reads.map((r) => r.state),
      ['open', 'open', 'deleted'],
    )
    const calls = sim.calls.slice(before).map((c) => c.url.split('?')[0])
    assert.equal(calls.filter((u) => /\/tickets\/\d+$/.test(u ?? '')).length, 3)
    assert.equal(calls.filter((u) => /\/activities$/.test(u ?? '')).length, 2)
  })
})
