// What only the SuperOps adapter does (src/psa/superops/adapter.ts and close.ts), against the simulator:
// a ticket's board, type, priority and status picked from SuperOps' lists and sent as SuperOps takes
// them, source INTEGRATION with our reference, a client named by its name, a subject SuperOps finds too
// long or a field it requires refused for good with words naming the field, and the close: the
// partner's closedStatus, else the status the tenant's tickets close with most, else refused with a
// sentence — never a status picked because its name sounds closed.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { call, superOpsClient, ticketCall } from '../../support/psa/superops.js'
import {
  type SuperOpsSim,
  type SuperOpsSimOptions,
  startSuperOpsSim,
} from '../../support/sims/superops/server.js'

const fields = { companyId: '1001', board: null, priority: null, type: null, status: null }
const ticket = { ...fields, summary: 'Disk full on SRV01', description: 'Volume C: at 99%.' }

const connect = (sim: SuperOpsSim, settings: object = {}) => superOpsClient(sim.endpoint, settings)

async function withSim(o: SuperOpsSimOptions, run: (sim: SuperOpsSim) => Promise<void>) {
  const sim = await startSuperOpsSim(o)
  try {
    await run(sim)
  } finally {
    await sim.close()
  }
}

function made(sim: SuperOpsSim, r: Awaited<ReturnType<PsaOperations['createTicket']>>) {
  assert.ok(r.ok, r.ok ? '' : r.failure.message)
  const t = sim.state.tickets.find((x) => x.ticketId === r.value.ticketId)
  assert.ok(t)
  return t
}

describe('SuperOps adapter', () => {
  test('create: the group, category, priority and status by name or id; source INTEGRATION and our reference', async () => {
    await withSim({}, async (sim) => {
      const c = ticketCall()
      const t = made(
        sim,
        await connect(sim).createTicket(
          { ...ticket, board: 'security operations', type: 'Security', priority: 'High', status: 'On Hold' },
          c,
        ),
      )
      assert.deepEqual(t.techGroup, { groupId: '7002', name: 'Security Operations' })
      assert.deepEqual(
        [t.category, t.priority, t.status, t.source],
        ['Security', 'High', 'On Hold', 'INTEGRATION'],
      )
      assert.equal(t.sourceReferenceId, c.ref)
      assert.ok(t.description.endsWith(`alertbridge ref: ${c.ref}`))
      const byId = made(sim, await connect(sim).createTicket({ ...ticket, board: '7001' }, ticketCall()))
      assert.equal(byId.techGroup?.name, 'Service Desk')
    })
  })

  test('create: a client named by its name; an unknown group refused before SuperOps is asked to create', async () => {
    await withSim({}, async (sim) => {
      const t = made(
        sim,
        await connect(sim).createTicket({ ...ticket, companyId: 'Acme Corp' }, ticketCall()),
      )
      assert.equal(t.client.accountId, '1001')
      const before = sim.state.tickets.length
      const r = await connect(sim).createTicket({ ...ticket, board: 'Nowhere' }, ticketCall())
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['rejected', false])
      assert.match(r.ok ? '' : r.failure.message, /no technician group 'Nowhere'/)
      assert.equal(sim.state.tickets.length, before)
    })
  })

  test('a subject SuperOps finds too long, or a field it requires: refused for good, naming the field', async () => {
    await withSim({ limits: { subject: 40 }, mandatoryOnCreate: ['category'] }, async (sim) => {
      const client = connect(sim)
      const long = await client.createTicket(
        { ...ticket, type: 'Hardware', summary: 'x '.repeat(60) },
        ticketCall(),
      )
      assert.deepEqual(long.ok ? null : [long.failure.kind, long.failure.retryable], ['rejected', false])
      assert.match(long.ok ? '' : long.failure.message, /subject as longer than its limit/)
      const missing = await client.createTicket(ticket, ticketCall())
      assert.match(missing.ok ? '' : missing.failure.message, /requires category/)
    })
  })

  test('close: the status the tenant’s tickets close with most, after a PRIVATE resolution note', async () => {
    await withSim({}, async (sim) => {
      const client = connect(sim)
      const t = made(sim, await client.createTicket(ticket, ticketCall()))
      const r = await client.closeTicket(t.ticketId, { note: 'Healed', closedStatus: null }, ticketCall())
      assert.deepEqual(r, { ok: true, value: { alreadyClosed: false } })
      // The seeded tickets: 'Closed' closed the most of them, 'Resolved' some.
      assert.equal(t.status, 'Closed')
      const note = sim.state.notes.find((x) => x.ticketId === t.ticketId)
      assert.deepEqual([note?.content, note?.privacyType], ['Healed', 'PRIVATE'])
    })
  })

  test('close: the partner’s closedStatus decides, and a ticket with it reads closed', async () => {
    await withSim({}, async (sim) => {
      const client = connect(sim, { defaults: { closedStatus: 'Resolved' } })
      const t = made(sim, await client.createTicket(ticket, ticketCall()))
      assert.ok(
        (await client.closeTicket(t.ticketId, { note: 'Healed', closedStatus: 'Resolved' }, ticketCall())).ok,
      )
      assert.equal(t.status, 'Resolved')
      const again = await client.closeTicket(
        t.ticketId,
        { note: 'Again', closedStatus: 'Resolved' },
        ticketCall(),
      )
      assert.deepEqual(again, { ok: true, value: { alreadyClosed: true } })
    })
  })

  test('close on a tenant whose tickets show no closing status, without closedStatus: refused, nothing written', async () => {
    await withSim({ tickets: 0 }, async (sim) => {
      const client = connect(sim)
      const t = made(sim, await client.createTicket(ticket, ticketCall()))
      const r = await client.closeTicket(t.ticketId, { note: 'Healed', closedStatus: null }, ticketCall())
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['rejected', false])
      assert.match(r.ok ? '' : r.failure.message, /set closedStatus/)
      assert.equal(t.status, 'Open')
      assert.equal(sim.state.notes.filter((x) => x.ticketId === t.ticketId).length, 0)
    })
  })

  test('statuses: those the tenant’s tickets close with, and the partner’s (by id), are marked closed; no name decides', async () => {
    await withSim({}, async (sim) => {
      // The portal stores SuperOps' id of the status (9: Abandoned).
      const list = await connect(sim, { defaults: { closedStatus: '9' } }).lookup('statuses', {}, call())
      assert.ok(list.ok)
      const closed = list.value.filter((s) => s.closed).map((s) => s.name)
      assert.deepEqual(closed.sort(), ['Abandoned', 'Closed', 'Resolved'])
      assert.equal(list.value.find((s) => s.name === 'Closure Requested')?.closed, false)
    })
  })

  test('look-ups: boards are technician groups, types and categories the categories; no sources or note types', async () => {
    await withSim({}, async (sim) => {
      const client = connect(sim)
      const names = async (what: 'boards' | 'types' | 'categories' | 'sources' | 'noteTypes') => {
        const r = await client.lookup(what, {}, call())
        assert.ok(r.ok)
        return r.value.map((e) => e.name)
      }
      assert.deepEqual(await names('boards'), ['Service Desk', 'Security Operations', 'Projects'])
      assert.deepEqual(await names('types'), await names('categories'))
      assert.deepEqual([await names('sources'), await names('noteTypes')], [[], []])
      assert.equal(client.ticketUrl('1'), null)
    })
  })
})
