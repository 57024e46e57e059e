// Two-way sync on SuperOps (docs/psa/superops.md, "Two-way sync"), against the SuperOps simulator: the
// sync contract (SuperOps has no push and no merge: the fixture's push is null and its merge closes the
// duplicate with a note), then what only SuperOps does — what changed listed by updatedTime through
// every page, a deleted ticket read as null, closed learned from the tenant's tickets, notes told apart
// by what they carry.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { call, superOpsClient, ticketCall } from '../../support/psa/superops.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { superOpsTime } from '../../support/sims/superops/lists.js'
import { type SuperOpsSim, startSuperOpsSim } from '../../support/sims/superops/server.js'

const fields = { companyId: '1001', board: 'Service Desk', priority: null, type: null, status: null }

const connect = (sim: SuperOpsSim, settings: object = {}) => superOpsClient(sim.endpoint, settings)

function value<T>(r: { ok: true; value: T } | { ok: false; failure: { message: string } }): T {
  assert.ok(r.ok, r.ok ? '' : r.failure.message)
  return r.value
}

syncContract('SuperOps', async () => {
  const sim = await startSuperOpsSim()
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => x.ticketId === id)
    if (!t) throw new Error(`no SuperOps ticket ${id}`)
    return t
  }
  return {
    client: connect(sim),
    ticket: fields,
    technician: sim.technician,
    async state(id) {
      const t = find(id)
      return {
        closed: t.resolutionTime !== null,
        statusName: t.status,
        notes: sim.state.notes.filter((x) => x.ticketId === id).map((x) => x.content),
      }
    },
    push: null,
    merges: false,
    close: () => sim.close(),
  }
})

describe('SuperOps two-way sync', () => {
  let sim: SuperOpsSim
  before(async () => {
    sim = await startSuperOpsSim()
  })
  after(() => sim.close())
  const create = async (client: PsaOperations) =>
    value(
      await client.createTicket({ ...fields, summary: 'Disk full on SRV01', description: 'x' }, ticketCall()),
    ).ticketId

  test('no push: the poll alone hears SuperOps', () => {
    assert.equal(connect(sim).push, null)
    assert.equal(typeof connect(sim).changedSince, 'function')
  })

  test('changedSince lists every page of updatedTime after, oldest first, and nothing older', async () => {
    const client = connect(sim)
    const since = new Date(Date.now() - 1000)
    // 150 tickets changed after `since`: two pages of 100.
    const changed = sim.state.tickets.slice(0, 150)
    for (const t of changed) t.updatedTime = superOpsTime(new Date())
    assert.ok(client.changedSince)
    const listed = value(await client.changedSince(since.toISOString(), call()))
    assert.equal(listed.ticketIds.length, 150)
    assert.deepEqual(new Set(listed.ticketIds), new Set(changed.map((t) => t.ticketId)))
    const lists = sim.calls.filter((c) => JSON.stringify(c.body).includes('getTicketList'))
    const last = lists.at(-1)?.body as { variables: { input: Record<string, unknown> } }
    assert.deepEqual(last.variables.input.condition, {
      attribute: 'updatedTime',
      operator: 'after',
      value: superOpsTime(since),
    })
    assert.deepEqual(last.variables.input.sort, [{ attribute: 'updatedTime', order: 'ASC' }])
  })

  test('readTickets: a ticket SuperOps answers null for is deleted; a refusal is the failure', async () => {
    const client = connect(sim)
    const id = await create(client)
    await sim.technician.delete(id)
    const [read] = value(await client.readTickets([id], call()))
    assert.equal(read?.state, 'deleted')
    sim.faults.set({ fail: { status: 503, count: 1, match: '#getTicket$' } })
    const other = await create(client)
    const failed = await client.readTickets([other], call())
    assert.equal(failed.ok, false)
  })

  test('closed: a resolution time or a status the tenant closes with; a status that only sounds closed is open', async () => {
    const client = connect(sim)
    const id = await create(client)
    const t = sim.state.tickets.find((x) => x.ticketId === id)
    assert.ok(t)
    t.status = 'Closure Requested'
    t.updatedTime = superOpsTime()
    assert.equal(value(await client.readTickets([id], call()))[0]?.state, 'open')
    await sim.technician.close(id)
    assert.equal(value(await client.readTickets([id], call()))[0]?.state, 'closed')
    // The partner's closedStatus counts, even without a resolution time.
    const partner = connect(sim, { defaults: { closedStatus: 'Closure Requested' } })
    Object.assign(t, { status: 'Closure Requested', resolutionTime: null })
    assert.equal(value(await partner.readTickets([id], call()))[0]?.state, 'closed')
  })

  test('worked: a technician’s note, time or status; not alertbridge’s own notes', async () => {
    const client = connect(sim)
    const id = await create(client)
    value(await client.appendNote(id, `Update\n\nMessage ID: m-${id}`, ticketCall()))
    assert.equal(value(await client.readTickets([id], call()))[0]?.worked, false)
    await sim.technician.time(id)
    assert.equal(value(await client.readTickets([id], call()))[0]?.worked, true)
    const noted = await create(client)
    await sim.technician.note(noted, 'Called the user')
    assert.equal(value(await client.readTickets([noted], call()))[0]?.worked, true)
  })

  test('reopenTicket: Open by default; a status that closes is refused; a retry writes the note once', async () => {
    const client = connect(sim)
    const id = await create(client)
    await sim.technician.close(id)
    const refused = await client.reopenTicket(id, { note: 'again', openStatus: 'Closed' }, ticketCall())
    assert.equal(refused.ok, false)
    const c = { ...ticketCall(), marker: `m-reopen-${id}` }
    value(await client.reopenTicket(id, { note: 'Alert is back', openStatus: null }, c))
    value(await client.reopenTicket(id, { note: 'Alert is back', openStatus: null }, { ...c, adopt: true }))
    const t = sim.state.tickets.find((x) => x.ticketId === id)
    assert.equal(t?.status, 'Open')
    assert.equal(t?.resolutionTime, null)
    const notes = sim.state.notes.filter((x) => x.ticketId === id && x.content.includes(c.marker))
    assert.equal(notes.length, 1)
  })
})
