// Two-way sync on NinjaOne, against its simulator: the sync contract (a technician closes, reopens,
// deletes and works tickets; NinjaOne has no merge, so the fixture's merge closes with a note; reads
// and reopens through the API), then what only NinjaOne does: its webhook, registered through the API
// with a secret custom header, reports only deleted and reinstated tickets (never a close, which the
// poll hears), and a push is verified by that header.
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { ninjaOnePsa } from '../../../src/psa/ninjaone/adapter.js'
import { secretHeader } from '../../../src/psa/ninjaone/push.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { MemoryTokenStore } from '../../support/psa/memory-token-store.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { closedStatusIds } from '../../support/sims/ninjaone/seed.js'
import { type NinjaOneSim, startNinjaOneSim } from '../../support/sims/ninjaone/server.js'

function connect(sim: NinjaOneSim): PsaOperations {
  const registry = new PsaRegistry([
    ninjaOnePsa(
      { http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) },
      { tokens: new MemoryTokenStore() },
    ),
  ])
  const c = registry.connect('p-ninja', {
    kind: 'ninjaone',
    settings: {
      baseUrl: sim.url,
      clientId: sim.state.credentials.clientId,
      clientSecret: sim.state.credentials.clientSecret,
      refreshToken: sim.grant(),
    },
  })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

const ticket = { companyId: '1', board: 'Security Alert', priority: 'High', type: null, status: null }
const call = () => ({ signal: AbortSignal.timeout(5000) })
let n = 0
const ticketCall = () => {
  const correlationId = `ninja-sync-${Date.now()}-${n++}`
  return { ...call(), correlationId, ref: correlationId, marker: correlationId, adopt: false }
}

syncContract('NinjaOne', async () => {
  const sim = await startNinjaOneSim({ organizations: 10, tickets: 50 })
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no NinjaOne ticket ${id}`)
    return t
  }
  return {
    client: connect(sim),
    ticket,
    technician: sim.technician,
    async state(id) {
      const t = find(id)
      return {
        closed: closedStatusIds(sim.state.statuses).includes(t.statusId),
        statusName: sim.state.statuses.find((s) => s.statusId === t.statusId)?.displayName ?? '',
        notes: t.log.filter((e) => e.type === 'COMMENT').map((e) => e.body),
      }
    },
    // The push reports no close (the contract's push test needs one): tested below.
    push: null,
    merges: false,
    close: () => sim.close(),
  }
})

async function receiver() {
  const got: { headers: IncomingHttpHeaders; rawBody: Buffer }[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      got.push({ headers: req.headers, rawBody: Buffer.concat(chunks) })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/push`, got, close: () => new Promise((r) => server.close(r)) }
}

test('the webhook: registered with the secret header; creates, deletes and reinstates pushed, closes not; a wrong header refused', async (t) => {
  const sim = await startNinjaOneSim({ organizations: 5, tickets: 5 })
  const r = await receiver()
  t.after(async () => {
    await sim.close()
    await r.close()
  })
  const client = connect(sim)
  assert.ok(client.push)
  const secret = 'ninja-push-secret-0123456789abcdef'
  const reg = await client.push.register({ url: r.url, secret, deactivationUrl: `${r.url}/off` }, call())
  assert.ok(reg.ok && reg.value.mode === 'registered', JSON.stringify(reg))
  assert.deepEqual(sim.state.webhook?.activities.NINJA_TICKETING, [
    'NINJA_TICKETING_TICKET_CREATED',
    'NINJA_TICKETING_TICKET_DELETED',
    'NINJA_TICKETING_TICKET_REINSTATED',
  ])
  const made = await client.createTicket(
    { ...ticket, summary: 'Malware', description: 'Found.' },
    ticketCall(),
  )
  assert.ok(made.ok)
  const id = made.value.ticketId
  await sim.pushes.settled()
  assert.equal(r.got.length, 1, 'the create is pushed')
  r.got.length = 0
  await sim.technician.close(id)
  await sim.pushes.settled()
  assert.equal(r.got.length, 0, 'a close is never pushed: the poll hears it')
  await sim.technician.delete(id)
  await sim.pushes.settled()
  assert.equal(r.got.length, 1)
  const got = r.got[0]!
  assert.deepEqual(await client.push.verify({ ...got, secret, now: new Date() }, call()), {
    ok: true,
    ticketIds: [id],
  })
  const deleted = await client.readTickets([id], call())
  assert.deepEqual(deleted.ok ? deleted.value.map((x) => x.state) : null, ['deleted'])
  const wrong = await client.push.verify({ ...got, secret: `${secret}x`, now: new Date() }, call())
  assert.equal(wrong.ok, false)
  const { [secretHeader]: _gone, ...without } = got.headers
  assert.equal(
    (await client.push.verify({ ...got, headers: without, secret, now: new Date() }, call())).ok,
    false,
  )
  await sim.technician.reinstate(id)
  await sim.pushes.settled()
  assert.equal(r.got.length, 2, 'a reinstate is pushed')
  const back = await client.readTickets([id], call())
  assert.deepEqual(back.ok ? back.value.map((x) => x.state) : null, ['closed'])
  const gone = await client.push.unregister('webhook', call())
  assert.ok(gone.ok)
  assert.equal(sim.state.webhook, null)
  await sim.technician.delete(id)
  await sim.pushes.settled()
  assert.equal(r.got.length, 2, 'nothing is pushed once unregistered')
  assert.ok((await client.push.unregister('webhook', call())).ok, 'a webhook already gone is not a failure')
})
