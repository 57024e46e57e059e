// What only HaloPSA does: the authorisation server found from /api/authinfo (and Halo's default when it
// names none), the tenant on the token request, tokens that expire or are revoked in the middle of a run,
// Halo's error text in the failure, the connection's per-minute budget holding calls before Halo has
// to refuse them, 429 with and without Retry-After, adopting a ticket a lost answer made with documented
// query parameters only (the client's tickets of the last day whose details hold the correlation id,
// newest first; then its newest page; each candidate's reference read), notes and resolution notes
// found by their marker, texts fitted to Halo's limits, closing with the status Halo treats as closed,
// whole-invoice quantity posts, a ticket moved to another client (its main site, and team), and the
// client secret nowhere on the wire but in the token request's form.
import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { NewPsaTicket, PsaOperations, PsaResult } from '../../../src/psa/adapter.js'
import { haloPsa } from '../../../src/psa/halopsa/adapter.js'
import { adoptReads, fallbackReads } from '../../../src/psa/halopsa/adopt.js'
import { haloErrorText, limits } from '../../../src/psa/halopsa/client.js'
import { classify, closingStatus } from '../../../src/psa/halopsa/lists.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { type HaloState, startHaloPsaSim } from '../../support/sims/halopsa/server.js'
import type { StartedSim } from '../../support/sims/harness.js'
import { hold } from '../../support/wait.js'

const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = (adopt = false, ref = `halo-${Date.now()}-${n++}`) => ({
  ...call(),
  correlationId: ref,
  ref,
  marker: ref,
  adopt,
})

describe('HaloPSA adapter', () => {
  let sim: StartedSim<HaloState>
  let registry: PsaRegistry
  let settings: Record<string, unknown>
  let partner = 0
  /** A client of its own (its own token, limiter and lists), so tests do not share a pause or a budget. */
  const connect = (extra: Record<string, unknown> = {}): PsaOperations => {
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
    sim.state.briefTicketLists = true
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
    // Time passing is the test: the 1 s token expires.
    await hold(1100, 'the 1 s token expires')
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
    const mandatory = await client.createTicket(ticket({ type: 'Change Request' }), ticketCall())
    assert.match(
      mandatory.ok ? '' : mandatory.failure.message,
      /'category_1' is mandatory for tickets of type Change Request/,
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

  test('429 with Retry-After pauses the connection that long, as a wait Halo asked for; without it, five seconds', async () => {
    const client = connect()
    assert.ok((await client.lookup('boards', {}, call())).ok)
    sim.faults.set({ fail: { status: 429, count: 1, retryAfterSeconds: 7 } })
    const told = await client.lookup('boards', {}, call())
    assert.deepEqual(told.ok ? null : [told.failure.kind, told.failure.retryable, told.failure.throttled], [
      'rate-limited',
      true,
      true,
    ])
    assert.ok(Math.abs((told.ok ? 0 : (told.failure.retryAfterMs ?? 0)) - 7000) < 1500)
    const calls = sim.calls.length
    const held = await client.lookup('priorities', {}, call())
    assert.match(held.ok ? '' : held.failure.message, /asked to slow down/)
    assert.equal(held.ok ? null : held.failure.throttled, true, 'the pause was asked for')
    assert.equal(sim.calls.length, calls, 'held back without calling Halo')
    const other = connect()
    assert.ok((await other.lookup('boards', {}, call())).ok)
    sim.faults.set({ fail: { status: 429, count: 1 } })
    const bare = await other.lookup('boards', {}, call())
    assert.equal(bare.ok ? null : bare.failure.retryAfterMs, 5000)
    assert.equal(
      bare.ok ? null : bare.failure.throttled,
      undefined,
      'a bare 429 is not a wait Halo asked for',
    )
    const unavailable = connect()
    assert.ok((await unavailable.lookup('boards', {}, call())).ok)
    sim.faults.set({ fail: { status: 503, count: 1, retryAfterSeconds: 2 } })
    const busy = await unavailable.lookup('boards', {}, call())
    assert.deepEqual(busy.ok ? null : [busy.failure.kind, busy.failure.throttled], ['unavailable', true])
  })

  describe('a lost create: the retry finds the ticket with parameters Halo documents', () => {
    /** The GET /api/Tickets lists (not reads of one ticket) and the reads, since `from`. */
    const lists = (from: number) => sim.calls.slice(from).filter((c) => /^\/api\/Tickets\?/.test(c.url))
    const reads = (from: number) =>
      sim.calls.slice(from).filter((c) => c.method === 'GET' && /^\/api\/Tickets\/\d+$/.test(c.url))
    /** Tickets of client 12 opened now, newer than ours, that are not ours. */
    const others = (n: number, o: { summary?: string; details?: string } = {}) => {
      const at = new Date().toISOString()
      for (let i = 0; i < n; i++) {
        const t = sim.state.tickets.at(-1)!
        sim.state.tickets.push({
          ...t,
          id: sim.state.nextId.ticket++,
          client_id: 12,
          summary: o.summary ?? t.summary,
          details: o.details ?? 'Someone else',
          third_party_id_string: `someone-else-${i}`,
          dateoccurred: at,
        })
      }
    }

    test('the client, the last day, the details holding the correlation id, newest first: never third_party_id_string', async () => {
      const client = connect()
      const ref = `adopt-${Date.now()}`
      const made = await client.createTicket(ticket(), ticketCall(false, ref))
      assert.ok(made.ok)
      const mine = sim.state.tickets.at(-1)!
      assert.equal(mine.third_party_id_string, ref)
      assert.match(
        mine.details,
        new RegExp(`Correlation ID: ${ref}$`),
        'the details carry the correlation id',
      )
      // Another integration's ticket for the same vendor correlation id, newer than ours.
      others(1, { details: `Correlation ID: ${ref}` })
      const from = sim.calls.length
      const again = await client.createTicket(ticket(), ticketCall(true, ref))
      assert.deepEqual(again.ok ? again.value : null, { ticketId: made.value.ticketId, adopted: true })
      const [first] = lists(from)
      const q = new URL(first?.url ?? '/', 'http://sim').searchParams
      assert.deepEqual([...q.keys()].sort(), [
        'client_id',
        'datesearch',
        'enddate',
        'order',
        'orderdesc',
        'page_no',
        'page_size',
        'pageinate',
        'search_details',
        'startdate',
      ])
      assert.deepEqual(
        [
          q.get('client_id'),
          q.get('search_details'),
          q.get('datesearch'),
          q.get('order'),
          q.get('orderdesc'),
        ],
        ['12', ref, 'dateoccured', 'id', 'true'],
      )
      const since = Date.now() - Date.parse(q.get('startdate') ?? '')
      assert.ok(since > 23 * 3600_000 && since < 25 * 3600_000, 'a window of a day')
      assert.equal(reads(from).length, 2, 'the other integration’s ticket and ours were read')
    })

    test('where Halo’s search misses, the client’s newest page is read (a few tickets at most)', async () => {
      const client = connect()
      const ref = `missed-${Date.now()}`
      const made = await client.createTicket(ticket(), ticketCall(false, ref))
      assert.ok(made.ok)
      // Halo's search does not find it (its matching rules are not documented).
      sim.state.tickets.at(-1)!.details = 'No reference here'
      others(2, { summary: 'Something else entirely' })
      const from = sim.calls.length
      const again = await client.createTicket(ticket(), ticketCall(true, ref))
      assert.deepEqual(again.ok ? again.value : null, { ticketId: made.value.ticketId, adopted: true })
      assert.equal(lists(from).length, 2)
      assert.equal(reads(from).length, 1, 'tickets whose summary cannot be ours are not read')
    })

    test('a retry that finds nothing reads a bounded number of tickets, however many look alike', async () => {
      const client = connect()
      others(40, { summary: 'Disk failure on SRV01' })
      const before = sim.state.tickets.length
      const from = sim.calls.length
      const r = await client.createTicket(ticket(), ticketCall(true, `fresh-${Date.now()}`))
      assert.deepEqual(r.ok ? r.value.adopted : null, false)
      assert.equal(sim.state.tickets.length, before + 1)
      assert.ok(reads(from).length <= fallbackReads, `${reads(from).length} tickets read`)
      assert.ok(lists(from).length <= 2)
    })

    test('a server that ignores the search: the same look-up reads a bounded number of tickets', async () => {
      const client = connect()
      others(40, { summary: 'Disk failure on SRV01', details: 'Correlation ID: everyone' })
      const from = sim.calls.length
      // Every ticket's details hold the searched text: as if Halo did not apply search_details.
      const r = await client.createTicket(ticket(), ticketCall(true, 'everyone'))
      assert.deepEqual(r.ok ? r.value.adopted : null, false)
      assert.ok(reads(from).length <= adoptReads + fallbackReads, `${reads(from).length} tickets read`)
    })

    test('a search Halo refuses (400): the client’s tickets of the day are looked at instead', async () => {
      const client = connect()
      const ref = `unsearched-${Date.now()}`
      const made = await client.createTicket(ticket(), ticketCall(false, ref))
      assert.ok(made.ok)
      sim.faults.set({ fail: { status: 400, count: 2, match: 'search_details' } })
      const from = sim.calls.length
      const again = await client.createTicket(ticket(), ticketCall(true, ref))
      assert.deepEqual(again.ok ? again.value : null, { ticketId: made.value.ticketId, adopted: true })
      assert.equal(lists(from).length, 3, 'refused, refused without the window, then without the search')
      sim.faults.set({ fail: { status: 500, count: 1, match: 'search_details' } })
      const failed = await client.createTicket(ticket(), ticketCall(true, ref))
      assert.deepEqual(failed.ok ? null : [failed.failure.kind, failed.failure.retryable], [
        'unavailable',
        true,
      ])
    })

    test('a date window Halo refuses (400) is asked again without it', async () => {
      const client = connect()
      const ref = `undated-${Date.now()}`
      const made = await client.createTicket(ticket(), ticketCall(false, ref))
      assert.ok(made.ok)
      sim.faults.set({ fail: { status: 400, count: 1, match: 'datesearch' } })
      const from = sim.calls.length
      const again = await client.createTicket(ticket(), ticketCall(true, ref))
      assert.deepEqual(again.ok ? again.value : null, { ticketId: made.value.ticketId, adopted: true })
      const [refused, undated] = lists(from)
      assert.match(refused?.url ?? '', /datesearch=dateoccured/)
      assert.doesNotMatch(undated?.url ?? '', /datesearch|startdate|enddate/)
      assert.match(undated?.url ?? '', /order=id&orderdesc=true/)
    })

    test('lists that carry third_party_id_string decide without reading a ticket', async () => {
      sim.state.briefTicketLists = false
      const client = connect()
      const ref = `listed-${Date.now()}`
      const made = await client.createTicket(ticket(), ticketCall(false, ref))
      assert.ok(made.ok)
      const from = sim.calls.length
      const again = await client.createTicket(ticket(), ticketCall(true, ref))
      assert.deepEqual(again.ok ? again.value : null, { ticketId: made.value.ticketId, adopted: true })
      assert.equal(reads(from).length, 0)
    })
  })

  test('notes: a retry looks for its marker among the ticket’s actions and writes nothing when it is there', async () => {
    const client = connect()
    const made = await client.createTicket(ticket(), ticketCall())
    assert.ok(made.ok)
    const id = Number(made.value.ticketId)
    const marker = `m-${Date.now()}`
    const note = `Update: still failing\n\nMessage ID: ${marker}`
    assert.ok((await client.appendNote(made.value.ticketId, note, { ...ticketCall(), marker })).ok)
    const from = sim.calls.length
    const again = await client.appendNote(made.value.ticketId, note, { ...ticketCall(true), marker })
    assert.ok(again.ok)
    assert.equal(sim.state.actions.filter((a) => a.ticket_id === id).length, 1, 'one note')
    const [listed, ...rest] = sim.calls.slice(from)
    assert.match(listed?.url ?? '', new RegExp(`^/api/Actions\\?ticket_id=${id}&startdate=`))
    assert.deepEqual(rest, [], 'nothing posted')
    // Without it on the ticket, the retry writes the note.
    const other = `m-other-${Date.now()}`
    const written = await client.appendNote(made.value.ticketId, `Update\n\nMessage ID: ${other}`, {
      ...ticketCall(true),
      marker: other,
    })
    assert.ok(written.ok)
    assert.equal(sim.state.actions.filter((a) => a.ticket_id === id).length, 2)
  })

  test('close on a retry: the resolution note is there but the status did not move, so only the status is set', async () => {
    const client = connect()
    const made = await client.createTicket(ticket(), ticketCall())
    assert.ok(made.ok)
    const t = sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)!
    const marker = `m-close-${Date.now()}`
    // The earlier attempt's action, which did not move the status (an instance not honouring new_status).
    sim.state.actions.push({
      id: sim.state.nextId.action++,
      ticket_id: t.id,
      outcome: 'Private Note',
      outcome_id: 2,
      note: `Resolved: healed\n\nMessage ID: ${marker}`,
      hiddenfromuser: true,
      sendemail: false,
      new_status: 9,
      datetime: new Date().toISOString(),
    })
    const from = sim.calls.length
    const closed = await client.closeTicket(
      made.value.ticketId,
      { note: `Resolved: healed\n\nMessage ID: ${marker}`, closedStatus: null },
      { ...ticketCall(true), marker },
    )
    assert.deepEqual(closed.ok ? closed.value : null, { alreadyClosed: false })
    assert.equal(t.status_id, 9)
    assert.equal(sim.state.actions.filter((a) => a.ticket_id === t.id).length, 1, 'one resolution note')
    assert.deepEqual(
      sim.calls
        .slice(from)
        .filter((c) => c.method === 'POST')
        .map((c) => [c.url, c.body]),
      [['/api/Tickets', [{ id: t.id, status_id: 9 }]]],
    )
    // Found closed on a retry: the earlier attempt's doing.
    const again = await client.closeTicket(
      made.value.ticketId,
      { note: 'Resolved', closedStatus: null },
      { ...ticketCall(true), marker },
    )
    assert.deepEqual(again.ok ? again.value : null, { alreadyClosed: false })
  })

  test('long texts fit: the summary cut at a word with “…”, details and notes within the caps, the Message ID kept', async () => {
    const client = connect()
    const title = `Backup failed on ${'the file server of the branch office '.repeat(12)}`
    const made = await client.createTicket(
      ticket({ summary: title, description: `${'Log line. '.repeat(20_000)}\n\nMessage ID: m-long` }),
      ticketCall(),
    )
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    const t = sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)!
    assert.ok(t.summary.length <= limits.title && t.summary.endsWith('…'), t.summary)
    assert.ok(t.details.startsWith(title.trim()), 'the whole title opens the details')
    assert.ok(t.details.length <= limits.description)
    assert.match(t.details, /characters cut here to fit HaloPSA's limit of 100000/)
    assert.match(t.details, /\n\nMessage ID: m-long\nCorrelation ID: halo-/, 'both reference lines kept')
    const note = `${'Evidence. '.repeat(20_000)}\n\nMessage ID: m-long-note`
    assert.ok((await client.appendNote(made.value.ticketId, note, ticketCall())).ok)
    const written = sim.state.actions.filter((a) => a.ticket_id === t.id).at(-1)!
    assert.ok(written.note.length <= limits.note && written.note.endsWith('Message ID: m-long-note'))
    const closed = await client.closeTicket(made.value.ticketId, { note, closedStatus: null }, ticketCall())
    assert.ok(closed.ok, closed.ok ? '' : closed.failure.message)
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
    const outcomes = await client.lookup('noteTypes', {}, call())
    assert.deepEqual(outcomes.ok ? outcomes.value.map((o) => o.name) : null, [
      'Note Added',
      'Private Note',
      'Email User',
      'Resolved',
    ])
    for (const what of ['sources', 'categories'] as const)
      assert.deepEqual((await client.lookup(what, {}, call())).ok, true)
    const statuses = await client.lookup('statuses', {}, call())
    assert.deepEqual(statuses.ok ? statuses.value.filter((s) => s.closed).map((s) => s.name) : null, [
      'Closed',
      'Archived',
    ])
  })

  test('moveTicket: one POST of the ticket with the client, its main site and the team; bad client refused; gone ticket not-found', async () => {
    const client = connect()
    const made = await client.createTicket(ticket(), ticketCall())
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    const id = made.value.ticketId
    const t = sim.state.tickets.find((x) => String(x.id) === id)!
    assert.deepEqual([t.client_id, t.site_id], [12, 100])
    const move = client.moveTicket
    assert.ok(move, 'HaloPSA moves tickets')
    // The simulator refuses a client change that keeps the old client's site.
    const kept = await fetch(`${sim.url}/api/Tickets`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: String(sim.callsTo(/^\/api\/Tickets$/i, 'POST').at(-1)?.headers.authorization),
      },
      body: JSON.stringify([{ id: Number(id), client_id: 13 }]),
    })
    assert.equal(kept.status, 400)
    assert.match(await kept.text(), /Site 100 does not belong to Client 13/)
    const moved = await move.call(client, id, { companyId: '13', board: 'Security Operations' }, ticketCall())
    assert.deepEqual(moved.ok ? moved.value : moved.failure, null)
    assert.deepEqual(
      [t.client_id, t.client_name, t.site_id, t.team],
      [13, 'Globex Ltd', 101, 'Security Operations'],
    )
    assert.deepEqual(sim.callsTo(/\/api\/Tickets$/i, 'POST').at(-1)?.body, [
      { id: Number(id), client_id: 13, site_id: 101, team: 'Security Operations' },
    ])
    for (const [to, text] of [
      [{ companyId: '99999', board: null }, /no client 99999/],
      [{ companyId: 'Globex', board: null }, /client ids are numbers/],
      [{ companyId: '12', board: 'No Such Team' }, /no team 'No Such Team'/],
    ] as const) {
      const r: PsaResult<null> = await move.call(client, id, to, ticketCall())
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['rejected', false])
      assert.match(r.ok ? '' : r.failure.message, text)
    }
    assert.equal(t.client_id, 13, 'a refused move changes nothing')
    const gone = await move.call(client, '987654', { companyId: '12', board: null }, ticketCall())
    assert.equal(gone.ok ? 'ok' : gone.failure.kind, 'not-found')
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
