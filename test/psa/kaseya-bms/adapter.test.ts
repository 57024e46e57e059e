// What only Kaseya BMS does: its JWT expires (renewed with the refresh token, or by a new login when
// BMS refuses the refresh), it refuses with `success: false` at HTTP 200, public clients disagree on
// where its pages start, it limits each endpoint per hour, its lookup tables have undocumented names,
// which status completes a ticket is learned from BMS, a retry after a lost answer looks for what the
// earlier attempt wrote, and a recurring service's Units may be added or replaced by the documented
// POST. Credentials go only in the login form and the Bearer header. It moves no ticket to another
// company (docs/psa/kaseya-bms.md, "Moving a ticket to another company").
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { NewPsaTicket, PsaResult } from '../../../src/psa/adapter.js'
import { kaseyaBmsPsa } from '../../../src/psa/kaseya-bms/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import type { StartedSim } from '../../support/sims/harness.js'
import {
  crowdTickets,
  type KaseyaBmsSimOptions,
  type KaseyaBmsState,
  seededTickets,
  startKaseyaBmsSim,
} from '../../support/sims/kaseya-bms/server.js'
import { hold } from '../../support/wait.js'

const login = { tenant: 'Acme MSP', username: 'api@acme-msp.example', password: 'bms-password' }
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = () => {
  const id = `bms-${Date.now()}-${n++}`
  return { ...call(), correlationId: id, ref: id, marker: id, adopt: false }
}
const ticket: NewPsaTicket = {
  companyId: '1001',
  board: 'Service Desk',
  priority: null,
  type: null,
  status: null,
  summary: 'Malware detected on WS-042',
  description: 'Trojan quarantined.',
}
const registry = new PsaRegistry([
  kaseyaBmsPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
])
const sims: StartedSim<KaseyaBmsState>[] = []
after(() => Promise.all(sims.map((s) => s.close())))

async function setup(o: KaseyaBmsSimOptions = {}, settings: Record<string, unknown> = {}) {
  const sim = await startKaseyaBmsSim({ accounts: 30, ...o })
  sims.push(sim)
  const c = registry.connect(`p-${n++}`, {
    kind: 'kaseya-bms',
    settings: { baseUrl: sim.url, ...login, ...settings },
  })
  if (!c.ok) throw new Error(c.failure.message)
  return { sim, client: c.client }
}

function value<T>(r: PsaResult<T>, what = 'call'): T {
  assert.ok(r.ok, `${what}: ${r.ok ? '' : `${r.failure.kind} ${r.failure.message}`}`)
  return r.value
}

const failure = <T>(r: PsaResult<T>) => {
  assert.equal(r.ok, false, 'a failure')
  return r.ok ? assert.fail() : r.failure
}

describe('Kaseya BMS adapter: tokens', () => {
  test('an access token that expires mid-run is renewed with the refresh token, not a new login', async () => {
    const { sim, client } = await setup({ tokenLifetimeSeconds: 1 })
    value(await client.lookup('boards', {}, call()))
    // Time passing is the test: the 1 s token expires.
    await hold(1100, 'the 1 s token expires')
    value(await client.lookup('priorities', {}, call()))
    assert.equal(sim.callsTo(/\/security\/authenticate$/).length, 1, 'one login')
    assert.equal(sim.callsTo(/\/security\/refreshtoken$/).length, 1, 'one refresh')
  })

  test('a JWT BMS stops taking (401) is renewed and the call sent again', async () => {
    const { sim, client } = await setup()
    value(await client.lookup('boards', {}, call()))
    for (const s of Object.values(sim.state.sessions)) s.accessExpiresAt = Date.now() - 1000
    value(await client.lookup('boards', {}, call()), 'after BMS let the token expire')
    assert.equal(sim.callsTo(/\/system\/queues\/lookup$/).length, 3, 'the refused call went once more')
    assert.equal(sim.callsTo(/\/security\/refreshtoken$/).length, 1)
  })

  test('a refresh BMS refuses is followed by a new login', async () => {
    const { sim, client } = await setup({ tokenLifetimeSeconds: 1 })
    value(await client.lookup('boards', {}, call()))
    for (const s of Object.values(sim.state.sessions)) s.refreshToken = 'forgotten'
    // Time passing is the test: the 1 s token expires.
    await hold(1100, 'the 1 s token expires')
    value(await client.lookup('boards', {}, call()), 'after the refresh was refused')
    assert.equal(sim.callsTo(/\/security\/refreshtoken$/).length, 1)
    assert.equal(sim.callsTo(/\/security\/authenticate$/).length, 2, 'a second login')
  })

  test('wrong credentials: BMS’s own words (HTTP 200, success false), an auth failure, one sentence', async () => {
    const { client } = await setup({}, { password: 'wrong' })
    const f = failure(await client.test(call()))
    assert.match(
      f.message,
      /^Kaseya BMS refused the credentials \(tenant, username, password\): Invalid username or password\.$/,
    )
    const made = failure(await client.createTicket(ticket, ticketCall()))
    assert.deepEqual([made.kind, made.retryable], ['auth', false])
  })

  test('no credential or token in any URL; the login is a form, the token a Bearer header', async () => {
    const { sim, client } = await setup({ tokenLifetimeSeconds: 1 })
    const made = value(await client.createTicket(ticket, ticketCall()))
    value(await client.appendNote(made.ticketId, 'still there', ticketCall()))
    // Time passing is the test: the 1 s token expires.
    await hold(1100, 'the 1 s token expires')
    value(
      await client.closeTicket(
        made.ticketId,
        { note: 'healed', closedStatus: null },
        { ...ticketCall(), adopt: false },
      ),
    )
    value(await client.lookup('companies', {}, call()))
    const tokens = Object.values(sim.state.sessions).flatMap((s) => [s.accessToken, s.refreshToken])
    const secrets = [login.password, login.username, encodeURIComponent(login.username), ...tokens]
    for (const c of sim.calls) {
      for (const secret of secrets) assert.equal(c.url.includes(secret), false, `${c.method} ${c.url}`)
      if (/\/security\//.test(c.url)) {
        assert.match(String(c.headers['content-type']), /^application\/x-www-form-urlencoded/)
        assert.equal(c.headers.authorization, undefined)
      } else assert.match(String(c.headers.authorization), /^Bearer \S+\.\S+\.\S+$/)
    }
    assert.ok(sim.callsTo(/\/security\/refreshtoken$/).length >= 1, 'the refresh ran too')
  })
})

describe('Kaseya BMS adapter: refusals and limits', () => {
  test('a business refusal at HTTP 200 is a failure that is not retried, in BMS’s own words', async () => {
    const { sim, client } = await setup()
    // Archived (old) is a status BMS keeps but no longer takes.
    const f = failure(await client.createTicket({ ...ticket, status: 'Archived (old)' }, ticketCall()))
    assert.deepEqual([f.kind, f.retryable, f.status], ['rejected', false, 200])
    assert.match(f.message, /The ticket could not be saved\.: StatusId 8 is not valid\./)
    const note = failure(
      await (await setup({}, { noteType: '99' })).client.appendNote('9003', 'x', ticketCall()),
    )
    assert.match(note.message, /Note type 99 is not valid/)
    assert.equal(sim.state.tickets.length, seededTickets, 'nothing was made')
  })

  test('each endpoint has its own hourly budget, spent before BMS has to refuse', async () => {
    const { sim, client } = await setup({}, { hourlyBudgetPerEndpoint: 3 })
    for (let i = 0; i < 3; i++) value(await client.lookup('boards', {}, call()), `boards ${i}`)
    const f = failure(await client.lookup('boards', {}, call()))
    assert.equal(f.kind, 'rate-limited')
    assert.match(f.message, /3 requests per hour for system\/queues\/lookup/)
    assert.ok((f.retryAfterMs ?? 0) > 60_000, 'until the hour frees a place')
    assert.equal(sim.callsTo(/\/system\/queues\/lookup$/).length, 3, 'the fourth never reached BMS')
    value(await client.lookup('priorities', {}, call()), 'another endpoint')
  })

  test('429 from BMS: Retry-After honoured; without one, a minute', async () => {
    const { sim, client } = await setup()
    sim.faults.set({ fail: { status: 429, count: 1, retryAfterSeconds: 2, match: 'queues' } })
    const withHeader = failure(await client.lookup('boards', {}, call()))
    assert.deepEqual(
      [withHeader.kind, withHeader.retryable, withHeader.retryAfterMs],
      ['rate-limited', true, 2000],
    )
    const other = await setup({ hourlyLimit: 2, retryAfter: false })
    value(await other.client.lookup('boards', {}, call()))
    value(await other.client.lookup('boards', {}, call()))
    const without = failure(await other.client.lookup('boards', {}, call()))
    assert.deepEqual([without.kind, without.retryAfterMs], ['rate-limited', 60_000])
    assert.match(without.message, /API rate limit exceeded: 2 calls per hour/)
    const held = failure(await other.client.lookup('priorities', {}, call()))
    assert.equal(held.kind, 'rate-limited', 'the connection waits before calling again')
  })
})

describe('Kaseya BMS adapter: pages', () => {
  const active = (sim: StartedSim<KaseyaBmsState>) => sim.state.accounts.filter((a) => a.isActive).length
  for (const [name, o] of [
    ['from 0', { firstPage: 0 }],
    ['from 1, page 0 read as page 1', { firstPage: 1, pageZero: 'first' }],
    ['from 1, page 0 empty', { firstPage: 1, pageZero: 'empty' }],
    ['from 1, page 0 refused', { firstPage: 1, pageZero: 'error' }],
  ] as const) {
    test(`every account once, pages ${name}`, async () => {
      const { sim, client } = await setup({ accounts: 250, ...o })
      const first = value(await client.lookup('companies', {}, call()))
      assert.equal(first.length, active(sim))
      assert.equal(new Set(first.map((c) => c.id)).size, first.length)
      assert.ok(
        first.some((c) => c.id === '1004' && c.name === 'Account 1004'),
        'a person still has a name',
      )
      const calls = sim.callsTo(/\/crm\/accounts\/lookup$/).length
      const again = value(await client.lookup('companies', {}, call()))
      assert.equal(again.length, first.length)
      // Where pages start is known now: three pages and the empty one that ends the list.
      assert.equal(sim.callsTo(/\/crm\/accounts\/lookup$/).length - calls, 4)
    })
  }
})

describe('Kaseya BMS adapter: statuses, look-up tables, usage', () => {
  test('on a tenant without completed tickets, the completed status is learned from BMS’s resolve', async () => {
    const { sim, client } = await setup({ history: false })
    const before = value(await client.lookup('statuses', {}, call()))
    assert.ok(
      before.every((s) => s.closed === undefined),
      'nothing is known yet, and no name is trusted',
    )
    const made = value(await client.createTicket(ticket, ticketCall()))
    const moved = value(
      await client.closeTicket(
        made.ticketId,
        { note: 'moved', closedStatus: 'Resolved' },
        { ...ticketCall(), adopt: false },
      ),
    )
    assert.equal(moved.alreadyClosed, false)
    const t = sim.state.tickets.find((x) => String(x.id) === made.ticketId)!
    assert.deepEqual([t.statusId, t.completedDate], [4, null], 'Resolved moved it without completing it')
    value(
      await client.closeTicket(
        made.ticketId,
        { note: 'healed', closedStatus: null },
        { ...ticketCall(), adopt: false },
      ),
    )
    assert.ok(t.completedDate, 'resolved with BMS’s own completed status')
    const after = value(await client.lookup('statuses', {}, call()))
    const closed = after.filter((s) => s.closed).map((s) => s.name)
    assert.deepEqual(closed, ['Completed', 'Closed'])
  })

  test('units that replace rather than add: detected, and the line still ends at the count', async () => {
    const { sim, client } = await setup({ serviceUnits: 'set', servicesRoute: 'contract' })
    const lines = value(await client.billingLines('1001', call()))
    assert.deepEqual(
      lines.map((l) => [l.id, l.productId, l.name, l.agreementName, l.quantity]),
      [
        ['501:71', '71', 'Managed Endpoint', 'Acme Managed Services', 10],
        ['501:72', '72', 'Backup Seat', 'Acme Managed Services', 5],
      ],
    )
    const usage = { ...call(), effectiveDate: new Date().toISOString() }
    assert.deepEqual(value(await client.setQuantity('501:71', 14, usage)), { previous: 10 })
    assert.deepEqual(value(await client.setQuantity('501:71', 9, usage)), { previous: 14 })
    const line = sim.state.contracts[0]!.services[0]!
    assert.equal(line.units, 9)
    assert.deepEqual(
      line.changes.map((c) => c.units),
      [4, 14, 9],
      'the difference, then the count itself, then counts only',
    )
  })
})

describe('Kaseya BMS adapter: look-up tables', () => {
  const posted = (sim: StartedSim<KaseyaBmsState>) =>
    sim.callsTo(/\/servicedesk\/tickets$/, 'POST').map((c) => c.body as Record<string, unknown>)

  test('the test finds the tables under the known spellings, keeps them, and names what it uses', async () => {
    const { sim, client } = await setup({
      lookupTables: { ticketTypes: 'TicketTypes', sources: 'Source', noteTypes: 'TicketNoteType' },
    })
    const tested = value(await client.test(call()))
    assert.match(tested.detail, /ticket types from TicketTypes \(BMS's default: Incident\)/)
    assert.match(tested.detail, /ticket sources from Source \(BMS's default: Phone\)/)
    assert.match(tested.detail, /note types from TicketNoteType \(BMS's default: General\)/)
    // Then the sentence about two-way sync: no BMS push is trusted (psa-sync.test.ts).
    assert.match(
      tested.detail,
      /statuses that count as closed: Completed, Closed\. Kaseya BMS does not publish/,
    )
    const tried = sim.callsTo(/\/system\/lookup\//).length
    // The portal's pick lists come from the tables found, asked for by their name alone.
    const sources = value(await client.lookup('sources', {}, call()))
    assert.deepEqual(
      sources.map((x) => x.name),
      ['Client Portal', 'Phone', 'Email', 'Monitoring System', 'Other'],
    )
    const noteTypes = value(await client.lookup('noteTypes', {}, call()))
    assert.deepEqual(
      noteTypes.map((x) => x.name),
      ['General', 'Internal', 'Resolution'],
    )
    const types = value(await client.lookup('types', {}, call()))
    assert.ok(
      types.every((x) => x.name !== 'Legacy'),
      'inactive types are not offered',
    )
    assert.equal(sim.callsTo(/\/system\/lookup\//).length, tried + 3, 'one call each: the name is kept')
    assert.deepEqual(value(await client.lookup('categories', {}, call())), [])
  })

  test('ids picked from the portal lists are what the ticket and the note carry; SourceId is always sent', async () => {
    const first = await setup()
    const sources = value(await first.client.lookup('sources', {}, call()))
    const noteTypes = value(await first.client.lookup('noteTypes', {}, call()))
    const types = value(await first.client.lookup('types', {}, call()))
    const monitoring = sources.find((x) => x.name === 'Monitoring System')!
    const internal = noteTypes.find((x) => x.name === 'Internal')!
    const alert = types.find((x) => x.name === 'Alert')!
    // Without settings: BMS's defaults.
    const plain = value(await first.client.createTicket(ticket, ticketCall()))
    assert.equal(posted(first.sim).at(-1)?.SourceId, 2, "BMS's default source")
    value(await first.client.appendNote(plain.ticketId, 'noted', ticketCall()))
    const { sim, client } = await setup(
      {},
      { source: monitoring.id, noteType: internal.id, defaults: { type: alert.id } },
    )
    value(await client.test(call()))
    const made = value(await client.createTicket({ ...ticket, type: alert.id }, ticketCall()))
    value(await client.appendNote(made.ticketId, 'noted', ticketCall()))
    const t = sim.state.tickets.find((x) => String(x.id) === made.ticketId)!
    assert.deepEqual([t.sourceId, t.typeId, t.notes[0]?.typeId], [4, 4, 2])
  })

  test('no table answers: the test and the create say which look-up failed and how to set the id', async () => {
    for (const unknownTable of ['refuse', 'empty'] as const) {
      const none = { ticketTypes: null, sources: null, noteTypes: null }
      const { sim, client } = await setup({ lookupTables: none, unknownTable })
      const f = failure(await client.test(call()))
      assert.match(f.message, /Kaseya BMS lists no ticket types under \/v2\/system\/lookup\/\{tableName\}/)
      assert.match(f.message, /TicketType: (Invalid lookup table name 'TicketType'\.|no entries)/)
      assert.match(f.message, /set defaults\.type \(or a rule's ticket type\) to its id in BMS/)
      assert.match(f.message, /set source to its id in BMS, or lookupTables\.sources/)
      assert.match(f.message, /set noteType to its id in BMS, or lookupTables\.noteTypes/)
      const made = failure(await client.createTicket({ ...ticket, type: '1' }, ticketCall()))
      assert.deepEqual([made.kind, made.retryable], ['rejected', false])
      assert.match(made.message, /lists no ticket sources.*set source to its id in BMS/)
      assert.equal(posted(sim).length, 0, 'no ticket without a SourceId')
    }
    // Ids set by hand need no table; a table name set by hand is used as it is.
    const ids = { source: '4', noteType: '2', defaults: { type: '4' } }
    const { sim, client } = await setup(
      { lookupTables: { ticketTypes: null, sources: null, noteTypes: null } },
      ids,
    )
    const tested = value(await client.test(call()))
    assert.match(tested.detail, /ticket sources: no look-up answers, the id 4 set in source is used/)
    const made = value(await client.createTicket({ ...ticket, type: '4' }, ticketCall()))
    value(await client.appendNote(made.ticketId, 'noted', ticketCall()))
    assert.equal(posted(sim).at(-1)?.SourceId, 4)
    const named = await setup(
      { lookupTables: { sources: 'SrcTable' } },
      { lookupTables: { sources: 'SrcTable' } },
    )
    value(await named.client.test(call()))
    assert.equal(named.sim.callsTo(/\/system\/lookup\/Source/i).length, 0, 'no spelling guessed')
    const wrong = await setup({}, { lookupTables: { ticketTypes: 'Nope' } })
    const f = failure(await wrong.client.lookup('types', {}, call()))
    assert.match(f.message, /Invalid lookup table name 'Nope'.*lookupTables\.ticketTypes/)
  })

  test('a source named by hand that BMS does not list fails the test in one sentence', async () => {
    const { client } = await setup({}, { source: 'Carrier pigeon' })
    const f = failure(await client.test(call()))
    assert.equal(
      f.message,
      "Kaseya BMS has no ticket source 'Carrier pigeon' in TicketSource; set source to one it lists.",
    )
  })

  test('on a tenant without completed tickets the test says closed statuses are not known yet', async () => {
    const { client } = await setup({ history: false })
    const tested = value(await client.test(call()))
    assert.match(tested.detail, /which statuses count as closed is not known yet/)
  })
})

describe('Kaseya BMS adapter: after a lost answer', () => {
  test('the adopt look-up asks the ticket list for the title, the account, the last two days, newest first', async () => {
    const { sim, client } = await setup({ accounts: 30 })
    const c = ticketCall()
    sim.faults.set({ loseAnswer: { count: 1, method: 'POST', match: '/v2/servicedesk/tickets$' } })
    failure(await client.createTicket(ticket, c))
    const before = sim.state.tickets.length
    const again = value(await client.createTicket(ticket, { ...c, adopt: true }))
    assert.equal(again.adopted, true)
    assert.equal(sim.state.tickets.length, before)
    const looks = sim.callsTo(/\/servicedesk\/tickets$/, 'GET')
    assert.equal(looks.length, 1, 'one page: the newest first')
    const q = new URL(looks[0]!.url, sim.url).searchParams
    assert.equal(q.get('Filter.Title'), ticket.summary)
    assert.equal(q.get('Filter.AccountIds'), '1001')
    assert.equal(q.get('Sort'), 'OpenDate desc')
    assert.equal(q.get('Filter.Details'), null, 'no text filter on the Details')
    const since = Date.parse(q.get('Filter.OpenDateFrom') ?? '')
    assert.ok(Math.abs(Date.now() - 2 * 86_400_000 - since) < 60_000, 'two days back')
    const t = sim.state.tickets.find((x) => String(x.id) === again.ticketId)!
    assert.ok(t.details.endsWith(`\n\n(ab-ref:${c.ref})`), 'the tag ends the Details')
    assert.equal(t.title, ticket.summary, 'the title is the alert’s')
  })

  // However BMS matches Filter.Title, sorts (or does not) and pages, a bounded number of pages finds
  // the ticket among any number of older ones (docs/psa/kaseya-bms.md, "Finding a ticket again").
  const crowded: (KaseyaBmsSimOptions & { what: string })[] = [
    { what: 'sorted as asked, titles matched inside', sort: 'applied', textFilter: 'contains' },
    { what: 'sorted as asked, titles matched from the start', sort: 'applied', textFilter: 'startsWith' },
    { what: 'Sort ignored', sort: 'ignored', textFilter: 'startsWith' },
    { what: 'Sort ignored, pages of 25', sort: 'ignored', textFilter: 'contains', pageSizeMax: 25 },
    { what: 'Sort refused', sort: 'refused', textFilter: 'startsWith' },
  ]
  for (const { what, ...o } of crowded)
    test(`a lost create among 1,200 older tickets of its title and account makes one ticket (${what})`, async () => {
      const { sim, client } = await setup({ accounts: 30, ...o })
      crowdTickets(sim.state, { accountId: 1001, title: ticket.summary, count: 1200 })
      const before = sim.state.tickets.length
      const c = ticketCall()
      sim.faults.set({ loseAnswer: { count: 1, method: 'POST', match: '/v2/servicedesk/tickets$' } })
      failure(await client.createTicket(ticket, c))
      const reads = sim.callsTo(/\/servicedesk\/tickets$/, 'GET').length
      const again = value(await client.createTicket(ticket, { ...c, adopt: true }))
      assert.deepEqual([again.adopted, sim.state.tickets.length], [true, before + 1], 'one ticket')
      const looked = sim.callsTo(/\/servicedesk\/tickets$/, 'GET').length - reads
      assert.ok(looked <= 6, `a bounded look-up: ${looked} pages`)
      // Another alert's retry takes none of them: its own ticket is made.
      const other = value(await client.createTicket(ticket, { ...ticketCall(), adopt: true }))
      assert.deepEqual([other.adopted, sim.state.tickets.length], [false, before + 2])
      if (o.sort === 'refused') {
        // Learned: the next look-up asks without a Sort.
        const last = sim.callsTo(/\/servicedesk\/tickets$/, 'GET').at(-1)!
        assert.equal(new URL(last.url, sim.url).searchParams.get('Sort'), null)
      }
    })

  test('a title with a [ is looked up by what comes before it', async () => {
    const { sim, client } = await setup({ accounts: 30, textFilter: 'startsWith' })
    const c = ticketCall()
    const bracketed = { ...ticket, summary: 'Disk full [C:] on WS-042' }
    sim.faults.set({ loseAnswer: { count: 1, method: 'POST', match: '/v2/servicedesk/tickets$' } })
    failure(await client.createTicket(bracketed, c))
    const again = value(await client.createTicket(bracketed, { ...c, adopt: true }))
    assert.equal(again.adopted, true)
    const q = new URL(sim.callsTo(/\/servicedesk\/tickets$/, 'GET').at(-1)!.url, sim.url).searchParams
    assert.equal(q.get('Filter.Title'), 'Disk full')
  })

  test('a lost note is found among more than a page of the ticket’s notes, and not written again', async () => {
    const { sim, client } = await setup()
    const made = value(await client.createTicket(ticket, ticketCall()))
    for (let i = 0; i < 150; i++) value(await client.appendNote(made.ticketId, `note ${i}`, ticketCall()))
    const c = { ...ticketCall(), marker: 'msg-lost-1' }
    sim.faults.set({ loseAnswer: { count: 1, method: 'POST', match: '/notes$' } })
    failure(await client.appendNote(made.ticketId, 'Update\n\nMessage ID: msg-lost-1', c))
    value(await client.appendNote(made.ticketId, 'Update\n\nMessage ID: msg-lost-1', { ...c, adopt: true }))
    const t = sim.state.tickets.find((x) => String(x.id) === made.ticketId)!
    assert.equal(t.notes.filter((n) => n.details.includes('msg-lost-1')).length, 1)
    assert.ok(sim.callsTo(/\/notes$/, 'GET').length >= 2, 'more than one page read')
  })

  test('a lost move to a status that does not complete: the retry finds its note and writes none', async () => {
    const { sim, client } = await setup()
    const made = value(await client.createTicket(ticket, ticketCall()))
    const c = { ...ticketCall(), marker: 'msg-move-1' }
    const close = { note: 'Moved\n\nMessage ID: msg-move-1', closedStatus: 'Resolved' }
    sim.faults.set({ loseAnswer: { count: 1, method: 'POST', match: '/notes$' } })
    failure(await client.closeTicket(made.ticketId, close, c))
    const again = value(await client.closeTicket(made.ticketId, close, { ...c, adopt: true }))
    assert.equal(again.alreadyClosed, false)
    const t = sim.state.tickets.find((x) => String(x.id) === made.ticketId)!
    assert.equal(t.notes.filter((n) => n.details.includes('msg-move-1')).length, 1)
    assert.equal(t.statusId, 4)
  })

  test('long texts are fitted to the limits; the tag survives the cut', async () => {
    const { sim, client } = await setup()
    const c = ticketCall()
    const long = { ...ticket, summary: `Disk ${'very '.repeat(80)}full`, description: 'x '.repeat(30_000) }
    const made = value(await client.createTicket(long, c))
    const t = sim.state.tickets.find((x) => String(x.id) === made.ticketId)!
    assert.ok(t.title.length <= 250 && t.title.endsWith('…'), t.title)
    assert.ok(t.details.length <= 32_000 && t.details.startsWith(long.summary))
    assert.ok(t.details.endsWith(`(ab-ref:${c.ref})`))
    const adopted = value(await client.createTicket(long, { ...c, adopt: true }))
    assert.deepEqual([adopted.ticketId, adopted.adopted], [made.ticketId, true])
  })
})

describe('Kaseya BMS adapter: moving a ticket to another company', () => {
  test('not offered: BMS documents no change of a ticket’s account, so a mapped catch-all ticket gets a note', () => {
    const c = registry.connect('p-move', {
      kind: 'kaseya-bms',
      settings: { baseUrl: 'http://127.0.0.1:9', ...login },
    })
    assert.ok(c.ok)
    assert.equal(c.client.moveTicket, undefined)
  })
})
