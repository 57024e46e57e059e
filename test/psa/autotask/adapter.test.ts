// What only Autotask does: the zone looked up and found again after it moved (a 401 at the old one),
// an unknown API user, what new tickets are created with (a queue, status, priority and ticket category
// from the settings or the tenant's picklist defaults, else one sentence saying what to choose and
// where), texts fitted to the tenant's field lengths, notes found again after a lost answer, and its
// limits: no more than 3 calls in flight per endpoint (Autotask's thread
// limit is never hit), a pause when the tenant's hourly threshold is nearly spent, billing lines:
// contract services whose units change only by deltas (adjustments), computed from the current units,
// and a ticket moved to another company (and queue).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { NewPsaTicket, PsaOperations, PsaResult } from '../../../src/psa/adapter.js'
import { autotaskPsa } from '../../../src/psa/autotask/adapter.js'
import { BudgetGuard } from '../../../src/psa/autotask/budget.js'
import type { AutotaskClient } from '../../../src/psa/autotask/client.js'
import { ConnectionLimiter } from '../../../src/psa/core/limiter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { unitsOn } from '../../support/sims/autotask/billing.js'
import { type AutotaskState, startAutotaskSim } from '../../support/sims/autotask/server.js'
import type { StartedSim } from '../../support/sims/harness.js'
import { waitFor } from '../../support/wait.js'

const credentials = {
  username: 'api-user@acme.example',
  secret: 'api-secret',
  integrationCode: 'TRACKING-ID-1',
}
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })

describe('Autotask adapter', () => {
  let sim: StartedSim<AutotaskState>
  let registry: PsaRegistry
  const connect = (partnerId: string, settings: Record<string, unknown> = credentials): PsaOperations => {
    const c = registry.connect(partnerId, { kind: 'autotask', settings })
    if (!c.ok) throw new Error(c.failure.message)
    return c.client
  }
  before(async () => {
    sim = await startAutotaskSim()
    const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
    registry = new PsaRegistry([autotaskPsa({ http, lookupRoot: `${sim.url}/ATServicesRest/` })])
  })
  after(() => sim.close())

  test('the connection test names an unknown API user and refused credentials', async () => {
    const unknown = await connect('p-unknown', { ...credentials, username: 'nobody@acme.example' }).test(
      call(),
    )
    assert.match(unknown.ok ? '' : unknown.failure.message, /no zone for the API user 'nobody@acme.example'/)
    const refused = await connect('p-refused', { ...credentials, secret: 'wrong' }).test(call())
    assert.match(refused.ok ? '' : refused.failure.message, /refused the credentials/)
    const good = await connect('p-good').test(call())
    assert.ok(good.ok, good.ok ? '' : good.failure.message)
    assert.match(good.value.detail, /requests used this hour/)
  })

  test('a zone that moved answers 401 at the old root; the zone is looked up again and the call goes through', async () => {
    const client = connect('p-move')
    assert.ok((await client.lookup('boards', {}, call())).ok)
    const lookups = sim.callsTo(/zoneinformation$/i).length
    sim.state.zoneUrl = `${sim.url}/zone2/ATServicesRest/`
    sim.state.movedZone = true
    try {
      const again = await client.lookup('companies', {}, call())
      assert.ok(again.ok, again.ok ? '' : again.failure.message)
      assert.equal(sim.callsTo(/zoneinformation$/i).length, lookups + 1, 'the zone was looked up again')
      assert.ok(sim.callsTo(/^\/zone2\//i).length > 0, 'the new zone was used')
    } finally {
      sim.state.zoneUrl = `${sim.url}/ATServicesRest/`
      sim.state.movedZone = false
    }
  })

  test('never more than 3 calls in flight per endpoint: 12 at once meet no thread-limit 429', async () => {
    const client = connect('p-threads')
    sim.faults.set({ latencyMs: 150 })
    try {
      const made = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          client.createTicket(
            {
              companyId: '0',
              board: 'Monitoring Alerts',
              priority: null,
              status: null,
              type: null,
              summary: `t${i}`,
              description: 'd',
            },
            { ...call(), correlationId: `threads-${i}`, ref: `threads-${i}`, adopt: false },
          ),
        ),
      )
      assert.deepEqual(
        made.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.failure.message)),
        [],
      )
    } finally {
      sim.faults.clear()
    }
  })

  test('near the hourly threshold (read from ThresholdInformation) calls pause instead of spending it', async () => {
    // A limiter with a small budget stands for an hour's 10,000 calls.
    const limiter = new ConnectionLimiter({ perEndpoint: 3, hourlyBudget: 100 })
    const tenant = { count: 50 }
    const asked: string[] = []
    const client = {
      api: async (_method: string, path: string) => {
        asked.push(path)
        return {
          ok: true as const,
          value: {
            status: 200,
            headers: {},
            body: {
              externalRequestThreshold: 100,
              requestThresholdTimeframe: 60,
              currentTimeframeRequestCount: tenant.count,
            },
          },
        }
      },
    } as unknown as AutotaskClient
    const guard = new BudgetGuard(client, limiter, { budget: 100, lookAtShare: 0.8, pauseAtShare: 0.95 })
    const spend = () =>
      limiter.run('tickets', call().signal, async () => ({ ok: true as const, value: null }))
    for (let i = 0; i < 79; i++) await spend()
    await guard.check(call())
    assert.deepEqual(asked, [], 'below 80 % of its own budget it does not ask')
    await spend()
    tenant.count = 96 // other integrations of the tenant used the rest
    await guard.check(call())
    assert.deepEqual(asked, ['ThresholdInformation'])
    const held = await spend()
    assert.equal(held.ok, false)
    assert.equal(held.ok ? null : held.failure.kind, 'rate-limited')
  })

  const usage = (ms = 10_000) => ({ ...call(ms), effectiveDate: new Date().toISOString() })

  test('billing lines: the services of the company’s active contracts, named from Services, with this period’s units', async () => {
    const company = String(sim.state.companies[1]?.id)
    const lines = await connect('p-lines').billingLines(company, call())
    assert.ok(lines.ok, lines.ok ? '' : lines.failure.message)
    assert.deepEqual(
      lines.value.map((l) => [l.id, l.productId, l.name, l.agreementName, l.quantity]),
      [
        ['29684001:7001', '501', 'Endpoint Protection (per device)', 'Managed Services', 5],
        ['29684001:7002', '502', 'Cloud Backup (per TB)', 'Managed Services', 2],
      ],
      'the inactive contract (Legacy Hosting) is not listed',
    )
    const text = await connect('p-lines').billingLines('Acme', call())
    assert.deepEqual(text.ok ? null : [text.failure.kind, text.failure.retryable], ['rejected', false])
  })

  test('a count is pushed as the delta from the current units: 5 → 8 posts +3, 8 again nothing, 2 posts −6', async () => {
    const client = connect('p-delta')
    const posted = () => sim.state.adjustments.filter((a) => a.contractServiceID === 7001)
    assert.equal(unitsOn(sim.state, 7001), 5)
    const up = await client.setQuantity('29684001:7001', 8, usage())
    assert.deepEqual(up.ok ? up.value : up.failure, { previous: 5 })
    const [first] = posted()
    assert.deepEqual(
      first && [
        first.contractID,
        first.unitChange,
        first.effectiveDate.slice(0, 10),
        first.adjustedUnitPrice,
      ],
      [29684001, 3, new Date().toISOString().slice(0, 10), 4.5],
    )
    assert.equal(unitsOn(sim.state, 7001), 8)
    const same = await client.setQuantity('29684001:7001', 8, usage())
    assert.deepEqual(same.ok ? same.value : same.failure, { previous: 8 })
    assert.equal(posted().length, 1, 'the same count posts nothing')
    const down = await client.setQuantity('29684001:7001', 2, usage())
    assert.deepEqual(down.ok ? down.value : down.failure, { previous: 8 })
    assert.deepEqual(
      posted().map((a) => a.unitChange),
      [3, -6],
    )
    assert.equal(unitsOn(sim.state, 7001), 2)
  })

  test('a lost answer: the retry reads the units again and posts nothing more', async () => {
    const client = connect('p-lost')
    const before = sim.state.adjustments.length
    const units = unitsOn(sim.state, 7002) ?? 0
    sim.faults.set({ latencyMs: 600, latencyMatch: 'ContractServiceAdjustments' })
    try {
      const lost = await client.setQuantity('29684001:7002', units + 4, usage(300))
      assert.deepEqual(lost.ok ? null : [lost.failure.kind, lost.failure.retryable], ['timeout', true])
      await waitFor(() => sim.state.adjustments.length > before, {
        what: 'Autotask to apply the change whose answer was lost',
        timeoutMs: 2000,
      })
    } finally {
      sim.faults.clear()
    }
    assert.equal(sim.state.adjustments.length, before + 1, 'Autotask applied the change after all')
    const retry = await client.setQuantity('29684001:7002', units + 4, usage())
    assert.deepEqual(retry.ok ? retry.value : retry.failure, { previous: units + 4 })
    assert.equal(sim.state.adjustments.length, before + 1, 'nothing applied twice')
    assert.equal(unitsOn(sim.state, 7002), units + 4)
  })

  test('a malformed line id, a fraction, or a service not on the contract: clear failures that are not retried', async () => {
    const client = connect('p-bad-line')
    for (const [lineId, quantity, kind, text] of [
      ['7001', 3, 'rejected', /not an Autotask billing line.*\{contractId\}:\{contractServiceId\}/],
      ['29684001:x', 3, 'rejected', /not an Autotask billing line/],
      ['29684001:7001', 2.5, 'rejected', /whole numbers/],
      ['29684001:7004', 3, 'not-found', /no contract service 7004 on contract 29684001/],
    ] as const) {
      const r = await client.setQuantity(lineId, quantity, usage())
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], [kind, false], lineId)
      assert.match(r.ok ? '' : r.failure.message, text)
    }
  })
})

const ticketOf = (o: Partial<NewPsaTicket> = {}): NewPsaTicket => ({
  companyId: '0',
  board: null,
  priority: null,
  status: null,
  type: null,
  summary: 'Disk failure on SRV-01',
  description: 'RAID degraded.',
  ...o,
})
let seq = 0
const ticketCall = (o: { adopt?: boolean; marker?: string } = {}) => {
  const id = `at-unit-${Date.now()}-${seq++}`
  return { ...call(), correlationId: id, ref: id, marker: o.marker ?? id, adopt: o.adopt ?? false }
}

describe('Autotask: what a new ticket is created with', () => {
  const sims: StartedSim<AutotaskState>[] = []
  let n = 0
  const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
  const registry = new PsaRegistry([autotaskPsa({ http })])
  /** A tenant of its own, and a client for it (a new partner each time: nothing cached). */
  const tenant = async (o: Parameters<typeof startAutotaskSim>[0] = {}, settings: object = {}) => {
    const sim = await startAutotaskSim({ tickets: 0, companies: 3, ...o })
    sims.push(sim)
    const c = registry.connect(`p-plan-${n++}`, {
      kind: 'autotask',
      settings: { ...credentials, baseUrl: `${sim.url}/ATServicesRest/`, ...settings },
    })
    if (!c.ok) throw new Error(c.failure.message)
    return { sim, client: c.client }
  }
  after(async () => {
    for (const sim of sims) await sim.close()
  })
  const posted = (sim: StartedSim<AutotaskState>) => sim.callsTo(/\/V1\.0\/Tickets$/, 'POST').length

  test("the connection test says what new tickets get: Autotask's default queue, status, priority and category", async () => {
    const { client } = await tenant()
    const r = await client.test(call())
    assert.ok(r.ok, r.ok ? '' : r.failure.message)
    for (const part of [
      /queue 'Service Desk' \(Autotask's default queue, unless a rule or an account mapping names another\)/,
      /status 'New' \(Autotask's default status\)/,
      /priority 'Medium' \(Autotask's default priority\)/,
      /ticket category 'Standard' \(Autotask's default ticket category\)/,
      /notes are written as 'Task Notes', visible to 'All Autotask Users'/,
    ])
      assert.match(r.value.detail, part)
  })

  test('a ticket with no board goes to the queue Autotask marks as default, with its defaults', async () => {
    const { sim, client } = await tenant()
    const made = await client.createTicket(ticketOf(), ticketCall())
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    const t = sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)
    assert.deepEqual([t?.queueID, t?.status, t?.priority, t?.ticketCategory], [29682835, 1, 2, 3])
    const named = await client.createTicket(
      ticketOf({ board: 'Monitoring Alerts', priority: 'High' }),
      ticketCall(),
    )
    assert.ok(named.ok)
    const u = sim.state.tickets.find((x) => String(x.id) === named.value.ticketId)
    assert.deepEqual([u?.queueID, u?.priority], [29682834, 1], "the rule's queue and priority win")
  })

  test('a tenant that marks no default queue: the test and every alert say in one sentence that one must be chosen', async () => {
    const { sim, client } = await tenant({ noDefault: ['queueID'] })
    const tested = await client.test(call())
    assert.equal(tested.ok, false)
    const sentence = tested.ok ? '' : tested.failure.message
    assert.match(sentence, /Autotask needs a queue on every new ticket and none is chosen/)
    assert.match(
      sentence,
      /default "Board \/ queue" in the portal \(or defaults\.board in PUT \/api\/partner\/psa\)/,
    )
    assert.match(sentence, /'Client Portal', 'Monitoring Alerts', 'Service Desk'/)
    assert.doesNotMatch(sentence, /Old Queue/, 'an inactive queue is not offered')
    assert.equal(sentence.split(/[.!?](\s|$)/).filter((x) => x?.trim()).length, 1, 'one sentence')
    const before = posted(sim)
    const r = await client.createTicket(ticketOf(), ticketCall())
    assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable, r.failure.message], [
      'rejected',
      false,
      sentence.replace(/\.$/, ''),
    ])
    assert.equal(posted(sim), before, 'nothing was sent to Autotask')
    // A queue on the rule (or the account mapping, or the connection's default) is enough.
    assert.ok((await client.createTicket(ticketOf({ board: 'Monitoring Alerts' }), ticketCall())).ok)
    const withDefault = await tenant({ noDefault: ['queueID'] }, { defaults: { board: 'Monitoring Alerts' } })
    const ok = await withDefault.client.test(call())
    assert.ok(ok.ok, ok.ok ? '' : ok.failure.message)
    assert.match(ok.value.detail, /queue 'Monitoring Alerts' \(the connection's setting, unless a rule/)
    assert.ok(
      (await withDefault.client.createTicket(ticketOf({ board: 'Monitoring Alerts' }), ticketCall())).ok,
    )
  })

  test('the simulator refuses what Autotask refuses: without the adapter’s queue the create fails as Autotask fails it', async () => {
    const { sim } = await tenant({ noDefault: ['queueID'] })
    const res = await fetch(`${sim.url}/ATServicesRest/V1.0/Tickets`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ApiIntegrationCode: credentials.integrationCode,
        UserName: credentials.username,
        Secret: credentials.secret,
      },
      body: JSON.stringify({ companyID: 0, title: 't', status: 1, priority: 2 }),
    })
    assert.equal(res.status, 500)
    assert.match(((await res.json()) as { errors: string[] }).errors[0] ?? '', /Supply a QueueID/)
  })

  test('no default priority and none chosen, a wrong queue, a required category: each one sentence naming the setting', async () => {
    const priority = await tenant({ noDefault: ['priority'] })
    const p = await priority.client.test(call())
    assert.match(
      p.ok ? '' : p.failure.message,
      /needs a priority .*default "Priority" .*defaults\.priority.*'High'/,
    )
    const both = await tenant({ noDefault: ['queueID', 'priority'] })
    const b = await both.client.createTicket(ticketOf(), ticketCall())
    assert.match(
      b.ok ? '' : b.failure.message,
      /needs a queue and a priority on every new ticket .*defaults\.board and defaults\.priority/,
    )
    const wrong = await tenant({}, { defaults: { board: 'Helpdesk' } })
    const w = await wrong.client.test(call())
    assert.match(
      w.ok ? '' : w.failure.message,
      /Autotask has no queue 'Helpdesk' \(its queues: 'Client Portal'/,
    )
    const category = await tenant({ noDefault: ['ticketCategory'], requireCategory: true })
    const c = await category.client.createTicket(ticketOf(), ticketCall())
    assert.match(c.ok ? '' : c.failure.message, /needs a ticket category .*"Ticket category".*ticketCategory/)
    const chosen = await tenant(
      { noDefault: ['ticketCategory'], requireCategory: true },
      { ticketCategory: 'Managed Alerts', source: 'Monitoring Alert' },
    )
    const made = await chosen.client.createTicket(ticketOf(), ticketCall())
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    const t = chosen.sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)
    assert.deepEqual([t?.ticketCategory, t?.source], [101, 8])
    const optional = await tenant({ noDefault: ['ticketCategory'] })
    const o = await optional.client.test(call())
    assert.match(o.ok ? o.value.detail : o.failure.message, /no ticket category is sent/)
  })

  test("texts fit the tenant's own field lengths: the title cut at a word, the whole title opening the description", async () => {
    const { sim, client } = await tenant()
    sim.state.rules.lengths['Tickets.title'] = 60
    sim.state.rules.lengths['Tickets.resolution'] = 500
    const summary = `Backup failed on ${'the file server of the branch office '.repeat(4)}`
    const made = await client.createTicket(
      ticketOf({ summary, description: 'x '.repeat(6000) }),
      ticketCall(),
    )
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    const t = sim.state.tickets.find((x) => String(x.id) === made.value.ticketId)
    assert.ok(t && t.title.length <= 60 && t.title.endsWith('…'), t?.title)
    assert.ok(t?.description?.startsWith(summary.trim()))
    assert.ok((t?.description?.length ?? 0) <= 8000)
    const closed = await client.closeTicket(
      made.value.ticketId,
      { note: `Resolved.\n\n${'y '.repeat(2000)}\n\nMessage ID: m-res`, closedStatus: null },
      ticketCall(),
    )
    assert.ok(closed.ok, closed.ok ? '' : closed.failure.message)
    assert.ok((t?.resolution?.length ?? 0) <= 500 && t?.resolution?.endsWith('Message ID: m-res'))
  })

  test('a lost note answer: the retry finds the note by ticketID and a contains on its description', async () => {
    const { sim, client } = await tenant()
    const made = await client.createTicket(ticketOf({ board: 'Monitoring Alerts' }), ticketCall())
    assert.ok(made.ok)
    const id = made.value.ticketId
    const marker = `m-${Date.now()}`
    const text = `Repeated alert\n\nMessage ID: ${marker}`
    assert.ok((await client.appendNote(id, text, ticketCall({ marker }))).ok)
    const before = sim.calls.length
    assert.ok((await client.appendNote(id, text, ticketCall({ marker, adopt: true }))).ok)
    const asked = sim.calls.slice(before)
    assert.deepEqual(
      asked.map((c) => `${c.method} ${c.url.replace(/^.*V1\.0\//, '')}`),
      ['POST TicketNotes/query'],
    )
    assert.deepEqual((asked[0]?.body as { filter?: unknown } | undefined)?.filter, [
      { op: 'eq', field: 'ticketID', value: Number(id) },
      { op: 'contains', field: 'description', value: marker },
    ])
    assert.equal(sim.state.notes[id]?.length, 1)
    // A tenant whose field information says the description may not be queried: the ticket's notes alone.
    sim.state.rules.unqueryable = ['TicketNotes.description']
    const other = await tenant()
    other.sim.state.rules.unqueryable = ['TicketNotes.description']
    const t2 = await other.client.createTicket(ticketOf({ board: 'Monitoring Alerts' }), ticketCall())
    assert.ok(t2.ok)
    assert.ok((await other.client.appendNote(t2.value.ticketId, text, ticketCall({ marker }))).ok)
    const again = await other.client.appendNote(t2.value.ticketId, text, ticketCall({ marker, adopt: true }))
    assert.ok(again.ok, again.ok ? '' : again.failure.message)
    assert.equal(other.sim.state.notes[t2.value.ticketId]?.length, 1)
    const fresh = await other.client.appendNote(
      t2.value.ticketId,
      'New update\n\nMessage ID: m-new',
      ticketCall({ marker: 'm-new', adopt: true }),
    )
    assert.ok(fresh.ok)
    assert.equal(other.sim.state.notes[t2.value.ticketId]?.length, 2, 'a note not there yet is written')
  })

  test('a lost create answer among more than a page of tickets: one query on externalID adopts it', async () => {
    const { sim, client } = await tenant({ tickets: 700 })
    const c = ticketCall()
    sim.faults.set({ loseAnswer: { count: 1, method: 'POST', match: '/V1\\.0/Tickets$' } })
    const lost = await client.createTicket(ticketOf({ board: 'Monitoring Alerts' }), c)
    assert.equal(lost.ok ? null : lost.failure.retryable, true)
    const before = sim.calls.length
    const again = await client.createTicket(ticketOf({ board: 'Monitoring Alerts' }), { ...c, adopt: true })
    assert.ok(again.ok && again.value.adopted)
    const asked = sim.calls.slice(before)
    assert.deepEqual(
      asked.map((x) => `${x.method} ${x.url.replace(/^.*V1\.0\//, '')}`),
      ['POST Tickets/query'],
    )
    assert.deepEqual((asked[0]?.body as { filter?: unknown } | undefined)?.filter, [
      { op: 'eq', field: 'externalID', value: c.ref },
    ])
    assert.equal(sim.state.tickets.filter((t) => t.externalID === c.ref).length, 1)
  })

  test('look-ups behind the settings: ticket categories, sources and note types', async () => {
    const { client } = await tenant()
    const names = async (what: 'categories' | 'sources' | 'noteTypes') => {
      const r = await client.lookup(what, {}, call())
      return r.ok ? r.value.map((e) => e.name) : r.failure.message
    }
    assert.deepEqual(await names('categories'), ['Standard', 'AEM Alert', 'RMA', 'Managed Alerts'])
    assert.ok((await names('sources')).includes('Monitoring Alert'))
    assert.ok((await names('noteTypes')).includes('Task Notes'))
  })

  test('moveTicket: one PATCH of companyID and queueID, a contact and location emptied; bad company refused; gone ticket not-found', async () => {
    const { sim, client } = await tenant()
    const made = await client.createTicket(ticketOf({ board: 'Monitoring Alerts' }), ticketCall())
    assert.ok(made.ok, made.ok ? '' : made.failure.message)
    const id = made.value.ticketId
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    assert.ok(t)
    const move = client.moveTicket
    assert.ok(move, 'Autotask moves tickets')
    const to = String(sim.state.companies[1]?.id)
    // A technician set a contact and a location of the old company: the simulator refuses a move that
    // keeps them, as Autotask does.
    Object.assign(t, { contactID: 501, companyLocationID: 601 })
    const kept = await fetch(`${sim.url}/ATServicesRest/V1.0/Tickets`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        ApiIntegrationCode: credentials.integrationCode,
        UserName: credentials.username,
        Secret: credentials.secret,
      },
      body: JSON.stringify({ id: Number(id), companyID: Number(to) }),
    })
    assert.equal(kept.status, 500)
    assert.match(await kept.text(), /contactID 501 does not belong/)
    const moved = await move.call(client, id, { companyId: to, board: 'Service Desk' }, ticketCall())
    assert.deepEqual(moved.ok ? moved.value : moved.failure, null)
    assert.deepEqual(
      [t.companyID, t.queueID, t.contactID, t.companyLocationID, t.status],
      [Number(to), 29682835, null, null, 1],
    )
    assert.deepEqual(sim.callsTo(/\/V1\.0\/Tickets$/, 'PATCH').at(-1)?.body, {
      id: Number(id),
      companyID: Number(to),
      queueID: 29682835,
      contactID: null,
      companyLocationID: null,
    })
    // Without a board the queue stays; nothing to empty, so only the company is sent.
    const back = await move.call(client, id, { companyId: '0', board: null }, ticketCall())
    assert.ok(back.ok, back.ok ? '' : back.failure.message)
    assert.deepEqual(sim.callsTo(/\/V1\.0\/Tickets$/, 'PATCH').at(-1)?.body, { id: Number(id), companyID: 0 })
    assert.deepEqual([t.companyID, t.queueID], [0, 29682835])
    for (const [target, text] of [
      [{ companyId: '424242', board: null }, /companyID 424242 does not reference an existing Company/],
      [{ companyId: 'Acme', board: null }, /company ids are numbers/],
      [{ companyId: to, board: 'No Such Queue' }, /no queue 'No Such Queue'/],
    ] as const) {
      const r: PsaResult<null> = await move.call(client, id, target, ticketCall())
      assert.deepEqual(r.ok ? null : [r.failure.kind, r.failure.retryable], ['rejected', false])
      assert.match(r.ok ? '' : r.failure.message, text)
    }
    assert.equal(t.companyID, 0, 'a refused move changes nothing')
    const gone = await move.call(client, '987654', { companyId: to, board: null }, ticketCall())
    assert.equal(gone.ok ? 'ok' : gone.failure.kind, 'not-found')
  })
})
