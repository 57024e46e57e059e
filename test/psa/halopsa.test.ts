// What only HaloPSA does: the authorisation server found from /api/authinfo (and Halo's default when it
// names none), the tenant on the token request, tokens that expire or are revoked in the middle of a run,
// Halo's error text in the failure, the connection's per-minute budget holding calls before Halo has
// to refuse them, 429 with and without Retry-After, adopting a ticket from a list that leaves out our
// reference, closing with the status Halo treats as closed, whole-invoice quantity posts, and the client
// secret nowhere on the wire but in the token request's form.
import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, test } from 'node:test'
import { createOutboundHttp } from '../../src/outbound/http.js'
import type { NewPsaTicket, PsaClient } from '../../src/psa/adapter.js'
import { haloPsa } from '../../src/psa/halopsa/adapter.js'
import { haloErrorText } from '../../src/psa/halopsa/client.js'
import { classify, closingStatus } from '../../src/psa/halopsa/lists.js'
import { PsaRegistry } from '../../src/psa/registry.js'
import { type HaloState, startHaloPsaSim } from '../sims/halopsa/server.js'
import type { StartedSim } from '../sims/harness.js'

const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = (adopt = false, ref = `halo-${Date.now()}-${n++}`) => ({
  ...call(),
  correlationId: ref,
  ref,
  adopt,
})

describe('HaloPSA adapter', () => {
  let sim: StartedSim<HaloState>
  let registry: PsaRegistry
  let settings: Record<string, unknown>
  let partner = 0
  /** A client of its own (its own token, limiter and lists), so tests do not share a pause or a budget. */
  const connect = (extra: Record<string, unknown> = {}): PsaClient => {
    const c = registry.connect(`p-halo-${partner++}`, {
      kind: 'halopsa',
      settings: { ...settings, ...extra },
    })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  const ticket = (o: Partial<NewPsaTicket> = {}): NewPsaTicket => ({
    companyId: '12',
    board: 'Service Desk',
    priority: null,
    type: null,
    status: null,
    summary: 'Disk failure on SRV01',
    description: 'SMART errors',
    ...o,
  })
  const tokenCalls = () => sim.callsTo(/\/token$/i, 'POST').length

  before(async () => {
    sim = await startHaloPsaSim({ clients: 150 })
    registry = new PsaRegistry([
      haloPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
    ])
    settings = {
      baseUrl: sim.url,
      clientId: sim.state.credentials.clientId,
      clientSecret: sim.state.credentials.clientSecret,
    }
  })
  after(() => sim.close())
  beforeEach(() => {
    sim.faults.clear()
    sim.state.authInfo = { auth_url: `${sim.url}/auth` }
    sim.state.credentials.tenant = null
    sim.state.rateLimit = null
    sim.state.tokenLifetimeSeconds = 3600
    sim.state.briefTicketLists = false
  })

  test('a token revoked in the middle of a run: the 401 brings one new token and every call goes through', async () => {
    const client = connect()
    assert.ok((await client.lookup('boards', {}, call())).ok)
    const before = tokenCalls()
    sim.state.tokens = {}
    const results = await Promise.all([
      client.lookup('priorities', {}, call()),
      client.lookup('types', {}, call()),
      client.createTicket(ticket(), ticketCall()),
      client.lookup('boards', {}, call()),
    ])
    assert.deepEqual(
      results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.failure.message)),
      [],
    )
    assert.equal(tokenCalls(), before + 1, 'one new token for all of them')
  })

  test('a token that expires on its own is renewed before Halo refuses it', async () => {
    sim.state.tokenLifetimeSeconds = 1
    const client = connect()
    assert.ok((await client.lookup('boards', {}, call())).ok)
    const before = tokenCalls()
    const teamCalls = sim.callsTo(/\/api\/team$/i).length
    await new Promise((r) => setTimeout(r, 1100))
    assert.ok((await client.lookup('boards', {}, call())).ok)
    assert.equal(tokenCalls(), before + 1)
    assert.equal(sim.callsTo(/\/api\/team$/i).length, teamCalls + 1, 'no call was refused first')
  })

  test('the authorisation server is the one /api/authinfo names, on baseUrl’s host; Halo’s default without one', async () => {
    sim.state.authInfo = { auth_url: 'https://auth.elsewhere.example/identity/' }
    const named = await connect().test(call())
    assert.ok(named.ok, named.ok ? '' : named.failure.message)
    assert.match(named.value.detail, new RegExp(`authorisation server ${sim.url}/identity\\)`))
    assert.equal(sim.callsTo(/^\/identity\/token$/, 'POST').length, 1)
    for (const info of [null, { AuthServer: 42 }, { auth_url: 'not a url' }]) {
      sim.state.authInfo = info
      const before = sim.callsTo(/^\/auth\/token$/, 'POST').length
      const fallback = await connect().test(call())
      assert.ok(fallback.ok, `${JSON.stringify(info)}: ${fallback.ok ? '' : fallback.failure.message}`)
      assert.equal(sim.callsTo(/^\/auth\/token$/, 'POST').length, before + 1)
    }
  })

  test('the tenant goes on the token request: from the settings, else from authinfo; without it the test says so', async () => {
    sim.state.credentials.tenant = 'acme'
    const missing = await connect().test(call())
    assert.equal(missing.ok, false)
    assert.match(
      missing.ok ? '' : missing.failure.message,
      /^HaloPSA refused the credentials \(clientId, clientSecret, tenant\): .*tenant/,
    )
    const given = await connect({ tenant: 'acme' }).test(call())
    assert.ok(given.ok, given.ok ? '' : given.failure.message)
    assert.match(sim.calls.at(-3)?.url ?? '', /^\/auth\/token\?tenant=acme$/)
    sim.state.authInfo = { auth_url: `${sim.url}/auth`, tenant_id: 'acme' }
    const discovered = await connect().test(call())
    assert.ok(discovered.ok, discovered.ok ? '' : discovered.failure.message)
  })

  test("Halo's own error text reaches the failure: plain text, and its JSON shapes", async () => {
    const client = connect()
    const unknown = await client.createTicket(ticket({ companyId: '99999' }), ticketCall())
    assert.deepEqual(
      unknown.ok ? null : [unknown.failure.kind, unknown.failure.status, unknown.failure.message],
      ['rejected', 400, 'Client 99999 does not exist.'],
    )
    const mandatory = await client.createTicket(ticket({ type: 'Alert', description: '' }), ticketCall())
    assert.match(
      mandatory.ok ? '' : mandatory.failure.message,
      /'details' is mandatory for tickets of type Alert/,
    )
    const noTeam = await client.createTicket(ticket({ board: 'Night Shift' }), ticketCall())
    assert.match(noTeam.ok ? '' : noTeam.failure.message, /HaloPSA has no team 'Night Shift'/)
    assert.equal(haloErrorText({ message: 'Ticket is locked' }), 'Ticket is locked')
    assert.equal(haloErrorText({ Message: 'An error has occurred.' }), 'An error has occurred.')
    assert.equal(
      haloErrorText({ error: 'invalid_client', error_description: 'Client authentication failed.' }),
      'invalid_client: Client authentication failed.',
    )
    assert.equal(
      haloErrorText({ title: 'One or more validation errors occurred.', errors: { summary: ['Required'] } }),
      'One or more validation errors occurred.: Required',
    )
    assert.equal(haloErrorText({ errors: ['Bad site'] }), 'Bad site')
    assert.equal(haloErrorText({ id: 3 }), null)
  })

  test('the per-minute budget holds calls back before Halo has to refuse them', async () => {
    sim.state.rateLimit = { requests: 5, perSeconds: 60 }
    sim.state.requestTimes = []
    const client = connect({ rateLimitPerMinute: 4 })
    const results = []
    for (let i = 0; i < 6; i++) results.push(await client.lookup('boards', {}, call()))
    // authinfo, the token request and two look-ups spend the budget of 4; the rest wait a minute.
    assert.equal(results.filter((r) => r.ok).length, 2)
    for (const r of results.filter((x) => !x.ok)) {
      assert.equal(r.ok ? null : r.failure.kind, 'rate-limited')
      assert.match(r.ok ? '' : r.failure.message, /budget of 4 requests per minute is spent/)
      assert.ok((r.ok ? 0 : (r.failure.retryAfterMs ?? 0)) > 0)
    }
    assert.equal(
      sim.state.requestTimes.length,
      2,
      'Halo saw only what the budget let through, and refused none',
    )
  })

  test('429 with Retry-After pauses the connection that long; without it, five seconds', async () => {
    const client = connect()
    assert.ok((await client.lookup('boards', {}, call())).ok)
    sim.faults.set({ fail: { status: 429, count: 1, retryAfterSeconds: 7 } })
    const told = await client.lookup('boards', {}, call())
    assert.deepEqual(told.ok ? null : [told.failure.kind, told.failure.retryable], ['rate-limited', true])
    assert.ok(Math.abs((told.ok ? 0 : (told.failure.retryAfterMs ?? 0)) - 7000) < 1500)
    const calls = sim.calls.length
    const held = await client.lookup('priorities', {}, call())
    assert.match(held.ok ? '' : held.failure.message, /asked to slow down/)
    assert.equal(sim.calls.length, calls, 'held back without calling Halo')
    const other = connect()
    assert.ok((await other.lookup('boards', {}, call())).ok)
    sim.faults.set({ fail: { status: 429, count: 1 } })
    const bare = await other.lookup('boards', {}, call())
    assert.equal(bare.ok ? null : bare.failure.retryAfterMs, 5000)
  })

  test('a retry adopts the ticket even where lists leave out third_party_id_string (each ticket is read)', async () => {
    const client = connect()
    const ref = `adopt-${Date.now()}`
    const made = await client.createTicket(ticket(), ticketCall(false, ref))
    assert.ok(made.ok)
    assert.equal(sim.state.tickets.at(-1)?.third_party_id_string, ref)
    sim.state.briefTicketLists = true
    // Another ticket, made first in the list: it must not be taken for ours.
    sim.state.tickets.unshift({ ...sim.state.tickets.at(-1)!, id: 1, third_party_id_string: 'someone-else' })
    try {
      const again = await client.createTicket(ticket(), ticketCall(true, ref))
      assert.deepEqual(again.ok ? again.value : null, { ticketId: made.value.ticketId, adopted: true })
    } finally {
      sim.state.tickets.shift()
    }
  })

  test('close: one hidden action carries the note and Halo’s own closed status (9, not a name that sounds closed)', async () => {
    const client = connect()
    const made = await client.createTicket(ticket({ type: 'Alert', priority: 'Low' }), ticketCall())
    assert.ok(made.ok)
    const t = sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)!
    assert.deepEqual([t.team, t.tickettype_id, t.priority_id], ['Service Desk', 27, 4])
    const closed = await client.closeTicket(
      made.value.ticketId,
      { note: 'Healed', closedStatus: null },
      {
        ...ticketCall(),
      },
    )
    assert.ok(closed.ok)
    const [action] = sim.state.actions.filter((a) => a.ticket_id === t.id)
    assert.deepEqual(
      [action?.note, action?.new_status, action?.hiddenfromuser, action?.sendemail, action?.outcome],
      ['Healed', 9, true, false, 'Private Note'],
    )
    assert.deepEqual([t.status_id, t.hasbeenclosed], [9, true])
    const statuses = await client.lookup('statuses', {}, call())
    assert.deepEqual(statuses.ok ? statuses.value.filter((s) => s.closed).map((s) => s.name) : null, [
      'Closed',
      'Archived',
    ])
  })

  test('closed statuses: a per-status flag where given; Halo’s fixed Closed (9) where nothing tells', () => {
    const all = [
      { id: 8, name: 'Resolved' },
      { id: 9, name: 'Closed' },
      { id: 30, name: 'Done' },
    ]
    assert.deepEqual(
      classify(all, all).map((s) => s.closed),
      [false, true, false],
      'excludeclosed ignored: only 9',
    )
    const flagged = all.map((s) => ({ ...s, isclosed: s.id === 30 }))
    assert.deepEqual(closingStatus(classify(flagged, flagged))?.id, '30')
    assert.deepEqual(closingStatus(classify(all, all.slice(0, 1)))?.id, '9', '9 first among the closed ones')
  })

  test('usage: the invoice header goes back with every line, only the one quantity changed', async () => {
    const client = connect()
    const lines = await client.billingLines('12', call())
    assert.ok(lines.ok)
    assert.deepEqual(
      lines.value.map((l) => [l.id, l.productId, l.agreementName]),
      [
        ['-94:24963', '1402', 'Managed services'],
        ['-94:24964', '1394', 'Managed services'],
        ['-94:24965', '783', 'Managed services'],
        ['-95:24970', '1500', 'Security add-ons'],
      ],
    )
    const set = await client.setQuantity('-94:24964', 52, {
      ...call(),
      effectiveDate: new Date().toISOString(),
    })
    assert.deepEqual(set.ok ? set.value : null, { previous: 40 })
    const header = sim.state.recurringInvoices.find((h) => h.id === -94)!
    assert.deepEqual(
      header.lines.map((l) => [l.id, l.qty_order]),
      [
        [24963, 1],
        [24964, 52],
        [24965, 25],
      ],
    )
    const wrong = await client.setQuantity('24964', 1, { ...call(), effectiveDate: '' })
    assert.equal(wrong.ok ? null : wrong.failure.kind, 'rejected')
    const gone = await client.setQuantity('-94:1', 1, { ...call(), effectiveDate: '' })
    assert.equal(gone.ok ? null : gone.failure.kind, 'not-found')
  })

  test('the client secret is on the wire only in the token request’s form; every API call carries the bearer token', async () => {
    const client = connect()
    await client.test(call())
    await client.createTicket(ticket(), ticketCall())
    const secret = String(settings.clientSecret)
    const tokenRequests = sim.calls.filter((c) => /\/token(\?|$)/.test(c.url))
    const rest = sim.calls.filter((c) => !tokenRequests.includes(c))
    assert.ok(tokenRequests.length > 0 && rest.length > 5)
    assert.equal(
      sim.calls.some((c) => c.url.includes(secret) || c.url.includes(encodeURIComponent(secret))),
      false,
      'no URL holds the secret',
    )
    for (const c of tokenRequests) {
      assert.match(String(c.headers['content-type']), /^application\/x-www-form-urlencoded/)
      assert.equal(c.headers.authorization, undefined)
    }
    for (const c of rest) {
      assert.equal(JSON.stringify([c.headers, c.body]).includes(secret), false, `${c.method} ${c.url}`)
      if (c.url.toLowerCase().startsWith('/api/') && !/authinfo/i.test(c.url))
        assert.match(String(c.headers.authorization), /^Bearer halo-/)
    }
  })
})
