// The Syncro simulator, over HTTP, as a client would meet it: the API token in the Authorization header
// (Bearer or raw, the legacy ?api_key=), per-token permissions, pages of 25 with meta (per_page is not
// Syncro's and is ignored), customers that are people, several hundred tickets, the ticket list's
// documented filters only, tickets with Syncro's required fields, its field limits and Rails-style 422s,
// comments (read with their ticket), closing with Resolved (resolved_at) while the custom "Resolved -
// Pending Confirmation" leaves a ticket open, invoice schedules and their line items, 180 requests a
// minute, a lost answer, a delete, and a technician's changes in the web app (two-way sync).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { loseNextAnswer, type StartedSim } from '../harness.js'
import { type SyncroState, seededTickets, startSyncroSim, syncroCalls } from './server.js'

let sim: StartedSim<SyncroState>
const bearer = { authorization: 'Bearer syncro-api-token' }
type Answer = { status: number; json: any; headers: Headers }

async function http(method: string, path: string, body?: unknown, headers: object = bearer): Promise<Answer> {
  const res = await fetch(`${sim.url}/api/v1${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: res.status, json, headers: res.headers }
}

const ticket = { customer_id: 1001, subject: 'Disk full on SRV01', problem_type: 'Hardware' }

before(async () => {
  sim = await startSyncroSim()
})
after(() => sim.close())

describe('Syncro simulator', () => {
  test('the token: Bearer or raw in Authorization, or the legacy api_key; anything else is 401', async () => {
    assert.equal((await http('GET', '/me')).status, 200)
    assert.equal((await http('GET', '/me', undefined, { authorization: 'syncro-api-token' })).status, 200)
    assert.equal((await http('GET', '/me?api_key=syncro-api-token', undefined, {})).status, 200)
    const missing = await http('GET', '/me', undefined, {})
    assert.equal(missing.status, 401)
    assert.equal(typeof missing.json.error, 'string')
    assert.equal((await http('GET', '/me', undefined, { authorization: 'Bearer nope' })).status, 401)
  })

  test('a token without "Tickets - Create" may read tickets but not create one (403)', async () => {
    const limited = { authorization: 'Bearer limited-token' }
    assert.equal((await http('GET', '/tickets', undefined, limited)).status, 200)
    const denied = await http('POST', '/tickets', ticket, limited)
    assert.equal(denied.status, 403)
    assert.match(denied.json.error, /Tickets - Create/)
  })

  test('customers come 25 a page with meta; people have no business name', async () => {
    const first = await http('GET', '/customers?page=1')
    assert.equal(first.json.customers.length, 25)
    assert.deepEqual(first.json.meta, { total_pages: 3, total_entries: 60, per_page: 25, page: 1 })
    const last = await http('GET', '/customers?page=3')
    assert.equal(last.json.customers.length, 10)
    assert.equal((await http('GET', '/customers?page=4')).json.customers.length, 0)
    const person = first.json.customers.find((c: any) => c.business_name === null)
    assert.ok(person?.fullname || person?.email, 'a person is named by its person')
    assert.equal((await http('GET', '/customers?page=1&per_page=100')).json.customers.length, 25)
    const found = await http('GET', '/customers?query=lovelace')
    assert.ok(found.json.customers.length > 0)
    assert.ok(found.json.customers.every((c: any) => /lovelace/i.test(c.fullname)))
  })

  test('problem types in /settings and /ticket_problem_types; statuses in /tickets/settings', async () => {
    const settings = await http('GET', '/settings')
    assert.ok(settings.json.ticket.problem_types.includes('Hardware'))
    const types = await http('GET', '/ticket_problem_types')
    assert.ok(types.json.ticket_problem_types.some((t: any) => t.name === 'Hardware' && t.id))
    const statuses = await http('GET', '/tickets/settings')
    assert.ok(statuses.json.ticket_status_list.includes('Resolved'))
    assert.ok(statuses.json.ticket_status_list.includes('Resolved - Pending Confirmation'))
  })

  test('several hundred tickets, 25 a page; only the documented filters apply', async () => {
    const all = await http('GET', '/tickets?page=1')
    assert.equal(all.json.tickets.length, 25)
    assert.equal(all.json.meta.total_entries, seededTickets)
    assert.ok(seededTickets > 250, 'more than ten pages')
    const ids = all.json.tickets.map((t: any) => t.id)
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      'newest first',
    )
    assert.equal((await http('GET', '/tickets?per_page=100')).json.tickets.length, 25, 'per_page ignored')
    const undocumented = await http('GET', '/tickets?problem_type=Hardware&sort=id%20ASC&since=2099-01-01')
    assert.equal(undocumented.json.meta.total_entries, seededTickets, 'undocumented filters are not applied')
    const since = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
    const recent = await http('GET', `/tickets?customer_id=1001&created_after=${since}`)
    assert.ok(recent.json.meta.total_entries > 0 && recent.json.meta.total_entries < seededTickets / 3)
    assert.ok(
      recent.json.tickets.every((t: any) => t.customer_id === 1001 && t.created_at.slice(0, 10) >= since),
    )
    const bySubject = await http('GET', `/tickets?query=${encodeURIComponent('disk full')}`)
    assert.ok(bySubject.json.tickets.length > 0)
    assert.ok(bySubject.json.tickets.every((t: any) => /disk full/i.test(t.subject)))
    const byRef = await http('GET', '/tickets?query=seeded-0')
    assert.equal(byRef.json.tickets.length, 0, 'the search covers the subject and number, not comments')
  })

  test("a ticket needs a customer, a subject and one of the account's problem types: else 422", async () => {
    const before = sim.state.tickets.length
    const none = await http('POST', '/tickets', {})
    assert.equal(none.status, 422)
    assert.deepEqual(Object.keys(none.json.errors).sort(), ['customer', 'problem_type', 'subject'])
    assert.deepEqual(none.json.errors.subject, ["can't be blank"])
    for (const bad of [
      { ...ticket, problem_type: 'Plumbing' },
      { ...ticket, status: 'Closed' },
      { ...ticket, priority: 'Normal' },
      { ...ticket, subject: 'x'.repeat(256) },
      { ...ticket, customer_id: 1 },
    ]) {
      assert.equal((await http('POST', '/tickets', bad)).status, 422, JSON.stringify(bad))
    }
    sim.state.errorStyle = 'message'
    assert.deepEqual((await http('POST', '/tickets', { ...ticket, subject: '' })).json, {
      message: ["Subject can't be blank"],
    })
    sim.state.errorStyle = 'error'
    assert.deepEqual((await http('POST', '/tickets', { ...ticket, subject: '' })).json, {
      error: "Subject can't be blank",
    })
    sim.state.errorStyle = 'errors'
    const long = await http('POST', '/tickets', {
      ...ticket,
      comments_attributes: [{ subject: 'Initial Issue', body: 'x'.repeat(65_536) }],
    })
    assert.deepEqual(long.json.errors, { 'comments.body': ['is too long (maximum is 65535 characters)'] })
    assert.equal(sim.state.tickets.length, before)
  })

  test('create → comment → Resolved sets resolved_at; the custom resolved status does not', async () => {
    const made = await http('POST', '/tickets', {
      ...ticket,
      priority: '2 Normal',
      properties: { alertbridge_ref: 'r-1', unknown_field: 'x' },
      comments_attributes: [
        { subject: 'Initial Issue', body: 'Disk at 99%', hidden: true, do_not_email: true },
      ],
    })
    assert.equal(made.status, 200)
    const t = made.json.ticket
    assert.deepEqual([t.status, t.resolved_at, t.comments.length], ['New', null, 1])
    assert.deepEqual(t.properties, {}, 'properties the account has no custom field for are dropped')
    const listed = await http('GET', `/tickets?number=${t.number}`)
    assert.deepEqual(
      listed.json.tickets.map((x: any) => x.id),
      [t.id],
    )
    assert.equal(listed.json.tickets[0].comments, undefined, 'list entries leave comments out')
    assert.equal(
      (await http('GET', `/tickets/${t.id}/comments`)).status,
      404,
      'no comment list: they come with the ticket',
    )
    const comment = await http('POST', `/tickets/${t.id}/comment`, {
      subject: 'Update',
      body: 'still',
      hidden: true,
    })
    assert.equal(comment.json.comment.body, 'still')
    assert.equal((await http('POST', `/tickets/${t.id}/comment`, { subject: 'x' })).status, 422)
    assert.equal((await http('POST', `/tickets/${t.id}/comment`, { body: 'x'.repeat(65_536) })).status, 422)
    assert.equal((await http('PUT', `/tickets/${t.id}`, { subject: 'x'.repeat(256) })).status, 422)
    const open = async () => (await http('GET', '/tickets?status=Not%20Closed')).json.meta.total_entries
    const pending = await http('PUT', `/tickets/${t.id}`, { status: 'Resolved - Pending Confirmation' })
    assert.equal(pending.json.ticket.resolved_at, null)
    const openBefore = await open()
    const resolved = await http('PUT', `/tickets/${t.id}`, { status: 'Resolved' })
    assert.ok(resolved.json.ticket.resolved_at)
    assert.equal(await open(), openBefore - 1)
    assert.equal((await http('PUT', `/tickets/${t.id}`, { status: 'Done' })).status, 422)
    const got = await http('GET', `/tickets/${t.id}`)
    assert.equal(got.json.ticket.comments.length, 2)
    assert.equal((await http('GET', '/tickets/424242')).status, 404)
  })

  test('invoice schedules by customer, their line items, and a quantity set on one', async () => {
    const list = await http('GET', '/schedules?customer_id=1001')
    assert.deepEqual(
      list.json.schedules.map((s: any) => s.id),
      [501, 502],
    )
    assert.equal(list.json.schedules[0].line_items, undefined)
    const one = await http('GET', '/schedules/501')
    assert.equal(one.json.schedule.line_items[0].quantity, 10)
    assert.equal((await http('PUT', '/schedules/501/line_items/7001', { quantity: 12 })).status, 200)
    assert.equal(
      (await http('PUT', '/schedules/501/line_items/7001', { line_item: { quantity: 13 } })).status,
      200,
    )
    assert.equal(sim.state.schedules[0]?.line_items[0]?.quantity, 13)
    assert.equal((await http('PUT', '/schedules/501/line_items/7001', { quantity: -1 })).status, 422)
    assert.equal((await http('PUT', '/schedules/501/line_items/9', { quantity: 1 })).status, 404)
  })

  test('180 requests a minute: then 429 without rate headers, with Retry-After where configured', async () => {
    const limitedSim = await startSyncroSim({ perMinute: 5 })
    try {
      const get = () => fetch(`${limitedSim.url}/api/v1/me`, { headers: bearer })
      for (let i = 0; i < 5; i++) assert.equal((await get()).status, 200)
      const refused = await get()
      assert.equal(refused.status, 429)
      assert.equal(refused.headers.get('retry-after'), null)
      assert.match(await refused.text(), /Retry later/)
      limitedSim.state.rate.retryAfterSeconds = 30
      assert.equal((await get()).headers.get('retry-after'), '30')
      assert.equal(limitedSim.state.rate.refused, 2)
    } finally {
      await limitedSim.close()
    }
    const standard = await startSyncroSim()
    await standard.close()
    assert.equal(standard.state.rate.perMinute, 180, "Syncro's documented limit by default")
  })

  test('a lost answer: the comment is written, the connection drops before the answer', async () => {
    const id = sim.state.tickets[0]!.id
    const count = sim.state.tickets[0]!.comments.length
    loseNextAnswer(sim, syncroCalls, 'note')
    await assert.rejects(http('POST', `/tickets/${id}/comment`, { subject: 'Update', body: 'lost' }))
    assert.equal(sim.state.tickets[0]!.comments.length, count + 1)
    sim.faults.clear()
  })

  test('faults over HTTP: the next call fails with the configured status', async () => {
    await fetch(`${sim.url}/__sim/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail: { status: 503, count: 1 } }),
    })
    assert.equal((await http('GET', '/me')).status, 503)
    assert.equal((await http('GET', '/me')).status, 200)
    assert.match(sim.describe(), /Bearer syncro-api-token/)
  })

  test('a technician in the web app: authored comments and timers move updated_at; a delete is a 404', async () => {
    const made = (await http('POST', '/tickets', ticket)).json.ticket
    const technician = (action: string, body: object) =>
      fetch(`${sim.url}/__sim/technician/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: String(made.id), ...body }),
      })
    assert.equal((await technician('note', { text: 'Called the customer' })).status, 204)
    assert.equal((await technician('time', {})).status, 204)
    const t = (await http('GET', `/tickets/${made.id}`)).json.ticket
    assert.equal(t.comments.at(-1).tech, 'Jamie Rivera')
    assert.equal(t.ticket_timers.length, 1)
    assert.ok(t.updated_at >= made.updated_at)
    assert.equal(
      (await http('DELETE', `/tickets/${made.id}`, undefined, { authorization: 'Bearer limited-token' }))
        .status,
      403,
    )
    assert.equal((await http('DELETE', `/tickets/${made.id}`)).status, 200)
    assert.equal((await http('GET', `/tickets/${made.id}`)).status, 404)
    assert.equal((await technician('close', {})).status, 404)
  })
})
