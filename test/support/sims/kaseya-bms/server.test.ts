// Self-test of the Kaseya BMS simulator over HTTP: what a client meets, from the login and its tokens
// to tickets (several hundred, filtered only by documented parameters, sorted by an assumed Sort
// syntax), notes and resolving, text
// limits, the look-ups and their pages, lookup tables under names a test chooses, the hourly limit per
// endpoint, the recurring services of usage, lost answers, envelopes everywhere, and webhooks: their
// CRUD routes, and pushes carrying a `Signature` header (the simulator's own HMAC), never the secret.
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, afterEach, before, describe, it } from 'node:test'
import { loseNextAnswer } from '../harness.js'
import { signatureOf } from './events.js'
import { bmsCalls, type KaseyaBmsSim, seededTickets, startKaseyaBmsSim } from './server.js'

type Json = Record<string, any>
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})
const login = {
  GrantType: 'password',
  Tenant: 'Acme MSP',
  UserName: 'api@acme-msp.example',
  Password: 'bms-password',
}

describe('Kaseya BMS simulator', () => {
  let sim: KaseyaBmsSim
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
  const authenticate = async (fields = login) => {
    const res = await fetch(`${sim.url}/v2/security/authenticate`, form(fields))
    return { status: res.status, body: (await res.json()) as Json }
  }

  before(async () => {
    sim = await startKaseyaBmsSim({ accounts: 130 })
    token = (await authenticate()).body.result.accessToken
  })
  after(() => sim.close())
  afterEach(() => sim.faults.clear())

  it('logs in with a form and answers camelCase tokens in an envelope; a refused login is HTTP 200', async () => {
    const ok = await authenticate()
    assert.equal(ok.status, 200)
    assert.equal(ok.body.success, true)
    assert.deepEqual(Object.keys(ok.body.result).sort(), [
      'accessToken',
      'accessTokenExpireOn',
      'refreshToken',
      'refreshTokenExpireOn',
    ])
    assert.equal(ok.body.result.accessToken.split('.').length, 3, 'a JWT')
    const wrong = await authenticate({ ...login, Password: 'nope' })
    assert.equal(wrong.status, 200)
    assert.deepEqual([wrong.body.success, wrong.body.error.message], [false, 'Invalid username or password.'])
    const json = await fetch(`${sim.url}/v2/security/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(login),
    })
    assert.equal(json.status, 415)
  })

  it('takes only live Bearer tokens: 401 without, or when expired; a refresh swaps the pair once', async () => {
    assert.equal((await api('/security/userinfo', { token: 'nope' })).status, 401)
    const got = (await authenticate()).body.result
    const session = sim.state.sessions[got.accessToken]!
    session.accessExpiresAt = Date.now() - 1
    const expired = await api('/security/userinfo', { token: got.accessToken })
    assert.equal(expired.status, 401)
    assert.match(String(expired.headers.get('www-authenticate')), /invalid_token.*expired/)
    const refresh = { AccessToken: got.accessToken, RefreshToken: got.refreshToken }
    const renewed = await fetch(`${sim.url}/v2/security/refreshtoken`, form(refresh))
    const fresh = ((await renewed.json()) as Json).result
    assert.equal((await api('/security/userinfo', { token: fresh.accessToken })).body.success, true)
    const again = (await (await fetch(`${sim.url}/v2/security/refreshtoken`, form(refresh))).json()) as Json
    assert.deepEqual(
      [again.success, again.error.message],
      [false, 'The refresh token is invalid or has expired.'],
    )
  })

  it('creates a ticket only with every required field and a location of its account (refusals at HTTP 200)', async () => {
    const missing = await api('/servicedesk/tickets', { method: 'POST', body: { Title: 'Disk full' } })
    assert.equal(missing.status, 200)
    assert.equal(missing.body.success, false)
    assert.ok(missing.body.error.subErrors.includes('The LocationId field is required.'))
    const base = {
      Title: 'Disk full',
      Details: 'C: at 99 %',
      AccountId: 1001,
      StatusId: 1,
      PriorityId: 3,
      TypeId: 1,
      SourceId: 4,
      OpenDate: new Date().toISOString(),
    }
    const elsewhere = await api('/servicedesk/tickets', {
      method: 'POST',
      body: { ...base, LocationId: 5003 },
    })
    assert.equal(elsewhere.body.error.message, 'Location 5003 does not belong to account 1001.')
    const made = await api('/servicedesk/tickets', {
      method: 'POST',
      body: { ...base, LocationId: 5001, QueueId: 2 },
    })
    assert.equal(made.body.success, true)
    assert.equal(typeof made.body.result.id, 'number')
    assert.deepEqual([made.body.result.statusName, made.body.result.completedDate], ['New', null])
    assert.ok('ticketNumber' in made.body.result && !('TicketNumber' in made.body.result), 'camelCase')
    const found = await api(`/servicedesk/tickets?Filter.Title=disk%20FULL&PageSize=10&PageNumber=1`)
    assert.deepEqual(
      found.body.result.map((t: Json) => t.id),
      [made.body.result.id],
    )
    assert.equal(found.body.totalRecords, 1)
  })

  it('notes need a note type; resolve needs a comment and a completed status, and completes the ticket', async () => {
    const id = 9003
    const noType = await api(`/servicedesk/tickets/${id}/notes`, { method: 'POST', body: { Details: 'x' } })
    assert.equal(noType.body.success, false)
    const note = await api(`/servicedesk/tickets/${id}/notes`, {
      method: 'POST',
      body: { Details: 'checked', IsInternal: true, NoteDate: new Date().toISOString(), TypeId: 1 },
    })
    assert.equal(note.body.result.typeName, 'General')
    const resolvedSounding = await api(`/servicedesk/tickets/${id}/resolve`, {
      method: 'POST',
      body: { Comment: 'done', StatusId: 4 },
    })
    assert.match(resolvedSounding.body.error.message, /not a completed status/)
    const resolved = await api(`/servicedesk/tickets/${id}/resolve`, {
      method: 'POST',
      body: { Comment: 'done' },
    })
    assert.deepEqual(
      [resolved.body.result.statusName, typeof resolved.body.result.completedDate],
      ['Completed', 'string'],
    )
    const t = sim.state.tickets.find((x) => x.id === id)!
    assert.equal(t.notes.at(-1)?.details, 'done')
  })

  it('pages from 1 (page 0 read as page 1), at most 100 a page; accounts have no record count', async () => {
    const one = await api('/crm/accounts/lookup?PageSize=500&PageNumber=1')
    assert.equal(one.body.result.length, 100)
    assert.equal('totalRecords' in one.body, false)
    const zero = await api('/crm/accounts/lookup?PageSize=100&PageNumber=0')
    assert.deepEqual(zero.body.result, one.body.result)
    const two = await api('/crm/accounts/lookup?PageSize=100&PageNumber=2')
    assert.equal(two.body.result.length, 129 - 100, 'the inactive account is left out')
    const locations = await api('/crm/accounts/1002/locations/lookup')
    assert.deepEqual(
      locations.body.result.map((l: Json) => [l.id, l.isMain]),
      [
        [5003, false],
        [5004, true],
      ],
    )
  })

  it('statuses carry their basic status (typeId) and no word on completion; unknown lookup tables are refused', async () => {
    const statuses = (await api('/system/statuses/lookup')).body.result as Json[]
    assert.deepEqual(Object.keys(statuses[0]!).sort(), [
      'color',
      'fontColor',
      'id',
      'isActive',
      'isSystemStatus',
      'name',
      'slaEventId',
      'statusOrder',
      'typeId',
    ])
    assert.equal((await api('/system/lookup/TicketType')).body.result.length, 5)
    const unknown = await api('/system/lookup/Nope')
    assert.deepEqual([unknown.status, unknown.body.success], [200, false])
  })

  it('recurring services: listed per contract; posted Units are added, never below zero', async () => {
    const contracts = await api('/finance/contracts/lookup?AccountId=1001')
    assert.deepEqual(
      contracts.body.result.map((c: Json) => c.id),
      [501, 502],
    )
    const block = await api('/finance/contracts/recurringservices/502/services')
    assert.match(block.body.error.message, /not a recurring services contract/)
    const post = (units: number) =>
      api('/finance/contracts/recurringservices/501/services', {
        method: 'POST',
        body: [{ ServiceId: 71, Units: units, EffectiveDate: new Date().toISOString() }],
      })
    assert.equal((await post(3)).body.result.units, 13)
    assert.equal((await post(-13)).body.result.units, 0)
    assert.match((await post(-1)).body.error.message, /cannot go below zero/)
    const listed = await api('/finance/contracts/recurringservices/501/services')
    assert.deepEqual(
      listed.body.result.map((s: Json) => [s.serviceId, s.units]),
      [
        [71, 0],
        [72, 5],
      ],
    )
  })

  it('limits each endpoint per rolling hour: 429 in an envelope, with Retry-After', async () => {
    sim.state.limit.perEndpointPerHour = 2
    sim.state.limit.calls = {}
    try {
      assert.equal((await api('/system/queues/lookup')).status, 200)
      assert.equal((await api('/system/queues/lookup')).status, 200)
      const over = await api('/system/queues/lookup')
      assert.equal(over.status, 429)
      assert.match(over.body.error.message, /2 calls per hour for this endpoint/)
      assert.ok(Number(over.headers.get('retry-after')) > 3500)
      assert.equal((await api('/system/priorities/lookup')).status, 200, 'another endpoint')
    } finally {
      sim.state.limit.perEndpointPerHour = 1500
      sim.state.limit.calls = {}
    }
  })

  it('holds several hundred tickets; applies documented filters only, pages them and counts them', async () => {
    const all = await api('/servicedesk/tickets?PageSize=100&PageNumber=1')
    assert.equal(all.body.result.length, 100)
    assert.ok(all.body.totalRecords >= seededTickets, 'more tickets than a page')
    // Filter.AccountId (singular) is not a parameter of the list: not applied.
    const undocumented = await api('/servicedesk/tickets?Filter.AccountId=1002&PageSize=100')
    assert.equal(undocumented.body.totalRecords, all.body.totalRecords)
    const since = new Date(Date.now() - 2 * 86_400_000).toISOString()
    const recent = await api(
      `/servicedesk/tickets?Filter.AccountIds=1002&Filter.OpenDateFrom=${encodeURIComponent(since)}&PageSize=100`,
    )
    assert.ok(recent.body.totalRecords > 100, 'the account has more than a page of recent tickets')
    assert.ok(recent.body.result.every((t: Json) => t.accountId === 1002 && t.openDate >= since))
    const tagged = await api(`/servicedesk/tickets?Filter.Details=${encodeURIComponent('(ab-ref:seeded-7)')}`)
    assert.deepEqual(
      tagged.body.result.map((t: Json) => t.details.split('\n').at(-1)),
      ['(ab-ref:seeded-7)'],
    )
    const bad = await api('/servicedesk/tickets?Filter.OpenDateFrom=yesterday')
    assert.equal(bad.body.success, false)
  })

  it('sorts the ticket list by a Sort of `Field [asc|desc]` terms, refuses another field, and can be told to ignore or refuse it', async () => {
    const ids = (b: Json) => b.result.map((t: Json) => t.id as number)
    const q = 'Filter.AccountIds=1001&PageSize=20&PageNumber=1'
    const plain = await api(`/servicedesk/tickets?${q}`)
    const newest = await api(`/servicedesk/tickets?${q}&Sort=${encodeURIComponent('OpenDate desc')}`)
    const dates = newest.body.result.map((t: Json) => Date.parse(t.openDate))
    assert.ok(
      dates.every((d: number, i: number) => i === 0 || d <= dates[i - 1]),
      'newest first',
    )
    assert.notDeepEqual(ids(newest.body), ids(plain.body), 'without a Sort: in the order made')
    const twoTerms = await api(`/servicedesk/tickets?${q}&Sort=${encodeURIComponent('statusId, id desc')}`)
    assert.equal(twoTerms.body.success, true)
    for (const sort of ['Nonsense desc', 'OpenDate sideways', '-OpenDate']) {
      const bad = await api(`/servicedesk/tickets?${q}&Sort=${encodeURIComponent(sort)}`)
      assert.equal(bad.body.success, false, sort)
    }
    const search = await api('/servicedesk/tickets/search', {
      method: 'POST',
      body: { Filter: { AccountIds: '1001' }, Sort: 'OpenDate desc', PageSize: 20, PageNumber: 1 },
    })
    assert.deepEqual(ids(search.body), ids(newest.body), 'the search takes the same Sort')
    sim.state.sort = 'ignored'
    const ignored = await api(`/servicedesk/tickets?${q}&Sort=${encodeURIComponent('OpenDate desc')}`)
    assert.deepEqual(ids(ignored.body), ids(plain.body))
    sim.state.sort = 'refused'
    const refused = await api(`/servicedesk/tickets?${q}&Sort=${encodeURIComponent('OpenDate desc')}`)
    assert.equal(refused.body.success, false)
    sim.state.sort = 'applied'
  })

  it('refuses texts over its limits as ASP.NET validation does', async () => {
    const base = {
      Details: 'x',
      AccountId: 1001,
      LocationId: 5001,
      StatusId: 1,
      PriorityId: 3,
      TypeId: 1,
      SourceId: 2,
      OpenDate: new Date().toISOString(),
    }
    const title = await api('/servicedesk/tickets', {
      method: 'POST',
      body: { ...base, Title: 't'.repeat(256) },
    })
    assert.deepEqual(title.body.error.subErrors, [
      'The field Title must be a string with a maximum length of 255.',
    ])
    const details = await api('/servicedesk/tickets', {
      method: 'POST',
      body: { ...base, Title: 'ok', Details: 'd'.repeat(32_001) },
    })
    assert.match(details.body.error.subErrors[0], /Details must be a string with a maximum length of 32000/)
    const noSource = await api('/servicedesk/tickets', {
      method: 'POST',
      body: { ...base, Title: 'ok', SourceId: undefined },
    })
    assert.deepEqual(noSource.body.error.subErrors, ['The SourceId field is required.'])
    const note = await api('/servicedesk/tickets/9003/notes', {
      method: 'POST',
      body: { Details: 'n'.repeat(32_001), IsInternal: true, NoteDate: new Date().toISOString(), TypeId: 1 },
    })
    assert.equal(note.body.success, false)
  })

  it('lists a ticket’s notes a page at a time, without a record count', async () => {
    const t = sim.state.tickets.find((x) => x.id === 9001)!
    for (let i = 0; i < 120; i++)
      t.notes.push({
        id: 80_000 + i,
        details: `n${i}`,
        isInternal: true,
        typeId: 1,
        noteDate: '',
        createdOn: '',
      })
    const first = await api('/servicedesk/tickets/9001/notes?PageSize=100&PageNumber=1')
    const second = await api('/servicedesk/tickets/9001/notes?PageSize=100&PageNumber=2')
    assert.deepEqual([first.body.result.length, second.body.result.length], [100, 20])
    assert.equal('totalRecords' in first.body, false)
    assert.equal(first.body.result[0].typeName, 'General')
  })

  it('answers each lookup table under the name a test gives; others refused or empty', async () => {
    const other = await startKaseyaBmsSim({
      accounts: 10,
      lookupTables: { sources: 'Source', noteTypes: null },
      unknownTable: 'empty',
    })
    try {
      const t = (await (await fetch(`${other.url}/v2/security/authenticate`, form(login))).json()) as Json
      const get = async (name: string) =>
        (await (
          await fetch(`${other.url}/v2/system/lookup/${name}`, {
            headers: { authorization: `Bearer ${t.result.accessToken}` },
          })
        ).json()) as Json
      assert.equal((await get('TicketType')).result.length, 5)
      assert.equal((await get('source')).result.length, 5, 'case ignored')
      assert.deepEqual((await get('TicketSource')).result, [], 'not this name')
      assert.deepEqual((await get('NoteType')).result, [], 'no name answers for note types')
      assert.match(other.describe(), /noteTypes \(none answers\)/)
    } finally {
      await other.close()
    }
  })

  it('loses the answer of each ticket operation after carrying it out', async () => {
    loseNextAnswer(sim, bmsCalls, 'note')
    const before = sim.state.tickets.find((x) => x.id === 9003)!.notes.length
    await assert.rejects(
      api('/servicedesk/tickets/9003/notes', {
        method: 'POST',
        body: { Details: 'lost', IsInternal: true, NoteDate: new Date().toISOString(), TypeId: 1 },
      }),
    )
    assert.equal(sim.state.tickets.find((x) => x.id === 9003)!.notes.length, before + 1, 'written')
    assert.equal(bmsCalls['close-note'].match, bmsCalls.close.match, 'resolve is one call')
  })

  it('webhooks: created, found, read, changed and deleted; a ticket change is pushed with a Signature, never the secret', async () => {
    const got: { headers: IncomingHttpHeaders; body: string }[] = []
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
      const events = (await api('/admin/webhooks/events/lookup')).body.result as Json[]
      const updated = events.find((e) => e.name === 'Ticket Updated')!.id
      const secret = 'bms-webhook-secret-42'
      const config = { Name: 'hook', PayloadURL: url, IsEnabled: true, Secret: secret, ContentType: 1 }
      const made = await api('/admin/webhooks', { method: 'POST', body: { ...config, Events: [updated] } })
      assert.equal(made.body.success, true, JSON.stringify(made.body))
      const id = made.body.result.id as number
      assert.deepEqual([made.body.result.hasSecret, 'secret' in made.body.result], [true, false])
      const found = await api('/admin/webhooks/search', {
        method: 'POST',
        body: { Filter: { PayloadUrl: url }, PageSize: 10, PageNumber: 1 },
      })
      assert.deepEqual(
        found.body.result.map((h: Json) => h.id),
        [id],
      )
      assert.equal((await api(`/admin/webhooks/${id}`)).body.result.payloadUrl, url)
      const changed = await api(`/admin/webhooks/${id}`, {
        method: 'PUT',
        body: { ...config, Name: 'renamed', Events: [updated] },
      })
      assert.equal(changed.body.result.name, 'renamed')

      await sim.technician.note('9002', 'Looked at it')
      await sim.pushes.settled()
      const push = got.at(-1)
      assert.ok(push, 'the technician’s note was pushed')
      assert.equal(push.headers.signature, signatureOf(push.body, secret))
      assert.ok(
        !Object.values(push.headers).some((v) => String(v).includes(secret)),
        'no header holds the secret',
      )
      assert.ok(!push.body.includes(secret), 'nor the body')
      assert.equal(JSON.parse(push.body).Data.Id, 9002)

      assert.equal((await api(`/admin/webhooks/${id}`, { method: 'DELETE' })).status, 200)
      // Refusals are envelopes at HTTP 200, the code inside.
      const read = await api(`/admin/webhooks/${id}`)
      assert.deepEqual([read.body.success, read.body.error.code], [false, 404])
      const again = await api(`/admin/webhooks/${id}`, { method: 'DELETE' })
      assert.deepEqual([again.body.success, again.body.error.code], [false, 404], 'gone')
      got.length = 0
      await sim.technician.note('9002', 'Again')
      await sim.pushes.settled()
      assert.equal(got.length, 0, 'nothing is pushed once deleted')
    } finally {
      await new Promise((resolve) => receiver.close(resolve))
    }
  })

  it('faults answer in its envelope; describe names the login', async () => {
    sim.faults.set({ fail: { status: 503, count: 1 } })
    const failed = await api('/system/queues/lookup')
    assert.deepEqual([failed.status, failed.body.success, failed.body.error.code], [503, false, 503])
    assert.match(sim.describe(), /Tenant="Acme MSP" UserName="api@acme-msp.example"/)
  })
})
