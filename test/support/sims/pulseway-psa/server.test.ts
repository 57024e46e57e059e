// Self-test of the Pulseway PSA simulator over HTTP, for what differs from the Kaseya BMS simulator it
// is built from (../kaseya-bms/server.test.ts covers the shared routes): the log-in with Pulseway's
// field names, a create that needs AccountId, Title, Details and PriorityId only (the rest defaulted)
// and refuses an unknown account, custom fields as a JSON string, notes that name their writer, no
// webhooks and no activities feed, the hourly limit per endpoint answered 429 with an envelope, a
// technician's close, reopen, note and time entry, and lost answers.
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, it } from 'node:test'
import { loseNextAnswer } from '../harness.js'
import { type PulsewayPsaSim, pulsewayCalls, seededTickets, startPulsewayPsaSim } from './server.js'

type Json = Record<string, any>
const login = {
  grantType: 'password',
  tenant: 'Acme MSP',
  userName: 'api@acme-msp.example',
  password: 'pulseway-password',
}

describe('Pulseway PSA simulator', () => {
  let sim: PulsewayPsaSim
  let token = ''
  const api = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const res = await fetch(`${sim.url}/v2${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.token ?? token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json }
  }
  const authenticate = async (fields: Record<string, string> = login) => {
    const res = await fetch(`${sim.url}/v2/security/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
    return { status: res.status, body: (await res.json()) as Json }
  }
  const minimal = { AccountId: 1001, Title: 'Disk full', Details: 'C: at 99%', PriorityId: 2 }

  before(async () => {
    sim = await startPulsewayPsaSim({ accounts: 30 })
    token = (await authenticate()).body.result.accessToken
  })
  after(() => sim.close())
  afterEach(() => sim.faults.clear())

  it('logs in with grantType, userName, password and tenant; a wrong password is refused in an envelope', async () => {
    const ok = await authenticate()
    assert.equal(ok.body.success, true)
    assert.equal(ok.body.result.accessToken.split('.').length, 3, 'a JWT')
    const wrong = await authenticate({ ...login, password: 'nope' })
    assert.deepEqual([wrong.status, wrong.body.success], [200, false])
    assert.equal((await api('/security/userinfo', { token: 'nope' })).status, 401)
    assert.equal(sim.state.tickets.length, seededTickets)
  })

  it('a create needs AccountId, Title, Details and PriorityId; the rest take the tenant’s defaults', async () => {
    for (const left of ['AccountId', 'Title', 'Details', 'PriorityId']) {
      const { [left]: _gone, ...body } = minimal as Record<string, unknown>
      const res = await api('/servicedesk/tickets', { method: 'POST', body })
      assert.equal(res.body.success, false, left)
      assert.match(JSON.stringify(res.body.error), new RegExp(`The ${left} field is required`), left)
    }
    const made = await api('/servicedesk/tickets', { method: 'POST', body: minimal })
    assert.equal(made.body.success, true, JSON.stringify(made.body.error))
    const t = made.body.result
    assert.ok(t.id && t.ticketNumber)
    assert.ok(t.locationId > 0 && t.statusId > 0 && t.typeId > 0 && t.sourceId > 0, 'defaults given')
    assert.equal(typeof t.customFields, 'string', 'custom fields as a JSON string')
    assert.deepEqual(JSON.parse(t.customFields), {})
  })

  it('refuses an unknown AccountId, and a title over its length', async () => {
    const unknown = await api('/servicedesk/tickets', {
      method: 'POST',
      body: { ...minimal, AccountId: 999_999 },
    })
    assert.deepEqual(
      [unknown.body.success, unknown.body.error.message],
      [false, 'Account 999999 does not exist.'],
    )
    const long = await api('/servicedesk/tickets', {
      method: 'POST',
      body: { ...minimal, Title: 'x'.repeat(sim.state.limits.title + 1) },
    })
    assert.equal(long.body.success, false)
  })

  it('has no webhooks and no activities feed; notes name their writer, time logs are listed', async () => {
    assert.equal((await api('/admin/webhooks/events/lookup')).status, 404)
    const id = (await api('/servicedesk/tickets', { method: 'POST', body: minimal })).body.result.id
    assert.equal((await api(`/servicedesk/tickets/${id}/activities`)).status, 404)
    await sim.technician.note(String(id), 'Called the customer')
    await sim.technician.time(String(id))
    const notes = (await api(`/servicedesk/tickets/${id}/notes`)).body.result
    assert.equal(notes[0].createdByName, sim.state.users.technician.name)
    assert.match(notes[0].createdByEmail, /@/)
    assert.equal(notes[0].createdBy, undefined, 'no user id')
    const logs = (await api(`/servicedesk/tickets/${id}/timelogs`)).body.result
    assert.equal(logs.length, 1)
  })

  it('a technician closes and reopens in the app; a read shows it', async () => {
    const id = String((await api('/servicedesk/tickets', { method: 'POST', body: minimal })).body.result.id)
    await sim.technician.close(id)
    assert.ok((await api(`/servicedesk/tickets/${id}`)).body.result.completedDate)
    const res = await fetch(`${sim.url}/__sim/technician/reopen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    })
    assert.equal(res.status, 204)
    assert.equal((await api(`/servicedesk/tickets/${id}`)).body.result.completedDate, null)
  })

  it('over the hourly limit of an endpoint: 429 with an envelope and Retry-After', async () => {
    sim.state.limit.perEndpointPerHour = 3
    try {
      let last = { status: 0, headers: new Headers(), body: {} as Json }
      for (let i = 0; i < 4; i++) last = await api('/system/priorities/lookup')
      assert.equal(last.status, 429)
      assert.equal(last.body.success, false)
      assert.match(last.body.error.message, /3 calls per hour/)
      assert.ok(Number(last.headers.get('retry-after')) > 0)
      assert.equal((await api('/system/queues/lookup')).status, 200, 'another endpoint is not limited')
    } finally {
      sim.state.limit.perEndpointPerHour = 1500
      sim.state.limit.calls = {}
    }
  })

  it('loses a create’s answer on request: the ticket is made, the client gets no answer', async () => {
    const before = sim.state.tickets.length
    loseNextAnswer(sim, pulsewayCalls, 'create')
    await assert.rejects(api('/servicedesk/tickets', { method: 'POST', body: minimal }))
    assert.equal(sim.state.tickets.length, before + 1)
  })
})
