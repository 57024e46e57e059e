// Two-way sync on ConnectWise PSA, against the ConnectWise simulator on loopback (pages of 2, so every
// list the reads use spans pages): the shared sync contract, then what is ConnectWise's own — a
// callback whose key_url is on another host is refused without fetching it, one for another company
// is refused, signing keys are kept and fetched again when they change, registering twice leaves one
// callback, and the ways a ticket reads as worked.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { connectWisePsa } from '../../../src/psa/connectwise/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncContract } from '../../support/psa/sync-contract.js'
import { signCallback } from '../../support/sims/connectwise/callbacks.js'
import { type ConnectWiseSim, startConnectWiseSim } from '../../support/sims/connectwise/server.js'

const settingsFor = (url: string) => ({
  baseUrl: url,
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'priv-key',
  clientId: '00000000-0000-4000-8000-000000000001',
})

function clientFor(sim: ConnectWiseSim): PsaOperations {
  const registry = new PsaRegistry([
    connectWisePsa({
      http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }),
    }),
  ])
  const c = registry.connect('p-cw', { kind: 'connectwise', settings: settingsFor(sim.url) })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

const ticketFields = {
  companyId: '1',
  board: 'Service Desk',
  priority: 'Priority 3 - Medium',
  type: null,
  status: null,
}

syncContract('ConnectWise', async () => {
  const sim = await startConnectWiseSim({ pageSizeMax: 2, companies: 40, tickets: 30 })
  const find = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no ConnectWise ticket ${id}`)
    return t
  }
  return {
    client: clientFor(sim),
    ticket: ticketFields,
    technician: sim.technician,
    async state(id) {
      const t = find(id)
      const status = sim.state.boards
        .find((b) => b.id === t.boardId)
        ?.statuses.find((s) => s.id === t.statusId)
      return { closed: t.closedFlag, statusName: status?.name ?? '', notes: t.notes.map((n) => n.text) }
    },
    push: {
      drop: (count) => sim.pushes.drop(count),
      settled: () => sim.pushes.settled(),
      forge(push) {
        const body = JSON.parse(push.rawBody.toString('utf8')) as { ID: number }
        return { ...push, rawBody: Buffer.from(JSON.stringify({ ...body, ID: body.ID + 1 })) }
      },
      timestamped: false,
      signedWithSecret: false,
    },
    close: () => sim.close(),
  }
})

describe('ConnectWise sync: its own cases', () => {
  let sim: ConnectWiseSim
  let client: PsaOperations
  const call = () => ({ signal: AbortSignal.timeout(5000) })
  let n = 0
  const noteCall = (adopt = false) => {
    const id = `cw-sync-${n++}`
    return { ...call(), correlationId: id, ref: id, marker: id, adopt }
  }
  const create = async () => {
    const r = await client.createTicket(
      { ...ticketFields, summary: 'Disk full', description: 'C: 99%' },
      noteCall(),
    )
    assert.ok(r.ok)
    return r.value.ticketId
  }
  const readOne = async (id: string) => {
    const r = await client.readTickets([id], call())
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    const [read] = r.value
    assert.ok(read)
    return read
  }
  const body = (o: Record<string, unknown>) =>
    JSON.stringify({ Type: 'ticket', CompanyId: 'acme', ID: 1001, ...o })
  const keyUrl = () =>
    `${sim.url}/${sim.state.codebase}apis/3.0/system/callbackkeys/${encodeURIComponent(sim.state.signingKey.id)}`
  const verify = (raw: string, key: string) => {
    const push = client.push
    assert.ok(push)
    return push.verify(
      {
        headers: { 'x-content-signature': signCallback(raw, key) },
        rawBody: Buffer.from(raw),
        secret: 'unused',
        now: new Date(),
      },
      call(),
    )
  }

  before(async () => {
    sim = await startConnectWiseSim({ pageSizeMax: 2, companies: 10, tickets: 5 })
    client = clientFor(sim)
  })
  after(() => sim.close())

  test('a key_url on another host is refused without being fetched', async (t) => {
    let fetched = 0
    const evil = createServer((_req, res) => {
      fetched++
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"signing_key":"evil"}')
    })
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve))
    t.after(() => new Promise<void>((resolve) => evil.close(() => resolve())))
    const { port } = evil.address() as AddressInfo
    const raw = body({
      Metadata: { key_url: `http://127.0.0.1:${port}/v4_6_release/apis/3.0/system/callbackkeys/x` },
    })
    const verdict = await verify(raw, 'evil')
    assert.equal(verdict.ok, false)
    assert.match(verdict.ok ? '' : verdict.reason, /host/)
    assert.equal(fetched, 0)
  })

  test('a callback for another company is refused; a good one names its ticket', async () => {
    const good = await verify(body({ Metadata: { key_url: keyUrl() } }), sim.state.signingKey.key)
    assert.deepEqual(good, { ok: true, ticketIds: ['1001'] })
    const other = await verify(
      body({ CompanyId: 'globex', Metadata: { key_url: keyUrl() } }),
      sim.state.signingKey.key,
    )
    assert.equal(other.ok, false)
  })

  test('the signing key is kept, and fetched again when ConnectWise changed it', async () => {
    const fetches = () => sim.callsTo(/callbackkeys/).length
    const raw = body({ Metadata: { key_url: keyUrl() } })
    await verify(raw, sim.state.signingKey.key)
    const before = fetches()
    assert.equal((await verify(raw, sim.state.signingKey.key)).ok, true)
    assert.equal(fetches(), before, 'kept')
    sim.state.signingKey.key = 'rotated-key'
    assert.equal((await verify(raw, 'rotated-key')).ok, true)
    assert.equal(fetches(), before + 1, 'fetched again once')
    assert.equal((await verify(raw, 'not-the-key')).ok, false)
  })

  test('registering twice for one URL leaves one callback; unregistering an unknown one is fine', async () => {
    const push = client.push
    assert.ok(push)
    const target = {
      url: 'http://127.0.0.1:9/push/tok',
      secret: 's',
      deactivationUrl: 'http://127.0.0.1:9/d',
    }
    const a = await push.register(target, call())
    const b = await push.register(target, call())
    assert.ok(a.ok && b.ok)
    const mine = sim.state.callbacks.filter((c) => c.url === target.url)
    assert.equal(mine.length, 1)
    assert.deepEqual(
      { type: mine[0]?.type, level: mine[0]?.level, objectId: mine[0]?.objectId },
      { type: 'ticket', level: 'owner', objectId: 1 },
    )
    if (b.value.mode === 'registered') assert.ok((await push.unregister(b.value.registrationId, call())).ok)
    assert.ok((await push.unregister('999999', call())).ok)
    assert.equal(sim.state.callbacks.length, 0)
  })

  test('worked: a technician’s note stays work after our own note; changedBy names who changed it last', async () => {
    const id = await create()
    await sim.technician.note(id, 'Looked at it')
    assert.equal((await readOne(id)).changedBy, 'tech1')
    assert.ok((await client.appendNote(id, 'Repeated alert', noteCall())).ok)
    const r = await readOne(id)
    assert.equal(r.changedBy, sim.state.memberIdentifier)
    assert.equal(r.worked, true, 'found among the notes')
  })

  test('merged reads with the merged status and the survivor; reopen refuses a merged ticket', async () => {
    const [a, b] = [await create(), await create()]
    await sim.technician.merge(a, b)
    const r = await readOne(a)
    assert.deepEqual([r.state, r.statusName, r.mergedInto], ['merged', 'Closed (merged)', b])
    const reopened = await client.reopenTicket(a, { note: 'back', openStatus: null }, noteCall())
    assert.equal(reopened.ok, false)
  })

  test('reopen with a named status; a retry after a lost answer writes the note once', async () => {
    const id = await create()
    await sim.technician.close(id)
    const c = noteCall()
    const text = `The alert came back ${c.marker}`
    assert.ok((await client.reopenTicket(id, { note: text, openStatus: 'In Progress' }, c)).ok)
    assert.ok(
      (await client.reopenTicket(id, { note: text, openStatus: 'In Progress' }, { ...c, adopt: true })).ok,
    )
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    assert.equal(t?.statusId, 12)
    assert.equal(t?.notes.filter((x) => x.text === text).length, 1)
    await sim.technician.close(id)
    const bad = await client.reopenTicket(id, { note: 'x', openStatus: 'Cancelled' }, noteCall())
    assert.equal(bad.ok, false, 'a closed status is no status to reopen with')
  })

  test('many ids are read in lists of `id in (…)`, not one call each', async () => {
    const ids = [await create(), await create(), await create()]
    const from = sim.calls.length
    const r = await client.readTickets(ids, call())
    assert.ok(r.ok)
    assert.deepEqual(
      r.value.map((x) => x.ticketId),
      ids,
    )
    const calls = sim.calls.slice(from).map((c) => decodeURIComponent(c.url.replace(/\+/g, ' ')))
    assert.ok(calls.some((u) => /\/service\/tickets\?.*id in \(/.test(u)))
    assert.equal(calls.filter((u) => /\/service\/tickets\/\d+(\?|$)/.test(u)).length, 0)
  })

  test('the technician and the push switch over HTTP', async () => {
    const id = await create()
    const post = (action: string, b: unknown) =>
      fetch(`${sim.url}/__sim/technician/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      })
    assert.equal((await post('time', { id })).status, 204)
    assert.equal((await readOne(id)).worked, true, 'actualHours')
    assert.equal((await post('close', { id })).status, 204)
    assert.equal((await readOne(id)).state, 'closed')
    assert.equal((await post('delete', { id })).status, 204)
    assert.equal((await readOne(id)).state, 'deleted')
    const drop = await fetch(`${sim.url}/__sim/pushes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ drop: 0 }),
    })
    assert.equal(drop.status, 204)
  })
})
