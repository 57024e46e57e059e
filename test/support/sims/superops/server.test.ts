// The SuperOps simulator, over HTTP, as a client would meet it: one GraphQL endpoint, the token (401)
// and the subdomain header (400) checked first, the schema subset enforced by graphql-js (an unknown
// field is refused before any resolver), SuperOps' refusals as HTTP 200 with clientError codes, pages of
// at most 100 whose hasMore is null on the last page, conditions joined by an upper-case AND only,
// resolutionTime set by the tenant's workflow (not by a status's name), throttling inside an HTTP 200
// body, a lost answer matched by the operation, and a technician's changes over HTTP.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { loseNextAnswer } from '../harness.js'
import {
  API_TOKEN,
  READ_ONLY_TOKEN,
  SUBDOMAIN,
  type SuperOpsSim,
  startSuperOpsSim,
  superOpsCalls,
} from './server.js'

let sim: SuperOpsSim
type Answer = { status: number; json: any; headers: Headers }
const headers = { authorization: `Bearer ${API_TOKEN}`, customersubdomain: SUBDOMAIN }

async function gql(
  query: string,
  variables: object = {},
  h: Record<string, string> = headers,
): Promise<Answer> {
  const res = await fetch(sim.endpoint, {
    method: 'POST',
    headers: { ...h, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  })
  const text = await res.text()
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: res.status, json, headers: res.headers }
}

const create = `mutation c($input: CreateTicketInput!) { createTicket(input: $input) { ticketId status resolutionTime } }`
const update = `mutation u($input: UpdateTicketInput!) { updateTicket(input: $input) { ticketId status resolutionTime } }`
const ticket = { subject: 'Disk full on SRV01', client: { accountId: '1001' }, source: 'INTEGRATION' }
const codeOf = (a: Answer) => a.json.errors?.[0]?.extensions?.clientError?.[0]?.code

before(async () => {
  sim = await startSuperOpsSim()
})
after(() => sim.close())

describe('SuperOps simulator', () => {
  test('a bad token is HTTP 401, a bad subdomain HTTP 400; both right answers 200', async () => {
    const q = '{ getStatusList { name } }'
    assert.equal((await gql(q, {}, { ...headers, authorization: 'Bearer api-nope' })).status, 401)
    assert.equal((await gql(q, {}, { ...headers, customersubdomain: 'other' })).status, 400)
    const good = await gql(q)
    assert.equal(good.status, 200)
    assert.ok(good.json.data.getStatusList.some((s: { name: string }) => s.name === 'Closed'))
  })

  test('the schema is enforced: an unknown field or a missing required input is refused before any effect', async () => {
    const before = sim.state.tickets.length
    const unknown = await gql(
      'mutation { createTicket(input: {subject: "x", client: {accountId: "1001"}, source: INTEGRATION}) { nope } }',
    )
    assert.equal(unknown.status, 200)
    assert.match(unknown.json.errors[0].message, /nope/)
    const missing = await gql(create, { input: { subject: 'x', client: { accountId: '1001' } } })
    assert.match(missing.json.errors[0].message, /source/)
    assert.equal(sim.state.tickets.length, before)
  })

  test("SuperOps' refusals: HTTP 200 with errors[].extensions.clientError[] {code, param}", async () => {
    const empty = await gql(create, { input: { ...ticket, subject: '  ' } })
    assert.equal(empty.status, 200)
    assert.equal(codeOf(empty), 'mandatory_validation_failed')
    assert.deepEqual(empty.json.errors[0].extensions.clientError[0].param, { attributes: ['subject'] })
    assert.equal(
      codeOf(await gql(create, { input: { ...ticket, subject: 'x'.repeat(256) } })),
      'value_length_exceeds_limit',
    )
    assert.equal(
      codeOf(await gql(create, { input: { ...ticket, client: { accountId: '9' } } })),
      'referred_value_does_not_exist',
    )
    assert.equal(
      codeOf(await gql(create, { input: { ...ticket, status: 'Done' } })),
      'referred_value_does_not_exist',
    )
    assert.equal(
      codeOf(await gql(update, { input: { ticketId: '1', status: 'Closed' } })),
      'entity_does_not_exist',
    )
    const readOnly = { ...headers, authorization: `Bearer ${READ_ONLY_TOKEN}` }
    assert.equal(codeOf(await gql(create, { input: ticket }, readOnly)), 'forbidden')
  })

  test('a resolving status sets resolutionTime; one that only sounds closed does not; leaving clears it', async () => {
    const made = (await gql(create, { input: ticket })).json.data.createTicket
    assert.equal(made.status, 'Open')
    const requested = await gql(update, { input: { ticketId: made.ticketId, status: 'Closure Requested' } })
    assert.equal(requested.json.data.updateTicket.resolutionTime, null)
    const closed = await gql(update, { input: { ticketId: made.ticketId, status: 'Closed' } })
    assert.match(closed.json.data.updateTicket.resolutionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    const open = await gql(update, { input: { ticketId: made.ticketId, status: 'Open' } })
    assert.equal(open.json.data.updateTicket.resolutionTime, null)
  })

  test('lists: at most 100 a page, hasMore null on the last page, AND only in upper case', async () => {
    const q = `query l($input: ListInfoInput!) { getClientList(input: $input) { clients { accountId } listInfo { page pageSize totalCount hasMore } } }`
    const first = (await gql(q, { input: { page: 1, pageSize: 500 } })).json.data.getClientList
    assert.equal(first.clients.length, 100)
    assert.deepEqual(first.listInfo, { page: 1, pageSize: 100, totalCount: 250, hasMore: true })
    const last = (await gql(q, { input: { page: 3, pageSize: 100 } })).json.data.getClientList
    assert.equal(last.clients.length, 50)
    assert.equal(last.listInfo.hasMore, null)
    const both = (joinOperator: string) =>
      gql(q, {
        input: {
          condition: {
            joinOperator,
            operands: [
              { attribute: 'accountId', operator: 'is', value: '1001' },
              { attribute: 'name', operator: 'is', value: 'Client 0002' },
            ],
          },
        },
      })
    assert.equal((await both('AND')).json.data.getClientList.clients.length, 0)
    assert.equal((await both('and')).json.data.getClientList.clients.length, 2, 'anything but AND is OR')
  })

  test('throttling: beyond the minute’s budget, rate_limit_exceeded in an HTTP 200 body', async () => {
    const own = await startSuperOpsSim({ perMinute: 2 })
    try {
      const call = () =>
        fetch(own.endpoint, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ getStatusList { name } }' }),
        })
      assert.equal((await call()).status, 200)
      await call()
      const refused = await call()
      assert.equal(refused.status, 200)
      const body = (await refused.json()) as {
        data: unknown
        errors: { extensions: { clientError: { code: string }[] } }[]
      }
      assert.equal(body.data, null)
      assert.equal(body.errors[0]?.extensions.clientError[0]?.code, 'rate_limit_exceeded')
      assert.equal(own.state.rate.refused, 1)
    } finally {
      await own.close()
    }
  })

  test('a lost answer is matched by the operation: the note is stored, the answer never comes', async () => {
    const made = (await gql(create, { input: ticket })).json.data.createTicket
    loseNextAnswer(sim, superOpsCalls, 'note')
    // A create is not the note: its answer comes.
    assert.equal((await gql(create, { input: ticket })).status, 200)
    const note = `mutation n($input: CreateTicketNoteInput!) { createTicketNote(input: $input) { noteId } }`
    await assert.rejects(
      gql(note, { input: { ticket: { ticketId: made.ticketId }, content: 'lost', privacyType: 'PRIVATE' } }),
    )
    assert.ok(sim.state.notes.some((n) => n.ticketId === made.ticketId && n.content === 'lost'))
  })

  test('a technician over HTTP: close, reopen, note, time, delete', async () => {
    const made = (await gql(create, { input: ticket })).json.data.createTicket
    const act = (action: string, body: object) =>
      fetch(`${sim.url}/__sim/technician/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    assert.equal((await act('close', { id: made.ticketId })).status, 204)
    const t = sim.state.tickets.find((x) => x.ticketId === made.ticketId)
    assert.equal(t?.status, 'Closed')
    assert.ok(t?.resolutionTime)
    await act('reopen', { id: made.ticketId })
    assert.equal(t?.resolutionTime, null)
    await act('note', { id: made.ticketId, text: 'Called the user' })
    assert.equal(sim.state.notes.at(-1)?.addedBy.name, 'Jamie Rivera')
    await act('time', { id: made.ticketId })
    const read = await gql(
      'query g($input: TicketIdentifierInput!) { getTicket(input: $input) { worklogTimespent } }',
      {
        input: { ticketId: made.ticketId },
      },
    )
    assert.equal(read.json.data.getTicket.worklogTimespent, '0.50')
    await act('delete', { id: made.ticketId })
    const gone = await gql(
      'query g($input: TicketIdentifierInput!) { getTicket(input: $input) { ticketId } }',
      {
        input: { ticketId: made.ticketId },
      },
    )
    assert.equal(gone.json.data.getTicket, null)
    assert.equal((await act('close', { id: made.ticketId })).status, 404)
  })
})
