// The HaloPSA simulator, over HTTP, as a client would meet it: authinfo, the form-encoded token endpoint
// (client check, tenant, expiry), bearer tokens on the API, tickets posted as arrays with Halo's
// validation, several pages of seeded tickets listed only by the query parameters Halo documents (others
// ignored), actions that move the status and are listed per ticket, closed statuses left out by
// excludeclosed, paging with record_count, text limits, recurring invoice lines, the instance rate limit
// and the harness's faults (the calls whose answers the tests lose among them).
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, test } from 'node:test'
import { hold } from '../../wait.js'
import type { StartedSim } from '../harness.js'
import { type HaloState, haloCalls, startHaloPsaSim } from './server.js'

let sim: StartedSim<HaloState>
type Answer = { status: number; json: any; text: string; headers: Headers }

async function http(
  method: string,
  path: string,
  o: { body?: unknown; token?: string; form?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (o.token) headers.authorization = `Bearer ${o.token}`
  let body: string | undefined
  if (o.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(o.form).toString()
  } else if (o.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(o.body)
  }
  const res = await fetch(`${sim.url}${path}`, { method, headers, body })
  const text = await res.text()
  let json: any = null
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: res.status, json, text, headers: res.headers }
}

const form = () => ({
  grant_type: 'client_credentials',
  client_id: sim.state.credentials.clientId,
  client_secret: sim.state.credentials.clientSecret,
  scope: 'all',
})
async function token(): Promise<string> {
  const res = await http('POST', '/auth/token', { form: form() })
  assert.equal(res.status, 200, res.text)
  return res.json.access_token
}
const api = async (method: string, path: string, body?: unknown) =>
  http(method, `/api${path}`, { token: await token(), body })
const newTicket = { summary: 'Disk full on SRV01', details: 'C: at 99%', client_id: 12, team: 'Service Desk' }

before(async () => {
  sim = await startHaloPsaSim({ clients: 250 })
})
after(() => sim.close())
afterEach(() => {
  sim.faults.clear()
  sim.state.credentials.tenant = null
  sim.state.tokenLifetimeSeconds = 3600
  sim.state.rateLimit = null
})

describe('HaloPSA simulator', () => {
  test('authinfo names the authorisation server without credentials; describe() prints what it accepts', async () => {
    const info = await http('GET', '/api/AuthInfo')
    assert.equal(info.status, 200)
    assert.equal(info.json.auth_url, `${sim.url}/auth`)
    const text = sim.describe()
    for (const s of [sim.url, sim.state.credentials.clientId, sim.state.credentials.clientSecret])
      assert.ok(text.includes(s), s)
  })

  test('the token endpoint takes a client-credentials form; a wrong client, a JSON body or a missing tenant is 400', async () => {
    const good = await http('POST', '/auth/token', { form: form() })
    assert.equal(good.status, 200)
    assert.deepEqual(
      [good.json.token_type, good.json.expires_in, typeof good.json.access_token],
      ['Bearer', 3600, 'string'],
    )
    const wrong = await http('POST', '/auth/token', { form: { ...form(), client_secret: 'nope' } })
    assert.deepEqual([wrong.status, wrong.json.error], [400, 'invalid_client'])
    const json = await http('POST', '/auth/token', { body: form() })
    assert.deepEqual([json.status, json.json.error], [400, 'invalid_request'])
    const grant = await http('POST', '/auth/token', { form: { ...form(), grant_type: 'password' } })
    assert.equal(grant.json.error, 'unsupported_grant_type')
    sim.state.credentials.tenant = 'acme'
    assert.equal((await http('POST', '/auth/token', { form: form() })).status, 400)
    assert.equal((await http('POST', '/auth/token?tenant=acme', { form: form() })).status, 200)
  })

  test('the API wants a live bearer token: none, unknown or expired is 401', async () => {
    assert.equal((await http('GET', '/api/Team')).status, 401)
    assert.equal((await http('GET', '/api/Team', { token: 'made-up' })).status, 401)
    sim.state.tokenLifetimeSeconds = 1
    const short = await token()
    assert.equal((await http('GET', '/api/team', { token: short })).status, 200, 'paths ignore case')
    await hold(1100, 'the 1 s token expires')
    assert.equal((await http('GET', '/api/Team', { token: short })).status, 401)
    const revoked = await token()
    sim.state.tokens = {}
    assert.equal((await http('GET', '/api/Team', { token: revoked })).status, 401)
  })

  test('tickets are posted as an array; one comes back as an object, several as an array', async () => {
    const notArray = await api('POST', '/Tickets', newTicket)
    assert.equal(notArray.status, 400)
    const one = await api('POST', '/Tickets', [{ ...newTicket, third_party_id_string: 'ref-1' }])
    assert.equal(one.status, 200, one.text)
    assert.equal(typeof one.json.id, 'number')
    assert.deepEqual([one.json.status_id, one.json.team, one.json.hasbeenclosed], [1, 'Service Desk', false])
    const two = await api('POST', '/Tickets', [newTicket, { ...newTicket, summary: 'Second' }])
    assert.ok(Array.isArray(two.json) && two.json.length === 2)
    const read = await api('GET', `/Tickets/${one.json.id}`)
    assert.equal(read.json.third_party_id_string, 'ref-1')
    assert.equal((await api('GET', '/Tickets/999999')).status, 404)
  })

  test('ticket lists: several pages seeded; a parameter Halo does not document (third_party_id_string) is ignored', async () => {
    const t = await token()
    const get = async (q: string) => (await http('GET', `/api/Tickets?${q}`, { token: t })).json
    const all = await get('pageinate=true&page_size=500&page_no=1')
    assert.ok(all.record_count > 400, `${all.record_count} tickets`)
    assert.equal(all.tickets.length, 100, 'pages hold 100 at most')
    assert.equal(all.tickets[0].id < all.tickets[1].id, true, 'oldest first without an order')
    assert.equal('third_party_id_string' in all.tickets[0], false, 'lists leave the reference out')
    assert.equal('details' in all.tickets[0], false)
    const made = (await api('POST', '/Tickets', [{ ...newTicket, third_party_id_string: 'ref-x' }])).json
    const filtered = await get('third_party_id_string=ref-x&pageinate=true&page_size=100&page_no=1')
    assert.equal(filtered.record_count, all.record_count + 1, 'not filtered')
    assert.notEqual(filtered.tickets[0].id, made.id)
  })

  test('ticket lists: client_id, search_details, the date window on dateoccured, order and orderdesc', async () => {
    const t = await token()
    const get = async (q: string) => http('GET', `/api/Tickets?${q}`, { token: t })
    const since = new Date(Date.now() - 24 * 3600_000).toISOString()
    const until = new Date(Date.now() + 3600_000).toISOString()
    const day = `datesearch=dateoccured&startdate=${since}&enddate=${until}`
    const recent = (
      await get(`client_id=12&${day}&order=id&orderdesc=true&pageinate=true&page_size=100&page_no=1`)
    ).json
    assert.ok(recent.record_count > 100, `${recent.record_count}: more than a page of the client's last day`)
    const ids = recent.tickets.map((x: { id: number }) => x.id)
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => b - a),
      'newest first',
    )
    for (const x of recent.tickets) {
      assert.equal(x.client_id, 12)
      assert.ok(Date.parse(x.dateoccurred) >= Date.parse(since))
    }
    const page2 = (
      await get(`client_id=12&${day}&order=id&orderdesc=true&pageinate=true&page_size=100&page_no=2`)
    ).json
    assert.ok(page2.tickets[0].id < ids.at(-1), 'page 2 goes on where page 1 ended')
    const made = (await api('POST', '/Tickets', [{ ...newTicket, details: 'text\nCorrelation ID: cid-77' }]))
      .json
    const searched = (await get(`client_id=12&search_details=CID-77&${day}`)).json
    assert.deepEqual(
      searched.tickets.map((x: { id: number }) => x.id),
      [made.id],
    )
    const old = (await get('client_id=12&datesearch=datecleared&enddate=2000-01-01T00:00:00Z')).json
    assert.equal(old.record_count, 0, 'datecleared is the closing date')
    const unknownField = (await get('client_id=12&datesearch=nonsense&enddate=2000-01-01T00:00:00Z')).json
    assert.ok(unknownField.record_count > 0, 'a field Halo does not name applies no window')
    const bad = await get(`client_id=12&datesearch=dateoccured&startdate=yesterday`)
    assert.equal(bad.status, 400)
  })

  test('actions are listed per ticket (ticket_id, startdate/enddate, count), without paging', async () => {
    const t = (await api('POST', '/Tickets', [newTicket])).json
    for (const note of ['one', 'two', 'three'])
      await api('POST', '/Actions', [{ ticket_id: t.id, note, outcome: 'Private Note' }])
    const listed = (await api('GET', `/Actions?ticket_id=${t.id}&pageinate=true&page_size=1&page_no=2`)).json
    assert.deepEqual(
      [listed.record_count, listed.actions.map((a: { note: string }) => a.note)],
      [3, ['one', 'two', 'three']],
    )
    const later = (
      await api('GET', `/Actions?ticket_id=${t.id}&startdate=${new Date(Date.now() + 60_000).toISOString()}`)
    ).json
    assert.equal(later.record_count, 0)
    assert.equal((await api('GET', `/Actions?ticket_id=${t.id}&count=1`)).json.actions.length, 1)
  })

  test('the calls the tests lose: the create, a note and a close, never a search', () => {
    const hit = (op: keyof typeof haloCalls, method: string, url: string) =>
      haloCalls[op].method === method && new RegExp(haloCalls[op].match).test(url)
    assert.equal(hit('create', 'POST', '/api/Tickets'), true)
    assert.equal(hit('create', 'GET', '/api/Tickets?client_id=12&order=id'), false)
    for (const op of ['note', 'close-note', 'close'] as const) {
      assert.equal(hit(op, 'POST', '/api/Actions'), true)
      assert.equal(hit(op, 'GET', '/api/Actions?ticket_id=5'), false)
    }
  })

  test('ticket validation answers 400 with plain text: summary, client, team, ids, the type’s mandatory fields', async () => {
    for (const [bad, text] of [
      [{ ...newTicket, summary: '' }, /Summary/],
      [{ ...newTicket, summary: 'x'.repeat(256) }, /255/],
      [{ ...newTicket, details: 'x'.repeat(100_001) }, /Details cannot be longer than 100000/],
      [{ ...newTicket, client_id: 5 }, /Client 5 does not exist/],
      [{ ...newTicket, team: 'Nobody' }, /Team 'Nobody'/],
      [{ ...newTicket, status_id: 77 }, /Status 77/],
      [{ ...newTicket, priority_id: 9 }, /Priority 9/],
      [{ ...newTicket, tickettype_id: 30 }, /Ticket Type 30/],
      [{ ...newTicket, tickettype_id: 27, details: '' }, /'details' is mandatory/],
    ] as const) {
      const res = await api('POST', '/Tickets', [bad])
      assert.equal(res.status, 400, JSON.stringify(bad).slice(0, 80))
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/)
      assert.match(res.text, text)
    }
  })

  test('an action with new_status moves the ticket; only the closed statuses close it; excludeclosed leaves them out', async () => {
    const t = (await api('POST', '/Tickets', [newTicket])).json
    const resolved = await api('POST', '/Actions', [
      { ticket_id: t.id, note: 'fixed', outcome: 'Private Note', new_status: 8 },
    ])
    assert.equal(resolved.status, 201, resolved.text)
    assert.deepEqual([resolved.json.note, resolved.json.outcome_id], ['fixed', 2])
    assert.equal((await api('GET', `/Tickets/${t.id}`)).json.hasbeenclosed, false, 'Resolved does not close')
    await api('POST', '/Actions', [{ ticket_id: t.id, note: 'done', new_status: 9 }])
    const closed = (await api('GET', `/Tickets/${t.id}`)).json
    assert.deepEqual([closed.status_id, closed.hasbeenclosed, typeof closed.dateclosed], [9, true, 'string'])
    const listed = await api('GET', `/Actions?ticket_id=${t.id}`)
    assert.equal(listed.json.record_count, 2)
    assert.equal((await api('POST', '/Actions', [{ ticket_id: 1, note: 'x' }])).status, 400)
    const long = await api('POST', '/Actions', [{ ticket_id: t.id, note: 'x'.repeat(100_001) }])
    assert.deepEqual([long.status, long.text], [400, 'The note cannot be longer than 100000 characters.'])
    assert.equal(
      (await api('POST', '/Actions', [{ ticket_id: t.id, note: 'x', outcome: 'Nope' }])).status,
      400,
    )
    const all = (await api('GET', '/Status')).json.map((s: { id: number }) => s.id)
    const open = (await api('GET', '/Status?excludeclosed=true')).json.map((s: { id: number }) => s.id)
    assert.deepEqual(
      all.filter((id: number) => !open.includes(id)),
      [9, 23],
    )
    const updated = await api('POST', '/Tickets', [{ id: t.id, status_id: 2 }])
    assert.deepEqual([updated.json.status_id, updated.json.dateclosed], [2, null])
  })

  test('clients page by at most 100 with record_count; lists of configuration are bare arrays', async () => {
    const page = await api('GET', '/Client?pageinate=true&page_size=500&page_no=3')
    assert.deepEqual([page.json.record_count, page.json.clients.length], [249, 49], 'one client is inactive')
    const search = await api('GET', '/Client?search=globex')
    assert.deepEqual(
      search.json.clients.map((c: { name: string }) => c.name),
      ['Globex Ltd'],
    )
    const priorities = (await api('GET', '/Priority')).json
    assert.equal(priorities.length, 8, 'each SLA lists the priorities again')
    for (const path of ['/Team', '/TicketType', '/Status', '/Outcome'])
      assert.ok(Array.isArray((await api('GET', path)).json), path)
  })

  test('recurring invoices: lines only when asked; a header post keeps only the lines it sends; updatelines sets the ones given', async () => {
    const list = await api('GET', '/RecurringInvoice?client_id=12&pageinate=true&page_size=100&page_no=1')
    assert.equal(list.json.record_count, 2)
    assert.equal(list.json.invoices[0].lines, undefined)
    const withLines = await api('GET', '/RecurringInvoice?client_id=12&includelines=true')
    assert.equal(withLines.json.invoices[0].lines.length, 3)
    const header = (await api('GET', '/RecurringInvoice/-94')).json
    const bumped = header.lines.map((l: { id: number; qty_order: number }) =>
      l.id === 24964 ? { ...l, qty_order: 41 } : l,
    )
    assert.equal((await api('POST', '/RecurringInvoice', [{ id: -94, lines: bumped }])).status, 200)
    assert.deepEqual(
      sim.state.recurringInvoices[0]?.lines.map((l) => l.qty_order),
      [1, 41, 25],
    )
    const updated = await api('POST', '/RecurringInvoice/updatelines', [
      { id: 24965, ihid: -94, qty_order: 30 },
    ])
    assert.equal(updated.json.qty_order, 30)
    assert.equal((await api('POST', '/RecurringInvoice/updatelines', [{ id: 1, qty_order: 1 }])).status, 400)
    assert.equal(
      (await api('POST', '/RecurringInvoice', [{ id: -94, lines: [{ id: 24963, qty_order: 'x' }] }])).status,
      400,
    )
    await api('POST', '/RecurringInvoice', [{ id: -94, lines: [bumped[0]] }])
    assert.deepEqual(
      sim.state.recurringInvoices[0]?.lines.map((l) => l.id),
      [24963],
      'lines left out are removed',
    )
  })

  test('the instance rate limit answers 429 without Retry-After; the harness fault with one', async () => {
    const t = await token()
    sim.state.rateLimit = { requests: 2, perSeconds: 60 }
    sim.state.requestTimes = []
    assert.equal((await http('GET', '/api/Team', { token: t })).status, 200)
    assert.equal((await http('GET', '/api/Team', { token: t })).status, 200)
    const limited = await http('GET', '/api/Team', { token: t })
    assert.deepEqual([limited.status, limited.headers.get('retry-after')], [429, null])
    assert.match(limited.text, /Too many requests/)
    sim.state.rateLimit = null
    sim.faults.set({ fail: { status: 429, count: 1, retryAfterSeconds: 3 } })
    const fault = await http('GET', '/api/Team', { token: t })
    assert.deepEqual([fault.status, fault.headers.get('retry-after')], [429, '3'])
    assert.match(fault.text, /Simulated failure/)
  })
})
