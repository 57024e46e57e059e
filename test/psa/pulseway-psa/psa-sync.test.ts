// Two-way sync on Pulseway PSA, against the Pulseway simulator: the sync contract without a push
// (Pulseway publishes no webhooks, so the poll alone hears technicians), then what is Pulseway's own:
// who worked a ticket is read from its notes, which name their writer by name only, and its time logs;
// a notes read Pulseway refuses (it answers 400 for some tickets) does not fail the read; the
// connection test says in plain words that sync is poll-only; a reopen after a lost answer writes once.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { pulsewayPsa } from '../../../src/psa/pulseway-psa/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { type PulsewayPsaSim, startPulsewayPsaSim } from '../../support/sims/pulseway-psa/server.js'

const settings = (url: string) => ({
  baseUrl: url,
  tenant: 'Acme MSP',
  username: 'api@acme-msp.example',
  password: 'pulseway-password',
  source: 'Monitoring System',
})

function connect(url: string): PsaOperations {
  const registry = new PsaRegistry([
    pulsewayPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
  ])
  const c = registry.connect('p-pulseway', { kind: 'pulseway-psa', settings: settings(url) })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

const ticket = { companyId: '1002', board: 'Monitoring Alerts', priority: 'High', type: null, status: null }

function find(sim: PulsewayPsaSim, id: string) {
  const t = sim.state.tickets.find((x) => String(x.id) === id)
  if (!t) throw new Error(`no Pulseway PSA ticket ${id}`)
  return t
}

syncContract('Pulseway PSA', async () => {
  const sim = await startPulsewayPsaSim({ accounts: 20, tickets: 30 })
  return {
    client: connect(sim.url),
    ticket,
    technician: {
      ...sim.technician,
      // No merge is published for Pulseway PSA: the technician closes the ticket with a note instead.
      async merge(id, into) {
        await sim.technician.note(id, `Duplicate of ${into}`)
        await sim.technician.close(id)
      },
    },
    merges: false,
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

describe('Pulseway PSA sync specifics', () => {
  let sim: PulsewayPsaSim
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
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    return r.value.ticketId
  }
  const readOne = async (id: string) => {
    const r = await client.readTickets([id], call())
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    const [read] = r.value
    assert.ok(read)
    return read
  }
  before(async () => {
    sim = await startPulsewayPsaSim({ accounts: 20, tickets: 30 })
    client = connect(sim.url)
  })
  after(() => sim.close())

  test('no push: the kind has none, and the connection test says sync is poll-only', async () => {
    assert.equal(client.push, null)
    const r = await client.test(call())
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    assert.match(r.value.detail, /^Connected to Pulseway PSA at /)
    assert.match(r.value.detail, /publishes no webhooks, so alertbridge polls it/)
    assert.equal(sim.callsTo(/\/admin\/webhooks/).length, 0, 'no webhook route is tried')
  })

  test('the simulator has no webhooks and no activities feed', async () => {
    const id = await create()
    const before = sim.calls.length
    const read = await readOne(id)
    assert.equal(read.state, 'open')
    const paths = sim.calls.slice(before).map((c) => c.url.split('?')[0])
    assert.ok(
      paths.some((p) => p?.endsWith(`/tickets/${id}/notes`)),
      'notes read',
    )
    assert.ok(!paths.some((p) => p?.endsWith('/activities')), 'no activities feed asked for')
  })

  test('a note named only by its writer’s name counts as work when the name is not alertbridge’s', async () => {
    const id = await create()
    assert.ok((await client.appendNote(id, 'Repeated alert', noteCall())).ok)
    assert.equal((await readOne(id)).worked, false, 'our own note')
    const t = find(sim, id)
    t.notes.push({
      id: 999_001,
      details: 'Spoke to the customer',
      isInternal: false,
      typeId: 1,
      noteDate: new Date().toISOString(),
      createdOn: new Date().toISOString(),
      createdByName: 'Sam Ruiz',
    })
    assert.equal((await readOne(id)).worked, true)
  })

  test('notes refused (400) for a ticket: the ticket still reads, closed by a technician', async () => {
    const id = await create()
    await sim.technician.close(id)
    sim.faults.set({ fail: { status: 400, count: 1, match: `/tickets/${id}/notes` } })
    const read = await readOne(id)
    sim.faults.clear()
    assert.equal(read.state, 'closed')
  })

  test('reopen after a lost answer writes the note once', async () => {
    const id = await create()
    await sim.technician.close(id)
    const marker = `reopen-${Date.now()}`
    const reopen = { note: `The alert came back (${marker})`, openStatus: null }
    assert.ok((await client.reopenTicket(id, reopen, noteCall(marker))).ok)
    assert.ok((await client.reopenTicket(id, reopen, noteCall(marker, true))).ok)
    assert.equal(find(sim, id).notes.filter((x) => x.details.includes(marker)).length, 1)
    assert.equal(find(sim, id).completedDate, null)
  })
})
