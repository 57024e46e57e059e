// What only Syncro does: the API token only in the Authorization header (Bearer, or raw where an account
// takes only that), Syncro's own error text in every shape it words a 422, its 180 requests a minute
// kept before Syncro refuses, a 429 with or without Retry-After, customers that are people, problem
// types from either endpoint, lists without meta, the account's root from subdomain or baseUrl, and
// finding what a lost answer made with the ticket list's documented filters only. The budget shared
// between connections and processes: syncro.limits.test.ts. It moves no ticket to another customer
// (docs/psa/syncro.md, "Moving a ticket to another company").
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { OutboundCall, OutboundResult } from '../../../src/platform/outbound/http.js'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { NewPsaTicket, PsaOperations } from '../../../src/psa/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { syncroPsa } from '../../../src/psa/syncro/adapter.js'
import { rootOf } from '../../../src/psa/syncro/client.js'
import { loseNextAnswer, type StartedSim } from '../../support/sims/harness.js'
import { type SyncroState, startSyncroSim, syncroCalls } from '../../support/sims/syncro/server.js'

const token = 'syncro-api-token'
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = () => {
  const ref = `syncro-${Date.now()}-${n++}`
  return { ...call(), correlationId: ref, ref, marker: ref, adopt: false }
}
const ticket: NewPsaTicket = {
  companyId: '1001',
  board: 'Security Alert',
  priority: null,
  status: null,
  type: null,
  summary: 'Malware detected on WS-042',
  description: 'Trojan quarantined.',
}
const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })

/** A client of the simulator, on a connection of its own (its own limiter) for each partner id. */
function connect(sim: StartedSim<SyncroState>, partnerId: string, settings: object = {}): PsaOperations {
  const registry = new PsaRegistry([syncroPsa({ http })])
  const c = registry.connect(partnerId, {
    kind: 'syncro',
    settings: { baseUrl: sim.url, apiToken: token, ...settings },
  })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

/** A ticket put straight into the simulator (no call counted against its limit). */
function seedTicket(sim: StartedSim<SyncroState>, subject = 'seeded', body?: string): string {
  const id = sim.state.nextId.ticket++
  const at = new Date().toISOString()
  sim.state.tickets.push({
    id,
    number: sim.state.nextId.number++,
    subject,
    customer_id: 1001,
    customer_business_then_name: 'Northwind 001',
    problem_type: 'Other',
    status: 'New',
    priority: null,
    properties: {},
    created_at: at,
    updated_at: at,
    resolved_at: null,
    comments:
      body === undefined
        ? []
        : [
            {
              id: sim.state.nextId.comment++,
              ticket_id: id,
              subject: 'Initial Issue',
              body,
              hidden: true,
              do_not_email: true,
              tech: null,
              user_id: null,
              created_at: at,
            },
          ],
    ticket_timers: [],
  })
  return String(id)
}

/** The query parameters of the ticket-list calls made so far. */
const listQueries = (sim: StartedSim<SyncroState>) =>
  sim
    .callsTo(/^\/api\/v1\/tickets$/, 'GET')
    .map((c) => [...new URL(c.url, 'http://sim').searchParams.keys()].sort().join(','))

describe('Syncro adapter', () => {
  let sim: StartedSim<SyncroState>
  before(async () => {
    sim = await startSyncroSim()
  })
  after(() => sim.close())

  test('the API token goes in the Authorization header as Bearer, never in a URL', async () => {
    const client = connect(sim, 'p-urls')
    assert.ok((await client.test(call())).ok)
    const made = await client.createTicket(ticket, ticketCall())
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    assert.ok((await client.lookup('companies', {}, call())).ok)
    assert.ok((await client.billingLines('1001', call())).ok)
    assert.ok(sim.calls.length > 5)
    assert.deepEqual(
      sim.calls.filter((c) => c.url.includes(token) || /api_key/i.test(c.url)).map((c) => c.url),
      [],
    )
    assert.ok(sim.calls.every((c) => c.headers.authorization === `Bearer ${token}`))
  })

  test('an account that takes only the raw token: a 401 is tried once without "Bearer", which is then kept', async () => {
    const raw = await startSyncroSim({ authSchemes: ['raw'] })
    try {
      const client = connect(raw, 'p-raw')
      const tested = await client.test(call())
      assert.ok(tested.ok, tested.ok ? '' : tested.failure.message)
      const auths = raw.calls.map((c) => c.headers.authorization)
      assert.deepEqual(auths.slice(0, 2), [`Bearer ${token}`, token])
      assert.ok(
        auths.slice(2).every((a) => a === token),
        'the way that worked is kept',
      )
      const wrong = await connect(raw, 'p-raw-wrong', { apiToken: 'nope' }).test(call())
      assert.match(wrong.ok ? '' : wrong.failure.message, /Syncro refused the credentials \(apiToken\)/)
    } finally {
      await raw.close()
    }
  })

  test("Syncro's 422 text reaches the failure, in each shape Syncro words it", async () => {
    const client = connect(sim, 'p-422')
    for (const style of ['errors', 'message', 'error'] as const) {
      sim.state.errorStyle = style
      const r = await client.createTicket({ ...ticket, priority: 'P1 Emergency' }, ticketCall())
      assert.equal(r.ok, false)
      const f = r.ok ? null : r.failure
      assert.deepEqual([f?.kind, f?.retryable, f?.status], ['rejected', false, 422], style)
      assert.match(f?.message ?? '', /Priority is not included in the list/, style)
    }
    sim.state.errorStyle = 'errors'
  })

  test('a token without "Tickets - Create": a forbidden failure naming the permission', async () => {
    const limited = connect(sim, 'p-limited', { apiToken: 'limited-token' })
    const r = await limited.createTicket(ticket, ticketCall())
    assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['forbidden', false])
    assert.match(r.ok ? '' : r.failure.message, /Tickets - Create/)
  })

  test('the minute budget holds calls back before Syncro refuses: 200 notes, 180 reach Syncro, no 429', async () => {
    const fresh = await startSyncroSim()
    try {
      const id = seedTicket(fresh)
      const client = connect(fresh, 'p-budget')
      const results = []
      for (let i = 0; i < 200; i++) results.push(await client.appendNote(id, `note ${i}`, ticketCall()))
      assert.equal(results.filter((r) => r.ok).length, 180)
      const held = results.find((r) => !r.ok)
      assert.deepEqual(held?.ok ? null : [held?.failure.kind, held?.failure.throttled], [
        'rate-limited',
        true,
      ])
      assert.match(held?.ok ? '' : (held?.failure.message ?? ''), /Syncro's 180 requests a minute/)
      assert.ok((held?.ok ? 0 : (held?.failure.retryAfterMs ?? 0)) > 0)
      assert.equal(fresh.calls.length, 180, 'the held calls never reached Syncro')
      assert.equal(fresh.state.rate.refused, 0, 'Syncro refused nothing')
    } finally {
      await fresh.close()
    }
  })

  test("Syncro's 429: with Retry-After it is passed on; without, a minute; meanwhile nothing is sent", async () => {
    const limited = await startSyncroSim({ perMinute: 3 })
    try {
      const client = connect(limited, 'p-429')
      for (let i = 0; i < 3; i++) assert.ok((await client.lookup('priorities', {}, call())).ok)
      const refused = await client.lookup('priorities', {}, call())
      const f = refused.ok ? null : refused.failure
      assert.deepEqual([f?.kind, f?.retryable, f?.status], ['rate-limited', true, 429])
      assert.equal(f?.retryAfterMs, 60_000, 'no Retry-After: the minute is waited out')
      assert.match(f?.message ?? '', /Retry later/)
      const sent = limited.calls.length
      const paused = await client.lookup('priorities', {}, call())
      assert.equal(paused.ok, false)
      assert.equal(limited.calls.length, sent, 'paused: no call reached Syncro')

      limited.state.rate.windows = {}
      limited.state.rate.retryAfterSeconds = 2
      const other = connect(limited, 'p-429-after')
      for (let i = 0; i < 3; i++) assert.ok((await other.lookup('statuses', {}, call())).ok)
      const told = await other.lookup('statuses', {}, call())
      assert.equal(told.ok ? null : told.failure.retryAfterMs, 2000)
    } finally {
      await limited.close()
    }
  })

  test('customers that are people get a usable name; disabled ones are left out', async () => {
    const companies = await connect(sim, 'p-people').lookup('companies', {}, call())
    assert.ok(companies.ok)
    const byId = new Map(companies.value.map((c) => [c.id, c.name]))
    assert.equal(companies.value.length, 59, 'every page, less the disabled customer')
    assert.ok(companies.value.every((c) => c.name.trim() !== '' && !/null|undefined/.test(c.name)))
    assert.equal(byId.get('1004'), 'Ada Lovelace 4')
    assert.equal(byId.get('1008'), 'contact8@example.com', 'a person with only an e-mail address')
    assert.equal(byId.has('1006'), false)
  })

  test('a customer named instead of its id is found by Syncro’s search', async () => {
    const made = await connect(sim, 'p-named').createTicket(
      { ...ticket, companyId: 'Ada Lovelace 4' },
      ticketCall(),
    )
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    assert.equal(sim.state.tickets.find((t) => String(t.id) === made.value.ticketId)?.customer_id, 1004)
  })

  test('problem types from /ticket_problem_types where /settings lists none; lists without meta end on a short page', async () => {
    const other = await startSyncroSim({ problemTypesAt: 'endpoint', withMeta: false })
    try {
      const client = connect(other, 'p-variants')
      const boards = await client.lookup('boards', {}, call())
      assert.deepEqual(boards.ok ? boards.value.map((b) => b.name) : [], other.state.problemTypes)
      const made = await client.createTicket(ticket, ticketCall())
      assert.ok(made.ok, made.ok ? '' : made.failure.message)
      const companies = await client.lookup('companies', {}, call())
      assert.equal(companies.ok ? companies.value.length : 0, 59)
      assert.equal(other.callsTo(/\/customers$/).length, 3, 'pages 1–3, the third short')
    } finally {
      await other.close()
    }
  })

  test('where the account has the custom field, the reference is in properties and a retry adopts by it', async () => {
    const withField = await startSyncroSim({
      ticketCustomFields: ['alertbridge_ref'],
      schedulesListLines: true,
      tickets: 0,
    })
    try {
      const client = connect(withField, 'p-field')
      const first = ticketCall()
      const made = await client.createTicket(ticket, first)
      assert.ok(made.ok, made.ok ? '' : made.failure.message)
      const t = withField.state.tickets[0]
      assert.deepEqual(t?.properties, { alertbridge_ref: first.ref })
      const reads = withField.callsTo(/^\/api\/v1\/tickets\/\d+$/).length
      const again = await client.createTicket(ticket, { ...ticketCall(), ref: first.ref, adopt: true })
      assert.deepEqual(again.ok ? again.value : null, { ticketId: made.value.ticketId, adopted: true })
      assert.equal(
        withField.callsTo(/^\/api\/v1\/tickets\/\d+$/).length,
        reads,
        'no ticket read to confirm it',
      )
      assert.equal(withField.state.tickets.length, 1)
      const lines = await client.billingLines('1001', call())
      assert.deepEqual(lines.ok ? lines.value.map((l) => l.id) : [], ['501:7001', '501:7002', '502:7003'])
      assert.equal(withField.callsTo(/^\/api\/v1\/schedules\/\d+$/).length, 0, 'lines as listed')
    } finally {
      await withField.close()
    }
  })

  test('statuses mark Resolved and Invoiced closed, not the custom "Resolved - Pending Confirmation"', async () => {
    const statuses = await connect(sim, 'p-statuses').lookup('statuses', {}, call())
    assert.ok(statuses.ok)
    const closed = statuses.value.filter((s) => s.closed).map((s) => s.name)
    assert.deepEqual(closed, ['Resolved', 'Invoiced'])
  })

  test('the account root: subdomain → https://{subdomain}.syncromsp.com, baseUrl as given; one of them is required', async () => {
    assert.equal(rootOf({ subdomain: 'Acme', apiToken: 't' }), 'https://acme.syncromsp.com')
    assert.equal(rootOf({ baseUrl: 'https://psa.example/api/v1/', apiToken: 't' }), 'https://psa.example')
    assert.equal(
      rootOf({ baseUrl: 'http://127.0.0.1:9/', subdomain: 'acme', apiToken: 't' }),
      'http://127.0.0.1:9',
    )
    const sent: OutboundCall[] = []
    const fake = {
      send: async (c: OutboundCall): Promise<OutboundResult> => {
        sent.push(c)
        return {
          kind: 'response',
          status: 200,
          retryAfter: null,
          headers: {},
          body: '{"user":{"email":"api@acme.example"}}',
          truncated: false,
          durationMs: 1,
        }
      },
    }
    const registry = new PsaRegistry([syncroPsa({ http: fake })])
    assert.deepEqual(registry.check('syncro', { apiToken: 't' }), {
      ok: false,
      problems: ['psa needs subdomain (e.g. acme for acme.syncromsp.com) or baseUrl'],
    })
    assert.equal(registry.check('syncro', { subdomain: 'acme.evil.example', apiToken: 't' }).ok, false)
    const c = registry.connect('p-sub', { kind: 'syncro', settings: { subdomain: 'acme', apiToken: 't' } })
    assert.ok(c.ok)
    const tested = await c.client.test(call())
    assert.ok(tested.ok)
    assert.equal(
      tested.value.detail,
      'Connected to Syncro at https://acme.syncromsp.com as api@acme.example.',
    )
    assert.deepEqual(
      sent.map((s) => s.url),
      [
        'https://acme.syncromsp.com/api/v1/me',
        'https://acme.syncromsp.com/api/v1/tickets',
        'https://acme.syncromsp.com/api/v1/customers',
      ],
    )
  })

  test('a lost create among 400 same-subject tickets of the customer, listed oldest first: found on the last pages', async () => {
    const busy = await startSyncroSim({ tickets: 0, ticketOrder: 'oldest' })
    try {
      for (let i = 0; i < 400; i++)
        seedTicket(busy, ticket.summary, `alert ${i}\n\nalertbridge ref: other-${i}`)
      const client = connect(busy, 'p-busy')
      const first = ticketCall()
      loseNextAnswer(busy, syncroCalls, 'create')
      const lost = await client.createTicket(ticket, first)
      assert.equal(lost.ok, false, 'the answer was lost')
      assert.equal(busy.state.tickets.length, 401, 'Syncro made it')
      const before = busy.calls.length
      const again = await client.createTicket(ticket, { ...first, ...call(), adopt: true })
      assert.ok(again.ok, again.ok ? '' : again.failure.message)
      assert.deepEqual(
        [again.value.adopted, again.value.ticketId],
        [true, String(busy.state.tickets[400]?.id)],
      )
      assert.equal(busy.state.tickets.length, 401, 'one ticket')
      // 17 pages: 1–4 and 14–17, then the newest candidate read in full.
      assert.deepEqual(
        busy
          .callsTo(/^\/api\/v1\/tickets$/, 'GET')
          .map((c) => new URL(c.url, 'http://sim').searchParams.get('page')),
        ['1', '2', '3', '4', '14', '15', '16', '17'],
      )
      assert.equal(busy.calls.length - before, 9, 'eight pages and one ticket read')
      assert.deepEqual(
        [...new Set(listQueries(busy))],
        ['created_after,customer_id,page'],
        'documented filters only',
      )
    } finally {
      await busy.close()
    }
  })

  test('a retry that finds nothing makes the ticket; a note or a close that finds no marker writes once', async () => {
    const quiet = await startSyncroSim()
    try {
      const client = connect(quiet, 'p-quiet')
      const before = quiet.state.tickets.length
      const made = await client.createTicket(ticket, { ...ticketCall(), adopt: true })
      assert.ok(made.ok, made.ok ? '' : made.failure.message)
      assert.equal(made.value.adopted, false)
      assert.equal(quiet.state.tickets.length, before + 1)
      const reads = quiet.callsTo(/^\/api\/v1\/tickets\/\d+$/, 'GET').length
      assert.ok(reads <= 5, `at most five tickets read to look for the reference: ${reads}`)
      const id = made.value.ticketId
      const t = () => quiet.state.tickets.find((x) => String(x.id) === id)
      const noted = await client.appendNote(id, 'Update\n\nMessage ID: m-1', {
        ...ticketCall(),
        marker: 'm-1',
        adopt: true,
      })
      assert.ok(noted.ok)
      const closed = await client.closeTicket(
        id,
        { note: 'Resolved\n\nMessage ID: m-2', closedStatus: null },
        { ...ticketCall(), marker: 'm-2', adopt: true },
      )
      assert.deepEqual(closed.ok ? closed.value : null, { alreadyClosed: false })
      assert.deepEqual(
        t()?.comments.map((c) => c.subject),
        ['Initial Issue', 'Update', 'Resolution'],
      )
      assert.ok(t()?.resolved_at)
    } finally {
      await quiet.close()
    }
  })

  test('long text: the subject cut at a word with "…", the whole title and our reference in the first comment', async () => {
    const title = `Ransomware behaviour on ${'many hosts of the branch office '.repeat(9)}`
    const first = ticketCall()
    const made = await connect(sim, 'p-long').createTicket(
      { ...ticket, summary: title, description: `${'evidence '.repeat(20_000)}\n\nMessage ID: m-long` },
      first,
    )
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    const t = sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)
    assert.ok(t && t.subject.length <= 255 && t.subject.endsWith('…'), t?.subject)
    const body = t?.comments[0]?.body ?? ''
    assert.ok(body.startsWith(title.trim()), 'the whole title opens the description')
    assert.ok(body.length <= 30_000, `fitted: ${body.length}`)
    assert.match(body, /characters cut here to fit Syncro's limit/)
    assert.ok(body.includes('Message ID: m-long'), 'the Message ID stays')
    assert.ok(body.endsWith(`alertbridge ref: ${first.ref}`), 'our reference ends it')
  })
})

describe('Syncro adapter: moving a ticket to another customer', () => {
  test('not offered: Syncro documents no change of a ticket’s customer, so a mapped catch-all ticket gets a note', () => {
    const c = new PsaRegistry([syncroPsa({ http })]).connect('p-move', {
      kind: 'syncro',
      settings: { baseUrl: 'http://127.0.0.1:9', apiToken: token },
    })
    assert.ok(c.ok)
    assert.equal(c.client.moveTicket, undefined)
  })
})
