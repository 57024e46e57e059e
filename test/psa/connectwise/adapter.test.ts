// What only ConnectWise does: the codebase found again after a cloud upgrade moved it, the
// connection test's one sentence for each way a connection goes wrong, its billing lines (agreement
// additions: cancelled ones left out, the quantity replaced by a JSON-Patch), the look-ups a retry makes
// after a lost answer (and what they must not mistake for ours), text fitted to its limits, and a
// ticket moved to another company (and board).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations, PsaResult } from '../../../src/psa/adapter.js'
import { connectWisePsa } from '../../../src/psa/connectwise/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { type ConnectWiseState, startConnectWiseSim } from '../../support/sims/connectwise/server.js'
import type { StartedSim } from '../../support/sims/harness.js'

const keys = {
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'priv-key',
  clientId: '00000000-0000-4000-8000-000000000001',
}
const call = () => ({ signal: AbortSignal.timeout(5000) })

describe('ConnectWise adapter', () => {
  let sim: StartedSim<ConnectWiseState>
  const registry = new PsaRegistry([
    connectWisePsa({
      http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }),
    }),
  ])
  const connect = (partnerId: string, settings: Record<string, unknown>): PsaOperations => {
    const c = registry.connect(partnerId, { kind: 'connectwise', settings })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  before(async () => {
    sim = await startConnectWiseSim({ deny: ['/service/tickets'] })
  })
  after(() => sim.close())

  const testOf = async (settings: Record<string, unknown>, partnerId = `p-${Math.random()}`) => {
    const r = await connect(partnerId, settings).test(call())
    return r.ok ? `OK ${r.value.detail}` : r.failure.message
  }

  test('the connection test says in one sentence what is wrong', async () => {
    assert.match(
      await testOf({ ...keys, baseUrl: sim.url, privateKey: 'wrong' }),
      /refused the credentials \(companyId, publicKey, privateKey\)/,
    )
    assert.match(await testOf({ ...keys, baseUrl: sim.url, clientId: 'not-registered' }), /clientId/)
    assert.match(
      await testOf({ ...keys, baseUrl: sim.url, companyId: 'nobody' }),
      /does not know company id 'nobody'/,
    )
    assert.match(await testOf({ ...keys, baseUrl: sim.url }), /may not read service tickets/)
    assert.match(await testOf({ ...keys, baseUrl: 'http://127.0.0.1:9' }), /cannot be reached/)
  })

  test('a moved codebase (a cloud upgrade) is found again after the 404, and the call goes through', async () => {
    const client = connect('p-upgrade', { ...keys, baseUrl: sim.url })
    const before = await client.lookup('boards', {}, call())
    assert.ok(before.ok)
    sim.state.codebase = 'v2026_1/'
    const after = await client.lookup('priorities', {}, call())
    assert.ok(after.ok, after.ok ? '' : after.failure.message)
    assert.ok(
      sim.callsTo(/^\/v2026_1\/apis\/3\.0\/service\/priorities$/).length > 0,
      'the new codebase was used',
    )
    sim.state.codebase = 'v4_6_release/'
  })

  test('billing lines: the additions of the company’s agreements, without cancelled agreements or additions', async () => {
    const lines = await connect('p-billing', { ...keys, baseUrl: sim.url }).billingLines('1', call())
    assert.ok(lines.ok, lines.ok ? '' : lines.failure.message)
    assert.deepEqual(
      lines.value.map((l) => [l.id, l.productId, l.agreementName, l.quantity]),
      [
        ['112:3301', '901', 'Acme - Managed Services', 25],
        ['112:3302', '902', 'Acme - Managed Services', 4],
      ],
    )
    assert.match(lines.value[0]?.name ?? '', /AV-SEAT/)
    const byIdentifier = await connect('p-billing', { ...keys, baseUrl: sim.url }).billingLines(
      'Globex',
      call(),
    )
    assert.deepEqual(byIdentifier.ok ? byIdentifier.value.map((l) => l.id) : byIdentifier, ['118:3310'])
  })

  test('a quantity is replaced with one JSON-Patch operation, and the one it had is answered', async () => {
    const client = connect('p-patch', { ...keys, baseUrl: sim.url })
    const before = sim.callsTo(/\/additions\/3310$/, 'PATCH').length
    const set = await client.setQuantity('118:3310', 42, {
      ...call(),
      effectiveDate: new Date().toISOString(),
    })
    assert.deepEqual(set.ok ? set.value : set.failure, { previous: 40 })
    const patches = sim.callsTo(/\/additions\/3310$/, 'PATCH')
    assert.equal(patches.length, before + 1)
    assert.deepEqual(patches.at(-1)?.body, [{ op: 'replace', path: 'quantity', value: 42 }])
    const same = await client.setQuantity('118:3310', 42, {
      ...call(),
      effectiveDate: new Date().toISOString(),
    })
    assert.ok(same.ok)
    assert.equal(
      sim.callsTo(/\/additions\/3310$/, 'PATCH').length,
      before + 1,
      'the same count sends nothing',
    )
  })

  test('a malformed line id, a cancelled addition or a missing one: clear failures that are not retried', async () => {
    const client = connect('p-bad-line', { ...keys, baseUrl: sim.url })
    const usage = () => ({ ...call(), effectiveDate: new Date().toISOString() })
    for (const [lineId, kind, text] of [
      ['3301', 'rejected', /not a ConnectWise billing line.*\{agreementId\}:\{additionId\}/],
      ['112:abc', 'rejected', /not a ConnectWise billing line/],
      ['112:3303', 'rejected', /addition 3303 of agreement 112 is cancelled/],
      ['112:9999', 'not-found', /Agreement addition 9999 not found/],
    ] as const) {
      const r = await client.setQuantity(lineId, 5, usage())
      assert.equal(r.ok, false, lineId)
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], [kind, false], lineId)
      assert.match(r.ok ? '' : r.failure.message, text)
    }
  })
})

describe('ConnectWise tickets after a lost answer, and long text', () => {
  let sim: StartedSim<ConnectWiseState>
  let client: PsaOperations
  let n = 0
  const ticketCall = (over: { ref?: string; marker?: string; adopt?: boolean } = {}) => {
    const ref = over.ref ?? `cw-unit-${Date.now()}-${n++}`
    return { ...call(), correlationId: ref, ref, marker: over.marker ?? ref, adopt: over.adopt ?? false }
  }
  const newTicket = { companyId: '1', board: 'Service Desk', priority: null, status: null, type: null }
  before(async () => {
    sim = await startConnectWiseSim()
    const registry = new PsaRegistry([
      connectWisePsa({
        http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }),
      }),
    ])
    const c = registry.connect('p-lost', { kind: 'connectwise', settings: { ...keys, baseUrl: sim.url } })
    if (!c.ok) throw new Error(c.failure.message)
    client = c.client
  })
  after(() => sim.close())
  const ticket = (id: string) => {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no ticket ${id}`)
    return t
  }
  const made = async (ref?: string) => {
    const r = await client.createTicket(
      { ...newTicket, summary: 'Malware on WS-042', description: 'Quarantined.' },
      ticketCall({ ref }),
    )
    if (!r.ok) throw new Error(r.failure.message)
    return r.value.ticketId
  }

  test('the adopt look-up asks by externalXRef, newest first, and adopts only an exact match', async () => {
    // Another integration's ticket whose reference differs from ours only in case: ConnectWise's `=`
    // matches it, the adapter does not adopt it.
    const ref = `case-ref-${Date.now()}`
    const theirs = await made(ref.toUpperCase())
    const before = sim.state.tickets.length
    const r = await client.createTicket(
      { ...newTicket, summary: 'Malware on WS-042', description: 'Quarantined.' },
      ticketCall({ ref, adopt: true }),
    )
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    assert.equal(r.value.adopted, false)
    assert.notEqual(r.value.ticketId, theirs)
    assert.equal(sim.state.tickets.length, before + 1)
    const lookup = sim.callsTo(/\/service\/tickets$/, 'GET').at(-1)
    const q = new URL(lookup?.url ?? '', sim.url).searchParams
    assert.equal(q.get('conditions'), `externalXRef="${ref}"`)
    assert.equal(q.get('orderBy'), 'id desc')
    const again = await client.createTicket(
      { ...newTicket, summary: 'Malware on WS-042', description: 'Quarantined.' },
      ticketCall({ ref, adopt: true }),
    )
    assert.deepEqual(again.ok ? again.value : again.failure, { ticketId: r.value.ticketId, adopted: true })
  })

  test('a note retry: a note whose Message ID only starts with ours is not ours; ours is found', async () => {
    const id = await made()
    const marker = `m-${Date.now()}`
    const other = await client.appendNote(
      id,
      `Other\n\nMessage ID: ${marker}0`,
      ticketCall({ marker: `${marker}0` }),
    )
    assert.ok(other.ok)
    const note = `Update\n\nMessage ID: ${marker}`
    assert.ok((await client.appendNote(id, note, ticketCall({ marker, adopt: true }))).ok)
    assert.equal(ticket(id).notes.length, 2, 'the look-alike did not stop our note')
    const lookup = sim.callsTo(new RegExp(`/service/tickets/${id}/notes$`), 'GET').at(-1)
    const q = new URL(lookup?.url ?? '', sim.url).searchParams
    assert.equal(q.get('conditions'), `text contains "${marker}"`)
    assert.equal(q.get('orderBy'), 'id desc')
    assert.ok((await client.appendNote(id, note, ticketCall({ marker, adopt: true }))).ok)
    assert.equal(ticket(id).notes.length, 2, 'our note was found: none written again')
  })

  test('a note retry where ConnectWise refuses the text condition reads the newest notes instead', async () => {
    const id = await made()
    const marker = `m-refused-${Date.now()}`
    const note = `Update\n\nMessage ID: ${marker}`
    assert.ok((await client.appendNote(id, note, ticketCall({ marker }))).ok)
    sim.faults.set({ fail: { status: 400, count: 1, match: 'notes\\?.*conditions' } })
    const again = await client.appendNote(id, note, ticketCall({ marker, adopt: true }))
    assert.ok(again.ok, again.ok ? '' : again.failure.message)
    assert.equal(ticket(id).notes.length, 1)
    const reads = sim.callsTo(new RegExp(`/service/tickets/${id}/notes$`), 'GET')
    assert.equal(reads.length, 2)
    assert.equal(new URL(reads[1]?.url ?? '', sim.url).searchParams.get('conditions'), null)
  })

  test('a close retry with nothing written before writes the resolution once and closes', async () => {
    const id = await made()
    const marker = `m-close-${Date.now()}`
    const r = await client.closeTicket(
      id,
      { note: `Resolved\n\nMessage ID: ${marker}`, closedStatus: null },
      ticketCall({ marker, adopt: true }),
    )
    assert.deepEqual(r.ok ? r.value : r.failure, { alreadyClosed: false })
    const t = ticket(id)
    assert.equal(t.closedFlag, true)
    assert.deepEqual(
      t.notes.map((x) => [x.resolutionFlag, x.text.includes(marker)]),
      [[true, true]],
    )
  })

  test('moveTicket: one PATCH of company, board and the board’s default status; bad company refused; gone ticket not-found', async () => {
    const id = await made()
    const move = client.moveTicket
    assert.ok(move, 'ConnectWise moves tickets')
    const moved = await move.call(client, id, { companyId: '2', board: 'Security' }, ticketCall())
    assert.deepEqual(moved.ok ? moved.value : moved.failure, null)
    const t = ticket(id)
    assert.deepEqual([t.companyId, t.boardId, t.statusId, t.closedFlag], [2, 2, 21, false])
    assert.deepEqual(sim.callsTo(new RegExp(`/service/tickets/${id}$`), 'PATCH').at(-1)?.body, [
      { op: 'replace', path: 'company', value: { id: 2 } },
      { op: 'replace', path: 'board', value: { id: 2 } },
      { op: 'replace', path: 'status', value: { id: 21 } },
    ])
    // By the company's identifier, without a board: the board and status stay.
    const back = await move.call(client, id, { companyId: 'AcmeCorp', board: null }, ticketCall())
    assert.ok(back.ok, back.ok ? '' : back.failure.message)
    assert.deepEqual([ticket(id).companyId, ticket(id).boardId, ticket(id).statusId], [1, 2, 21])
    for (const [to, kind, text] of [
      [{ companyId: '77777', board: null }, 'rejected', /Company 77777 not found/],
      [{ companyId: '3', board: null }, 'rejected', /Company 3 not found/],
      [{ companyId: '2', board: 'No Such Board' }, 'rejected', /no board 'No Such Board'/],
    ] as const) {
      const r: PsaResult<null> = await move.call(client, id, to, ticketCall())
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], [kind, false], to.companyId)
      assert.match(r.ok ? '' : r.failure.message, text)
    }
    assert.equal(ticket(id).companyId, 1, 'a refused move changes nothing')
    const gone = await move.call(client, '999999', { companyId: '2', board: null }, ticketCall())
    assert.equal(gone.ok ? 'ok' : gone.failure.kind, 'not-found')
  })

  test('long text fits: summary 100 with "…", description and notes 32,000 with their Message ID', async () => {
    const title = `Ransomware behaviour on ${'many hosts of the branch office '.repeat(9)}`.slice(0, 300)
    const r = await client.createTicket(
      {
        ...newTicket,
        summary: title,
        description: `${'Evidence line. '.repeat(8000)}\n\nMessage ID: m-desc`,
      },
      ticketCall(),
    )
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    const t = ticket(r.value.ticketId)
    assert.ok(t.summary.length <= 100 && t.summary.endsWith('…'), t.summary)
    const description = t.initialDescription ?? ''
    assert.ok(description.length <= 32_000, String(description.length))
    assert.ok(description.startsWith(title), 'the whole title opens the description')
    assert.ok(description.endsWith('Message ID: m-desc'))
    const note = `${'Still there. '.repeat(9000)}\n\nMessage ID: m-long`
    assert.ok((await client.appendNote(r.value.ticketId, note, ticketCall({ marker: 'm-long' }))).ok)
    const resolution = `${'Healed. '.repeat(9000)}\n\nMessage ID: m-res`
    const closed = await client.closeTicket(
      r.value.ticketId,
      { note: resolution, closedStatus: null },
      ticketCall({ marker: 'm-res' }),
    )
    assert.ok(closed.ok)
    for (const [text, marker] of ticket(r.value.ticketId).notes.map((x, i) => [
      x.text,
      ['m-long', 'm-res'][i],
    ])) {
      assert.ok((text ?? '').length <= 32_000, String(text?.length))
      assert.ok((text ?? '').endsWith(`Message ID: ${marker}`))
    }
  })
})
