// Two-way sync on HaloPSA, against its simulator: the sync contract (a technician closes, reopens,
// merges, deletes and works tickets in Halo; reads and reopens through the API), then what only Halo
// does: its webhook is set up by an administrator (register answers the steps), and a push is verified
// by its Basic authentication — the simulator's webhook, configured as the steps say, posts a
// technician's change; the right credentials name the ticket, a wrong password or user is refused.
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { haloPsa } from '../../../src/psa/halopsa/adapter.js'
import { pushUser, ticketIds } from '../../../src/psa/halopsa/push.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { type HaloPsaSim, startHaloPsaSim } from '../../support/sims/halopsa/server.js'

function connect(sim: HaloPsaSim, more: Record<string, unknown> = {}): PsaOperations {
  const registry = new PsaRegistry([
    haloPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
  ])
  const c = registry.connect('p-halo', {
    kind: 'halopsa',
    settings: {
      baseUrl: sim.url,
      clientId: sim.state.credentials.clientId,
      clientSecret: sim.state.credentials.clientSecret,
      ...more,
    },
  })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

syncContract('HaloPSA', async () => {
  const sim = await startHaloPsaSim({ clients: 20, tickets: 120 })
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no HaloPSA ticket ${id}`)
    return t
  }
  return {
    client: connect(sim),
    ticket: {
      companyId: String(sim.state.clients[0]?.id),
      board: 'Security Operations',
      priority: 'High',
      type: null,
      status: null,
    },
    technician: sim.technician,
    async state(id) {
      const t = find(id)
      return {
        closed: sim.state.closedStatusIds.includes(t.status_id),
        statusName: sim.state.statuses.find((s) => s.id === t.status_id)?.name ?? '',
        notes: sim.state.actions.filter((a) => a.ticket_id === t.id).map((a) => a.note),
      }
    },
    // Halo's webhook is set up by hand (below), not through the API.
    push: null,
    close: () => sim.close(),
  }
})

const call = () => ({ signal: AbortSignal.timeout(5000) })
const noteCall = (marker: string, adopt = false) => ({
  ...call(),
  correlationId: marker,
  ref: marker,
  marker,
  adopt,
})

/** A loopback receiver keeping each push. */
async function receiver() {
  const got: { headers: IncomingHttpHeaders; rawBody: Buffer }[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      got.push({ headers: req.headers, rawBody: Buffer.concat(chunks) })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/api/psa-push/token123`,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('HaloPSA push: a webhook set up by hand, verified by Basic authentication', () => {
  let sim: HaloPsaSim
  let client: PsaOperations
  before(async () => {
    sim = await startHaloPsaSim({ clients: 20, tickets: 50 })
    client = connect(sim)
  })
  after(() => sim.close())

  const newTicket = async () => {
    const made = await client.createTicket(
      {
        companyId: String(sim.state.clients[0]?.id),
        board: null,
        priority: null,
        type: null,
        status: null,
        summary: 'Disk full on SRV01',
        description: 'C: has 1% free.',
      },
      noteCall(`c-${Date.now()}-${Math.random()}`),
    )
    assert.ok(made.ok)
    return made.value.ticketId
  }

  test('register answers the administrator’s steps, naming the URL and the user, never the secret', async () => {
    assert.ok(client.push)
    const secret = 'halo-push-secret-0123456789'
    const target = { url: 'https://ab.example/api/psa-push/tok', secret, deactivationUrl: '' }
    const reg = await client.push.register(target, call())
    assert.ok(reg.ok)
    assert.equal(reg.value.mode, 'manual')
    if (reg.value.mode !== 'manual') return
    const text = reg.value.instructions.join('\n')
    assert.match(text, /Configuration > Integrations > Webhooks/)
    assert.ok(text.includes(target.url))
    assert.ok(text.includes(`"${pushUser}"`))
    assert.match(text, /Ticket Status Changed/)
    assert.ok(!text.includes(secret), 'the secret is not written into stored steps')
    assert.deepEqual(await client.push.unregister('anything', call()), { ok: true, value: null })
    assert.equal(sim.calls.length, 0, 'neither makes a call to Halo')
  })

  test('a technician’s change arrives with Basic auth: the right secret names the ticket, a wrong one is refused', async (t) => {
    assert.ok(client.push)
    const r = await receiver()
    t.after(() => r.close())
    const secret = 'halo-push-secret-0123456789'
    // What the administrator does in Halo, as the steps say.
    const hook = await fetch(`${sim.url}/__sim/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: r.url, username: pushUser, password: secret }),
    })
    assert.equal(hook.status, 201)
    const id = await newTicket()
    await sim.pushes.settled()
    assert.equal(r.got.length, 0, 'alertbridge’s own create is not a technician’s change')
    const closed = await fetch(`${sim.url}/__sim/technician/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    })
    assert.equal(closed.status, 204)
    await sim.pushes.settled()
    const got = r.got.at(-1)
    assert.ok(got, 'the close was pushed')
    assert.match(String(got.headers.authorization), /^Basic /)
    const now = new Date()
    assert.deepEqual(await client.push.verify({ ...got, secret, now }, call()), { ok: true, ticketIds: [id] })
    const wrong = await client.push.verify({ ...got, secret: `${secret}x`, now }, call())
    assert.equal(wrong.ok, false)
    const otherUser = {
      ...got,
      headers: {
        ...got.headers,
        authorization: `Basic ${Buffer.from(`admin:${secret}`).toString('base64')}`,
      },
    }
    assert.equal((await client.push.verify({ ...otherUser, secret, now }, call())).ok, false)
    const none = { ...got, headers: { ...got.headers, authorization: undefined } }
    assert.equal((await client.push.verify({ ...none, secret, now }, call())).ok, false)
    // The pushed ticket reads closed: what changed is read back, never taken from the payload.
    const reads = await client.readTickets([id], call())
    assert.ok(reads.ok)
    assert.equal(reads.value[0]?.state, 'closed')
    // Dropped pushes never arrive (the poll hears them).
    await fetch(`${sim.url}/__sim/pushes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ drop: 1 }),
    })
    r.got.length = 0
    await sim.technician.reopen(id)
    await sim.pushes.settled()
    assert.equal(r.got.length, 0)
  })

  test('a batched delivery names each ticket once; a payload without a ticket names none', () => {
    assert.deepEqual(
      ticketIds([
        { ticket: { id: 12 } },
        { ticket_id: '13' },
        { action: { ticket_id: 12 } },
        { ticket: { id: 'x' } },
      ]),
      ['12', '13'],
    )
    assert.deepEqual(ticketIds({ event: 'Client Updated', client: { id: 4 } }), [])
  })
})

describe('HaloPSA sync: what is read, at what cost', () => {
  let sim: HaloPsaSim
  let client: PsaOperations
  before(async () => {
    sim = await startHaloPsaSim({ clients: 20, tickets: 50 })
    // 150 tickets cost more than the default 120 requests a minute (docs/psa/halopsa.md).
    client = connect(sim, { rateLimitPerMinute: 1000 })
  })
  after(() => sim.close())

  test('150 open tickets are listed in two calls (ticketids), with one actions call each', async () => {
    const ids = sim.state.tickets.filter((t) => t.status_id === 1).map((t) => String(t.id))
    while (ids.length < 150) {
      const made = await client.createTicket(
        {
          companyId: String(sim.state.clients[0]?.id),
          board: null,
          priority: null,
          type: null,
          status: null,
          summary: `Alert ${ids.length}`,
          description: 'x',
        },
        noteCall(`n-${ids.length}`),
      )
      assert.ok(made.ok)
      ids.push(made.value.ticketId)
    }
    sim.calls.length = 0
    const reads = await client.readTickets(ids, call())
    assert.ok(reads.ok)
    assert.equal(reads.value.length, ids.length)
    assert.ok(reads.value.every((r) => r.state === 'open' && !r.worked))
    assert.equal(sim.callsTo(/^\/api\/tickets$/i, 'GET').length, 2)
    assert.equal(sim.callsTo(/^\/api\/tickets\/\d+$/i, 'GET').length, 0)
    assert.equal(sim.callsTo(/^\/api\/actions$/i, 'GET').length, ids.length)
  })

  test('changedBy names the technician; time entered is work; the reopen uses the type’s initial status', async () => {
    const made = await client.createTicket(
      {
        companyId: String(sim.state.clients[0]?.id),
        board: null,
        priority: null,
        type: 'Alert',
        status: null,
        summary: 'Malware detected',
        description: 'details',
      },
      noteCall('t-1'),
    )
    assert.ok(made.ok)
    const id = made.value.ticketId
    const type = sim.state.ticketTypes.find((t) => t.name === 'Alert')
    assert.ok(type)
    type.initial_status = 2
    await sim.technician.time(id)
    await sim.technician.close(id)
    const reads = await client.readTickets([id], call())
    assert.ok(reads.ok)
    assert.deepEqual(reads.value[0], {
      ticketId: id,
      state: 'closed',
      statusName: 'Closed',
      mergedInto: null,
      worked: true,
      changedBy: 'Jane Tech',
    })
    const reopened = await client.reopenTicket(id, { note: 'Back again', openStatus: null }, noteCall('m-1'))
    assert.ok(reopened.ok)
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    assert.equal(t?.status_id, 2, 'the ticket type’s initial_status')
    // A retry after a lost answer writes no second note.
    const again = await client.reopenTicket(
      id,
      { note: 'Back again', openStatus: null },
      noteCall('m-1', true),
    )
    assert.ok(again.ok)
    assert.equal(sim.state.actions.filter((a) => a.note.includes('m-1')).length, 1)
    const named = await client.reopenTicket(id, { note: 'x', openStatus: 'Closed' }, noteCall('m-2'))
    assert.equal(named.ok, false, 'a closed status is not an open one')
  })

  test('where actions do not name their API application, the API agent (GET /api/Agent/me) tells ours', async () => {
    const made = await client.createTicket(
      {
        companyId: String(sim.state.clients[0]?.id),
        board: null,
        priority: null,
        type: null,
        status: null,
        summary: 'Agent check',
        description: 'details',
      },
      noteCall('a-1'),
    )
    assert.ok(made.ok)
    const id = made.value.ticketId
    assert.ok((await client.appendNote(id, 'Still there', noteCall('a-2'))).ok)
    for (const a of sim.state.actions) delete a.actionby_application_id
    const ours = await client.readTickets([id], call())
    assert.ok(ours.ok)
    assert.equal(ours.value[0]?.worked, false)
    assert.equal(ours.value[0]?.changedBy, 'alertbridge API')
    await sim.technician.note(id, 'Looked at it')
    for (const a of sim.state.actions) delete a.actionby_application_id
    const theirs = await client.readTickets([id], call())
    assert.ok(theirs.ok)
    assert.equal(theirs.value[0]?.worked, true)
    assert.ok(sim.callsTo(/^\/api\/agent\/me$/i, 'GET').length >= 1)
  })
})
