// What only Kaseya BMS does: its JWT expires (renewed with the refresh token, or by a new login when
// BMS refuses the refresh), it refuses with `success: false` at HTTP 200, public clients disagree on
// where its pages start, it limits each endpoint per hour, its lookup tables have undocumented names,
// which status completes a ticket is learned from BMS, and a recurring service's Units may be added or
// replaced by the documented POST. Credentials go only in the login form and the Bearer header.
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { createOutboundHttp } from '../../src/outbound/http.js'
import type { NewPsaTicket, PsaResult } from '../../src/psa/adapter.js'
import { kaseyaBmsPsa } from '../../src/psa/kaseya-bms/adapter.js'
import { PsaRegistry } from '../../src/psa/registry.js'
import type { StartedSim } from '../sims/harness.js'
import {
  type KaseyaBmsSimOptions,
  type KaseyaBmsState,
  startKaseyaBmsSim,
} from '../sims/kaseya-bms/server.js'

const login = { tenant: 'Acme MSP', username: 'api@acme-msp.example', password: 'bms-password' }
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = () => {
  const id = `bms-${Date.now()}-${n++}`
  return { ...call(), correlationId: id, ref: id, adopt: false }
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('Kaseya BMS adapter: tokens', () => {
  test('an access token that expires mid-run is renewed with the refresh token, not a new login', async () => {
    const { sim, client } = await setup({ tokenLifetimeSeconds: 1 })
    value(await client.lookup('boards', {}, call()))
    await sleep(1100)
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
    await sleep(1100)
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
    await sleep(1100)
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
    assert.equal(sim.state.tickets.length, 3, 'nothing was made')
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

  test('lookup tables under other names are found; a set name is used as it is', async () => {
    const { sim, client } = await setup()
    const { TicketType, TicketSource, NoteType } = sim.state.tables
    sim.state.tables = { TicketTypes: TicketType!, Source: TicketSource!, TicketNoteType: NoteType! }
    sim.state.tableNames = { ticketTypes: 'TicketTypes', sources: 'Source', noteTypes: 'TicketNoteType' }
    const types = value(await client.lookup('types', {}, call()))
    assert.ok(types.some((x) => x.name === 'Service Request'))
    const made = value(await client.createTicket({ ...ticket, type: 'Alert' }, ticketCall()))
    value(await client.appendNote(made.ticketId, 'noted', ticketCall()))
    assert.equal(sim.state.tickets.find((x) => String(x.id) === made.ticketId)?.typeId, 4)
    const named = await setup({}, { lookupTables: { ticketTypes: 'Nope' } })
    const f = failure(await named.client.lookup('types', {}, call()))
    assert.match(f.message, /Invalid lookup table name 'Nope'.*set lookupTables\.ticketTypes/)
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
