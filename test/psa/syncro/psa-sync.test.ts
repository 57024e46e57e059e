// Two-way sync on Syncro (docs/psa/syncro.md, "Two-way sync"), against the Syncro simulator: the sync
// contract (Syncro has no push and no merge: the fixture's push is null and its merge closes the
// duplicate with a comment), then what only Syncro does — what changed listed with since_updated_at
// through every page, a ticket read one call each, the statuses read as closed, and comments told
// apart by their author.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncroPsa } from '../../../src/psa/syncro/adapter.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { type SyncroSim, startSyncroSim } from '../../support/sims/syncro/server.js'

const token = 'syncro-api-token'
const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = () => {
  const ref = `syncro-sync-${Date.now()}-${n++}`
  return { ...call(), correlationId: ref, ref, marker: ref, adopt: false }
}
const fields = { companyId: '1001', board: 'Security Alert', priority: null, type: null, status: null }

function connect(sim: SyncroSim, settings: object = {}): PsaOperations {
  const registry = new PsaRegistry([syncroPsa({ http })])
  const c = registry.connect('p-syncro-sync', {
    kind: 'syncro',
    settings: { baseUrl: sim.url, apiToken: token, ...settings },
  })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

function value<T>(r: { ok: true; value: T } | { ok: false; failure: { message: string } }): T {
  assert.ok(r.ok, r.ok ? '' : r.failure.message)
  return r.value
}

syncContract('Syncro', async () => {
  const sim = await startSyncroSim()
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Syncro ticket ${id}`)
    return t
  }
  return {
    client: connect(sim),
    ticket: fields,
    technician: sim.technician,
    async state(id) {
      const t = find(id)
      // The description is the initial comment; the notes are the comments after it.
      return {
        closed: t.resolved_at !== null,
        statusName: t.status,
        notes: t.comments.slice(1).map((c) => c.body),
      }
    },
    push: null,
    merges: false,
    close: () => sim.close(),
  }
})

describe('Syncro two-way sync', () => {
  let sim: SyncroSim
  before(async () => {
    sim = await startSyncroSim()
  })
  after(() => sim.close())
  const create = async (client: PsaOperations) =>
    value(
      await client.createTicket({ ...fields, summary: 'Disk full on SRV01', description: 'x' }, ticketCall()),
    ).ticketId

  test('no push: the poll alone hears Syncro', () => {
    assert.equal(connect(sim).push, null)
    assert.equal(typeof connect(sim).changedSince, 'function')
  })

  test('changedSince lists every page of since_updated_at, and only what changed that day or later', async () => {
    const client = connect(sim)
    // Thirty seeded tickets of days ago, each changed now by a technician: more than a page (25).
    const old = sim.state.tickets
      .filter((t) => Date.now() - Date.parse(t.updated_at) > 3 * 24 * 60 * 60 * 1000)
      .slice(0, 40)
    const changed = old.slice(0, 30).map((t) => String(t.id))
    for (const id of changed) await sim.technician.note(id, 'Looked at it')
    const untouched = old.slice(30).map((t) => String(t.id))
    const since = new Date(Date.now() - 60_000).toISOString()
    const before = sim.calls.length
    const got = value(await client.changedSince!(since, call()))
    for (const id of changed) assert.ok(got.ticketIds.includes(id), `${id} changed`)
    for (const id of untouched) assert.ok(!got.ticketIds.includes(id), `${id} unchanged`)
    assert.equal(new Set(got.ticketIds).size, got.ticketIds.length)
    const lists = sim.calls.slice(before).map((c) => new URL(c.url, 'http://sim'))
    assert.ok(lists.length >= 2, 'more than one page')
    assert.ok(lists.every((u) => u.pathname === '/api/v1/tickets'))
    assert.ok(lists.every((u) => u.searchParams.get('since_updated_at') === since))
    assert.deepEqual(
      lists.map((u) => u.searchParams.get('page')),
      lists.map((_, i) => String(i + 1)),
    )
  })

  test('readTickets: one GET per ticket, a 404 as deleted, any other failure as the failure', async () => {
    const client = connect(sim)
    const [a, b] = [await create(client), await create(client)]
    const before = sim.calls.length
    const reads = value(await client.readTickets([a, '999999', b], call()))
    assert.deepEqual(
      reads.map((r) => [r.ticketId, r.state]),
      [
        [a, 'open'],
        ['999999', 'deleted'],
        [b, 'open'],
      ],
    )
    assert.equal(sim.calls.length - before, 3)
    sim.faults.set({ fail: { status: 500, count: null, match: `/tickets/${b}` } })
    try {
      const failed = await client.readTickets([a, b], call())
      assert.equal(failed.ok, false)
    } finally {
      sim.faults.clear()
    }
  })

  test('closed: Resolved, Invoiced, a status starting with Resolved, or the connection’s closed status', async () => {
    const client = connect(sim, { defaults: { closedStatus: 'Waiting on Customer' } })
    const id = await create(client)
    const t = sim.state.tickets.find((x) => String(x.id) === id)!
    const read = async () => value(await client.readTickets([id], call()))[0]!
    for (const [status, state] of [
      ['Invoiced', 'closed'],
      ['Resolved - Pending Confirmation', 'closed'],
      ['Waiting on Customer', 'closed'],
      ['Scheduled', 'open'],
    ] as const) {
      t.status = status
      const r = await read()
      assert.equal(r.state, state, status)
      assert.equal(r.statusName, status)
    }
  })

  test('worked: a technician’s status or time entry; not alertbridge’s own comments, status or reopen', async () => {
    const client = connect(sim, { defaults: { status: 'Scheduled' } })
    const id = await create(client)
    const t = sim.state.tickets.find((x) => String(x.id) === id)!
    const read = async () => value(await client.readTickets([id], call()))[0]!
    assert.ok(
      t.comments.every((c) => c.tech === 'alertbridge'),
      'our comments carry our name',
    )
    t.status = 'Scheduled'
    assert.equal((await read()).worked, false, 'the connection’s initial status is ours')
    value(await client.closeTicket(id, { note: 'Resolved by the vendor', closedStatus: null }, ticketCall()))
    value(await client.reopenTicket(id, { note: 'Back again', openStatus: null }, ticketCall()))
    assert.equal(t.status, 'New')
    assert.equal((await read()).worked, false)
    t.status = 'In Progress'
    assert.equal((await read()).worked, true, 'a status a technician set')
    t.status = 'New'
    await sim.technician.time(id)
    assert.equal((await read()).worked, true, 'a time entry')
  })

  test('reopenTicket: a named open status; a closed or unknown one refused; a retry writes the note once', async () => {
    const client = connect(sim)
    const id = await create(client)
    const t = sim.state.tickets.find((x) => String(x.id) === id)!
    await sim.technician.close(id)
    const refused = await client.reopenTicket(id, { note: 'x', openStatus: 'Resolved' }, ticketCall())
    assert.equal(refused.ok, false)
    assert.equal((await client.reopenTicket(id, { note: 'x', openStatus: 'Nope' }, ticketCall())).ok, false)
    const c = ticketCall()
    value(await client.reopenTicket(id, { note: 'The alert came back', openStatus: 'In Progress' }, c))
    assert.deepEqual([t.status, t.resolved_at], ['In Progress', null])
    const notes = () => t.comments.filter((x) => x.body.includes('The alert came back')).length
    assert.equal(notes(), 1)
    assert.ok(t.comments.at(-1)?.body.includes(`Message ID: ${c.marker}`))
    value(
      await client.reopenTicket(
        id,
        { note: 'The alert came back', openStatus: 'In Progress' },
        { ...c, adopt: true },
      ),
    )
    assert.equal(notes(), 1, 'the retry found its note')
    const gone = await client.reopenTicket('999999', { note: 'x', openStatus: null }, ticketCall())
    assert.equal(gone.ok ? '' : gone.failure.kind, 'not-found')
  })

  test('the simulator’s technician over HTTP, and a merge that resolves the duplicate', async () => {
    const client = connect(sim)
    const [a, b] = [await create(client), await create(client)]
    const post = (action: string, body: object) =>
      fetch(`${sim.url}/__sim/technician/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    assert.equal((await post('merge', { id: a, into: b })).status, 204)
    assert.equal((await post('note', { id: b, text: 'Called the customer' })).status, 204)
    assert.equal((await post('close', { id: '424242' })).status, 404)
    const reads = value(await client.readTickets([a, b], call()))
    assert.deepEqual(
      reads.map((r) => [r.state, r.mergedInto, r.worked]),
      [
        ['closed', null, true],
        ['open', null, true],
      ],
    )
    const drop = await fetch(`${sim.url}/__sim/pushes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ drop: 1 }),
    })
    assert.equal(drop.status, 204)
    assert.equal(sim.pushes.deliveries.length, 0, 'Syncro never pushes')
  })
})
