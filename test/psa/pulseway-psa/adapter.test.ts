// What only Pulseway PSA does, on the Kaseya v2 engine it shares with Kaseya BMS (whose own tests cover
// the shared code): the published API host when none is set, the log-in form spelled as Pulseway
// spells it, credentials only in the form and tokens only in the Bearer header, a create the simulator
// holds to Pulseway's required fields and whose unknown account is refused in Pulseway's words, the
// hourly limit answered with 429 and an envelope taken as a wait, and the list of open tickets changed
// since a time that lets the poll hear a reopen (docs/psa/pulseway-psa.md).
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import type { OutboundCall, OutboundResult } from '../../../src/platform/outbound/http.js'
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { NewPsaTicket, PsaResult } from '../../../src/psa/adapter.js'
import { pulsewayPsa } from '../../../src/psa/pulseway-psa/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { type PulsewayPsaSim, startPulsewayPsaSim } from '../../support/sims/pulseway-psa/server.js'

const login = { tenant: 'Acme MSP', username: 'api@acme-msp.example', password: 'pulseway-password' }
const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })
let n = 0
const ticketCall = () => {
  const id = `pw-${Date.now()}-${n++}`
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
  pulsewayPsa({ http: createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' }) }),
])
const sims: PulsewayPsaSim[] = []
after(() => Promise.all(sims.map((s) => s.close())))

async function setup(
  o: Parameters<typeof startPulsewayPsaSim>[0] = {},
  settings: Record<string, unknown> = {},
) {
  const sim = await startPulsewayPsaSim({ accounts: 30, tickets: 20, ...o })
  sims.push(sim)
  const c = registry.connect(`p-${n++}`, {
    kind: 'pulseway-psa',
    settings: { baseUrl: sim.url, ...login, source: 'Monitoring System', ...settings },
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

describe('Pulseway PSA adapter: log-in', () => {
  test('without baseUrl, the published host: the log-in goes to https://api.psa.pulseway.com/v2, as a camelCase form', async () => {
    const sent: OutboundCall[] = []
    const send = async (c: OutboundCall): Promise<OutboundResult> => {
      sent.push(c)
      return { kind: 'error', error: 'conn', message: 'no network in this test', durationMs: 1 }
    }
    const offline = new PsaRegistry([pulsewayPsa({ http: { send } })])
    const c = offline.connect('p-default-host', { kind: 'pulseway-psa', settings: login })
    assert.ok(c.ok, c.ok ? '' : c.failure.message)
    const r = await c.client.test(call())
    assert.equal(r.ok, false)
    const first = sent[0]
    assert.ok(first, 'a log-in was tried')
    assert.equal(first.url, 'https://api.psa.pulseway.com/v2/security/authenticate')
    assert.equal(first.method, 'POST')
    const form = new URLSearchParams(String(first.body))
    assert.deepEqual(
      [...form.keys()].sort(),
      ['grantType', 'password', 'tenant', 'userName'],
      'the fields as Pulseway spells them',
    )
    assert.equal(form.get('grantType'), 'password')
    assert.ok(!first.url.includes(login.password), 'no password in the URL')
  })

  test('no credential or token in any URL; the log-in is a form, the token a Bearer header', async () => {
    const { sim, client } = await setup({ tokenLifetimeSeconds: 2 })
    const made = value(await client.createTicket(ticket, ticketCall()))
    value(await client.appendNote(made.ticketId, 'still there', ticketCall()))
    value(
      await client.closeTicket(made.ticketId, { note: 'healed', closedStatus: null }, ticketCall()),
      'close',
    )
    value(await client.lookup('companies', {}, call()))
    const tokens = Object.values(sim.state.sessions).flatMap((s) => [s.accessToken, s.refreshToken])
    const secrets = [login.password, login.username, encodeURIComponent(login.username), ...tokens]
    for (const c of sim.calls) {
      for (const secret of secrets) assert.equal(c.url.includes(secret), false, `${c.method} ${c.url}`)
      if (/\/security\/(authenticate|refreshtoken)/.test(c.url)) {
        assert.match(String(c.headers['content-type']), /^application\/x-www-form-urlencoded/)
        assert.equal(c.headers.authorization, undefined)
      } else assert.match(String(c.headers.authorization), /^Bearer \S+\.\S+\.\S+$/)
    }
  })

  test('wrong credentials: an auth failure in one sentence that names Pulseway PSA', async () => {
    const { client } = await setup({}, { password: 'wrong' })
    const r = await client.test(call())
    const f = failure(r)
    assert.match(f.message, /Pulseway PSA/)
  })
})

describe('Pulseway PSA adapter: tickets and refusals', () => {
  test('a create carries the four fields Pulseway needs and the ids resolved from its lists', async () => {
    const { sim, client } = await setup()
    const made = value(await client.createTicket({ ...ticket, priority: 'High' }, ticketCall()))
    const body = sim.callsTo(/\/v2\/servicedesk\/tickets$/, 'POST').at(-1)?.body as Record<string, unknown>
    for (const f of ['AccountId', 'Title', 'Details', 'PriorityId']) assert.ok(body[f], f)
    const t = sim.state.tickets.find((x) => String(x.id) === made.ticketId)
    assert.equal(t?.priorityId, sim.state.priorities.find((p) => p.name === 'High')?.id)
    assert.equal(t?.sourceId, sim.state.lists.sources.find((s) => s.name === 'Monitoring System')?.id)
    assert.match(t?.details ?? '', /\n\(ab-ref:pw-/)
  })

  test('a tenant without the account locations route: the ticket is made without a LocationId', async () => {
    const { sim, client } = await setup()
    sim.faults.set({ fail: { status: 404, count: null, match: '/locations/lookup' } })
    const made = value(await client.createTicket(ticket, ticketCall()))
    sim.faults.clear()
    const body = sim.callsTo(/\/v2\/servicedesk\/tickets$/, 'POST').at(-1)?.body as Record<string, unknown>
    assert.equal(body.LocationId, undefined)
    const t = sim.state.tickets.find((x) => String(x.id) === made.ticketId)
    assert.ok(t && t.locationId > 0, 'Pulseway gave the account’s location')
  })

  test('an account Pulseway does not have: refused, not retried, in Pulseway’s words', async () => {
    const { client } = await setup()
    const f = failure(await client.createTicket({ ...ticket, companyId: '999999' }, ticketCall()))
    assert.equal(f.retryable, false)
    assert.match(f.message, /999999/)
  })

  test('over Pulseway’s hourly limit: 429 with an envelope is a wait with its Retry-After, not a failure', async () => {
    const { sim, client } = await setup()
    value(await client.lookup('priorities', {}, call()))
    sim.state.limit.perEndpointPerHour = 1
    const f = failure(await client.lookup('priorities', {}, call()))
    assert.equal(f.kind, 'rate-limited')
    assert.equal(f.retryable, true)
    assert.ok((f.retryAfterMs ?? 0) > 0, 'the wait Pulseway asked for')
  })
})

describe('Pulseway PSA adapter: a tenant without /v2/security/userinfo', () => {
  test('the test still connects (naming no user) and tickets still read back', async () => {
    const { sim, client } = await setup()
    const made = value(await client.createTicket(ticket, ticketCall()))
    sim.faults.set({ fail: { status: 404, count: null, match: '/v2/security/userinfo' } })
    const tested = value(await client.test(call()), 'test')
    assert.match(tested.detail, /^Connected to Pulseway PSA at \S+; /)
    const [read] = value(await client.readTickets([made.ticketId], call()), 'read')
    assert.equal(read?.state, 'open')
    assert.equal(read?.worked, false)
    sim.faults.clear()
  })
})

describe('Pulseway PSA adapter: what changed, for the poll', () => {
  test('open tickets changed since a time: a reopened one is listed, a closed or untouched one is not', async () => {
    const { sim, client } = await setup()
    assert.equal(client.push, null, 'no push')
    assert.ok(client.changedSince, 'a list of what changed')
    const [a, b, c] = [
      value(await client.createTicket(ticket, ticketCall())).ticketId,
      value(await client.createTicket(ticket, ticketCall())).ticketId,
      value(await client.createTicket(ticket, ticketCall())).ticketId,
    ]
    await sim.technician.close(a)
    await sim.technician.close(b)
    const since = new Date(Date.now() + 1).toISOString()
    await new Promise((resolve) => setTimeout(resolve, 5))
    await sim.technician.reopen(a)
    const changed = value(await client.changedSince(since, call()))
    assert.ok(changed.ticketIds.includes(a), 'the reopened ticket')
    assert.ok(!changed.ticketIds.includes(b), 'a closed ticket is not open')
    assert.ok(!changed.ticketIds.includes(c), 'an untouched ticket did not change')
  })
})
