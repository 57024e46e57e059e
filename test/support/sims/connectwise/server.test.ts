// Self-test of the ConnectWise PSA simulator over HTTP: what a client meets, from discovery and auth to
// creating, noting and closing a ticket, the look-ups and their paging, and the harness's faults.
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, it } from 'node:test'
import { loseNextAnswer, type StartedSim } from '../harness.js'
import { connectWiseCalls, startConnectWiseSim } from './server.js'
import type { ConnectWiseState } from './types.js'

const CLIENT_ID = '00000000-0000-4000-8000-000000000001'
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`
const GOOD_AUTH = basic('acme+pub-key', 'priv-key')

type Json = Record<string, unknown>

describe('ConnectWise simulator', () => {
  let sim: StartedSim<ConnectWiseState>
  const base = () => `${sim.url}/${sim.state.codebase}apis/3.0`
  const call = (
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    fetch(path.startsWith('http') ? path : `${base()}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: GOOD_AUTH,
        clientId: CLIENT_ID,
        'content-type': 'application/json',
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  const json = async (res: Response) => (await res.json()) as Json
  const createTicket = async (body: Json) => {
    const res = await call('/service/tickets', { method: 'POST', body })
    assert.equal(res.status, 201, JSON.stringify(await res.clone().json()))
    return json(res)
  }

  before(async () => {
    sim = await startConnectWiseSim({ port: 0 })
  })
  after(async () => {
    await sim.close()
  })
  afterEach(() => {
    sim.faults.clear()
  })

  it('discovers the codebase without auth, and answers null for an unknown company', async () => {
    const res = await fetch(`${sim.url}/login/companyinfo/acme`)
    assert.equal(res.status, 200)
    const info = await json(res)
    assert.equal(info.Codebase, 'v4_6_release/')
    assert.equal(info.CompanyID, 'acme')
    assert.equal(info.IsCloud, true)
    const unknown = await fetch(`${sim.url}/login/companyinfo/nobody`)
    assert.equal(unknown.status, 200)
    assert.equal(await unknown.text(), 'null')
  })

  it('refuses wrong keys and a missing clientId with 401, and sends the CW headers', async () => {
    const wrong = await call('/system/info', { headers: { authorization: basic('acme+pub-key', 'nope') } })
    assert.equal(wrong.status, 401)
    assert.equal((await json(wrong)).code, 'Unauthorized')
    const noAuth = await fetch(`${base()}/system/info`, { headers: { clientId: CLIENT_ID } })
    assert.equal(noAuth.status, 401)
    const noClient = await fetch(`${base()}/system/info`, { headers: { authorization: GOOD_AUTH } })
    assert.equal(noClient.status, 401)
    assert.match(String((await json(noClient)).message), /clientId/)
    const otherClient = await call('/system/info', { headers: { clientId: 'not-registered' } })
    assert.equal(otherClient.status, 401)
    const ok = await call('/system/info')
    assert.equal(ok.status, 200)
    const info = await json(ok)
    assert.equal(typeof info.version, 'string')
    assert.equal(info.isCloud, true)
    assert.ok(ok.headers.get('api-current-version'))
    assert.ok(ok.headers.get('x-cw-request-id'))
  })

  it('answers 403 on a path the member may not use', async () => {
    const denied = await startConnectWiseSim({ deny: ['/service/tickets'], companies: 5 })
    try {
      const res = await fetch(`${denied.url}/v4_6_release/apis/3.0/service/tickets`, {
        headers: { authorization: GOOD_AUTH, clientId: CLIENT_ID },
      })
      assert.equal(res.status, 403)
      assert.equal((await json(res)).code, 'Security')
      const boards = await fetch(`${denied.url}/v4_6_release/apis/3.0/service/boards`, {
        headers: { authorization: GOOD_AUTH, clientId: CLIENT_ID },
      })
      assert.equal(boards.status, 200)
    } finally {
      await denied.close()
    }
  })

  it('answers 404 on the old codebase after an upgrade, and companyinfo gives the new one', async () => {
    const old = `${sim.url}/v4_6_release/apis/3.0/service/boards`
    sim.state.codebase = 'v2025_1/'
    try {
      assert.equal((await call(old)).status, 404)
      const info = await json(await fetch(`${sim.url}/login/companyinfo/acme`))
      assert.equal(info.Codebase, 'v2025_1/')
      assert.equal((await call(`${sim.url}/v2025_1/apis/3.0/service/boards`)).status, 200)
      const state = await json(await fetch(`${sim.url}/__sim/state`))
      assert.equal(state.codebase, 'v2025_1/')
    } finally {
      sim.state.codebase = 'v4_6_release/'
    }
  })

  it('creates, reads, notes, resolves (still open) and closes a ticket', async () => {
    const created = await createTicket({
      summary: 'Disk full on SRV01',
      company: { identifier: 'AcmeCorp' },
      board: { name: 'Service Desk' },
      externalXRef: 'alert-123',
      initialDescription: 'The disk is full.',
    })
    const id = created.id as number
    assert.equal((created.status as Json).name, 'New')
    assert.equal((created.board as Json).id, 1)
    assert.equal((created.company as Json).id, 1)
    assert.equal((created.priority as Json).name, 'Priority 3 - Medium')
    assert.equal(created.closedFlag, false)
    assert.equal(created.initialDescription, undefined)
    assert.ok(((created._info as Json).lastUpdated as string).endsWith('Z'))
    assert.ok(((created.board as Json)._info as Json).board_href)

    const got = await json(await call(`/service/tickets/${id}`))
    assert.equal(got.summary, 'Disk full on SRV01')
    const missing = await call('/service/tickets/999999')
    assert.equal(missing.status, 404)
    assert.equal((await json(missing)).code, 'NotFound')

    const found = await call(
      `/service/tickets?conditions=${encodeURIComponent('externalXRef="alert-123" and closedFlag=False')}`,
    )
    assert.deepEqual(
      ((await found.json()) as Json[]).map((t) => t.id),
      [id],
    )

    const noteRes = await call(`/service/tickets/${id}/notes`, {
      method: 'POST',
      body: { text: 'Investigating.', internalAnalysisFlag: true },
    })
    assert.equal(noteRes.status, 201)
    const note = await json(noteRes)
    assert.equal(note.ticketId, id)
    assert.equal(note.internalAnalysisFlag, true)
    const notes = (await (await call(`/service/tickets/${id}/notes`)).json()) as Json[]
    assert.equal(notes.length, 1)
    const invisible = await call(`/service/tickets/${id}/notes`, { method: 'POST', body: { text: 'hidden' } })
    assert.equal(invisible.status, 400)

    const patch = (ops: unknown) => call(`/service/tickets/${id}`, { method: 'PATCH', body: ops })
    const resolved = await json(await patch([{ op: 'replace', path: 'status', value: { id: 14 } }]))
    assert.equal((resolved.status as Json).name, 'Resolved')
    assert.equal(resolved.closedFlag, false)

    const closedRes = await patch([{ op: 'replace', path: '/status/id', value: 15 }])
    assert.equal(closedRes.status, 200)
    const closed = await json(closedRes)
    assert.equal(closed.closedFlag, true)
    assert.ok(closed.closedDate)
    assert.equal(closed.closedBy, sim.state.memberIdentifier)

    const reopened = await json(
      await patch([{ op: 'replace', path: 'status', value: { name: 'In Progress' } }]),
    )
    assert.equal(reopened.closedFlag, false)
    assert.equal(reopened.closedDate, undefined)

    const otherBoard = await patch([{ op: 'replace', path: 'status', value: { id: 24 } }])
    assert.equal(otherBoard.status, 400)
    const err = await json(otherBoard)
    assert.equal(err.code, 'InvalidObject')
    assert.equal(((err.errors as Json[])[0] as Json).field, 'status/id')
    assert.equal((await patch({ op: 'replace', path: 'status', value: { id: 15 } })).status, 400)
  })

  it('validates a new ticket: summary over 100, unknown company, status from another board', async () => {
    const long = await call('/service/tickets', {
      method: 'POST',
      body: { summary: 'x'.repeat(101), company: { id: 1 } },
    })
    assert.equal(long.status, 400)
    const body = await json(long)
    assert.equal(body.code, 'InvalidObject')
    const e = (body.errors as Json[])[0] as Json
    assert.equal(e.field, 'summary')
    assert.equal(e.code, 'MaxLengthField')
    assert.equal(
      (await createTicket({ summary: 'x'.repeat(100), company: { id: 1 } })).summary,
      'x'.repeat(100),
    )
    const noCompany = await call('/service/tickets', { method: 'POST', body: { summary: 'a' } })
    assert.equal(noCompany.status, 400)
    const unknown = await call('/service/tickets', {
      method: 'POST',
      body: { summary: 'a', company: { id: 99999 } },
    })
    assert.equal(unknown.status, 400)
    const wrongBoard = await call('/service/tickets', {
      method: 'POST',
      body: { summary: 'a', company: { id: 1 }, status: { id: 21 } },
    })
    assert.equal(wrongBoard.status, 400)
    const onSecurity = await createTicket({
      summary: 'a',
      company: { id: 2 },
      board: { id: 2 },
      type: { name: 'Alert' },
    })
    assert.equal((onSecurity.status as Json).id, 21)
    assert.equal((onSecurity.type as Json).name, 'Alert')
  })

  it('pages 1200 companies at 1000 a page through the Link header, and filters them', async () => {
    const first = await call('/company/companies?pageSize=1000&page=1')
    const page1 = (await first.json()) as Json[]
    assert.equal(page1.length, 1000)
    const link = first.headers.get('link') ?? ''
    const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1]
    assert.ok(next, link)
    assert.match(link, /rel="last"/)
    const second = await call(next)
    const page2 = (await second.json()) as Json[]
    assert.equal(page2.length, 200)
    assert.doesNotMatch(second.headers.get('link') ?? '', /rel="next"/)
    assert.match(second.headers.get('link') ?? '', /rel="prev"/)
    assert.equal(new Set([...page1, ...page2].map((c) => c.id)).size, 1200)

    assert.equal(((await (await call('/company/companies')).json()) as Json[]).length, 25)
    assert.equal(((await (await call('/company/companies?pageSize=5000')).json()) as Json[]).length, 1000)
    const like = await call(
      `/company/companies?conditions=${encodeURIComponent('name like "Acme%"')}&fields=id,identifier,name`,
    )
    assert.deepEqual(await like.json(), [{ id: 1, identifier: 'AcmeCorp', name: 'Acme Corporation' }])
    const count = await json(
      await call(`/company/companies/count?conditions=${encodeURIComponent('name contains "globex"')}`),
    )
    assert.deepEqual(count, { count: 1 })
    assert.equal((await call(`/company/companies?conditions=${encodeURIComponent('nme="x"')}`)).status, 400)
  })

  it('holds more tickets than one page; filters them by externalXRef ignoring case, and ignores unknown parameters', async () => {
    const total = (await json(await call('/service/tickets/count'))).count as number
    assert.ok(total > 1000, String(total))
    assert.equal(((await (await call('/service/tickets')).json()) as Json[]).length, 25)
    const big = await call('/service/tickets?pageSize=5000')
    assert.equal(((await big.json()) as Json[]).length, 1000)
    assert.match(big.headers.get('link') ?? '', /rel="next"/)
    // Not a ConnectWise parameter: ignored, as ConnectWise ignores it (the whole first page comes back).
    const ignored = (await (await call('/service/tickets?externalXRef=seeded-ref-3')).json()) as Json[]
    assert.equal(ignored.length, 25)
    const q = (c: string, extra = '') => call(`/service/tickets?conditions=${encodeURIComponent(c)}${extra}`)
    const upper = (await (await q('externalXRef="seeded-ref-9"')).json()) as Json[]
    assert.deepEqual(
      upper.map((t) => t.externalXRef),
      ['SEEDED-REF-9'],
      '= ignores case, as SQL Server does',
    )
    const newest = (await (
      await q('externalXRef like "seeded-ref-%"', '&orderBy=id%20desc&pageSize=3&fields=id,externalXRef')
    ).json()) as Json[]
    assert.equal(newest.length, 3)
    assert.ok((newest[0]?.id as number) > (newest[1]?.id as number))
    assert.deepEqual(Object.keys(newest[0] ?? {}).sort(), ['externalXRef', 'id'])
    assert.equal((await q('externalRef="x"')).status, 400, 'an unknown field is refused')
  })

  it('lists a ticket’s notes in pages of 25, with conditions on their text and newest first', async () => {
    const t = await createTicket({ summary: 'Many notes', company: { id: 1 } })
    for (let i = 0; i < 30; i++) {
      const res = await call(`/service/tickets/${t.id}/notes`, {
        method: 'POST',
        body: { text: `Update ${i}\n\nMessage ID: note-${i}`, internalAnalysisFlag: true },
      })
      assert.equal(res.status, 201)
    }
    const page = (await (await call(`/service/tickets/${t.id}/notes`)).json()) as Json[]
    assert.equal(page.length, 25)
    const found = (await (
      await call(
        `/service/tickets/${t.id}/notes?conditions=${encodeURIComponent('text contains "MESSAGE ID: note-2"')}&orderBy=id%20desc&fields=id,text`,
      )
    ).json()) as Json[]
    assert.deepEqual(
      found.map((n) => n.text),
      [
        'Update 29\n\nMessage ID: note-29',
        'Update 28\n\nMessage ID: note-28',
        'Update 27\n\nMessage ID: note-27',
      ].concat(
        ['26', '25', '24', '23', '22', '21', '20', '2'].map((k) => `Update ${k}\n\nMessage ID: note-${k}`),
      ),
    )
    const refused = await call(
      `/service/tickets/${t.id}/notes?conditions=${encodeURIComponent('body contains "x"')}`,
    )
    assert.equal(refused.status, 400)
  })

  it('loses the answer of a create it carried out (connectWiseCalls)', async () => {
    const before = sim.state.tickets.length
    loseNextAnswer(sim, connectWiseCalls, 'create')
    await assert.rejects(
      call('/service/tickets', { method: 'POST', body: { summary: 'Lost', company: { id: 1 } } }),
    )
    assert.equal(sim.state.tickets.length, before + 1, 'the ticket was made all the same')
    assert.equal((await call('/service/boards')).status, 200, 'other calls are answered')
  })

  it('lists boards, statuses with closedStatus per board, types and priorities', async () => {
    const boards = (await (await call('/service/boards')).json()) as Json[]
    assert.ok(boards.length >= 3)
    const desk = (await (await call('/service/boards/1/statuses')).json()) as Json[]
    const byName = new Map(desk.map((s) => [s.name, s]))
    assert.equal(byName.get('New')?.defaultFlag, true)
    assert.equal(byName.get('Resolved')?.closedStatus, false)
    assert.equal(byName.get('Closed (resolved)')?.closedStatus, true)
    // Closed (resolved), Cancelled, and Closed (merged) (what a technician's merge closes with).
    assert.equal(desk.filter((s) => s.closedStatus === true).length, 3)
    const closedOnSecurity = (await (
      await call(`/service/boards/2/statuses?conditions=${encodeURIComponent('closedStatus=true')}`)
    ).json()) as Json[]
    assert.deepEqual(
      closedOnSecurity.map((s) => s.id),
      [24],
    )
    const types = (await (await call('/service/boards/2/types')).json()) as Json[]
    assert.deepEqual(
      types.map((t) => t.name),
      ['Alert', 'Incident'],
    )
    const priorities = (await (await call('/service/priorities')).json()) as Json[]
    assert.ok(priorities.some((p) => p.name === 'Priority 1 - Critical'))
    assert.equal((await call('/service/boards/999/statuses')).status, 404)
  })

  it('keeps the harness faults: a 500 once, latency, 429 with Retry-After', async () => {
    sim.faults.set({ fail: { status: 500, count: 1 } })
    const failed = await call('/service/boards')
    assert.equal(failed.status, 500)
    assert.equal((await json(failed)).code, 'ConnectWiseApi')
    assert.equal((await call('/service/boards')).status, 200)

    sim.faults.set({ latencyMs: 150 })
    const started = Date.now()
    assert.equal((await call('/service/boards')).status, 200)
    assert.ok(Date.now() - started >= 140)

    sim.faults.set({ ratePerSecond: 2, retryAfterSeconds: 3 })
    const statuses = await Promise.all([1, 2, 3, 4, 5].map(() => call('/service/boards')))
    const limited = statuses.find((r) => r.status === 429)
    assert.ok(limited, 'one call beyond the rate is refused')
    assert.equal(limited.headers.get('retry-after'), '3')
    assert.equal((await json(limited)).code, 'TooManyRequests')
  })

  it('lists agreements by company (conditions, Link paging) and each agreement’s additions', async () => {
    const paged = await startConnectWiseSim({ companies: 5, pageSizeMax: 1 })
    try {
      const headers = { authorization: GOOD_AUTH, clientId: CLIENT_ID }
      const url = `${paged.url}/v4_6_release/apis/3.0/finance/agreements?conditions=${encodeURIComponent('company/id=1')}`
      const first = await fetch(url, { headers })
      assert.equal(first.status, 200)
      const page1 = (await first.json()) as Json[]
      assert.deepEqual(
        page1.map((g) => [g.id, g.name, g.cancelledFlag]),
        [[112, 'Acme - Managed Services', false]],
      )
      assert.equal((page1[0]?.company as Json | undefined)?.id, 1)
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1]
      assert.ok(next, 'a next page')
      const page2 = (await (await fetch(next, { headers })).json()) as Json[]
      assert.deepEqual(
        page2.map((g) => [g.id, g.cancelledFlag, g.agreementStatus]),
        [[113, true, 'Cancelled']],
      )
    } finally {
      await paged.close()
    }
    const additions = (await (await call('/finance/agreements/112/additions')).json()) as Json[]
    assert.deepEqual(
      additions.map((a) => [a.id, (a.product as Json).id, (a.product as Json).identifier, a.quantity]),
      [
        [3301, 901, 'AV-SEAT', 25],
        [3302, 902, 'BACKUP-TB', 4],
        [3303, 903, 'MAIL-SEC', 30],
      ],
    )
    assert.ok(additions[2]?.cancelledDate, 'a cancelled addition carries its cancelledDate')
    assert.equal(additions[0]?.cancelledDate, undefined)
    assert.equal((await call('/finance/agreements/999/additions')).status, 404)
    const bad = await call(`/finance/agreements?conditions=${encodeURIComponent('nosuch/id=1')}`)
    assert.equal(bad.status, 400)
  })

  it('reads one addition and sets its quantity with a JSON-Patch replace; bad patches are 400 in CW’s shape', async () => {
    const one = await json(await call('/finance/agreements/118/additions/3310'))
    assert.equal(one.quantity, 40)
    assert.equal(one.billCustomer, 'Billable')
    const patched = await call('/finance/agreements/118/additions/3310', {
      method: 'PATCH',
      body: [{ op: 'replace', path: 'quantity', value: 12 }],
    })
    assert.equal(patched.status, 200)
    assert.equal((await json(patched)).quantity, 12)
    const state = await json(await fetch(`${sim.url}/__sim/state`))
    const globex = (state.agreements as Json[]).find((g) => g.id === 118) as Json
    assert.equal(((globex.additions as Json[])[0] as Json).quantity, 12)
    for (const body of [
      { op: 'replace', path: 'quantity', value: 3 },
      [{ op: 'replace', path: 'quantity', value: 'many' }],
      [{ op: 'replace', path: 'quantity', value: -1 }],
      [{ op: 'move', path: 'quantity', value: 3 }],
      [{ op: 'replace', path: 'nosuch', value: 3 }],
    ]) {
      const res = await call('/finance/agreements/118/additions/3310', { method: 'PATCH', body })
      assert.equal(res.status, 400, JSON.stringify(body))
      const error = await json(res)
      assert.equal(error.code, 'InvalidObject')
      assert.equal(typeof ((error.errors as Json[])[0] as Json).message, 'string')
    }
    const cancelled = await call('/finance/agreements/113/additions/3304', {
      method: 'PATCH',
      body: [{ op: 'replace', path: 'quantity', value: 3 }],
    })
    assert.equal(cancelled.status, 400)
    assert.match(JSON.stringify(await json(cancelled)), /cancelled/)
    assert.equal((await call('/finance/agreements/118/additions/1')).status, 404)
  })

  it('adds an addition only with a catalogue product and billCustomer', async () => {
    const missing = await call('/finance/agreements/118/additions', { method: 'POST', body: { quantity: 2 } })
    assert.equal(missing.status, 400)
    const fields = ((await json(missing)).errors as Json[]).map((e) => e.field)
    assert.deepEqual(fields.sort(), ['billCustomer', 'product'])
    const made = await call('/finance/agreements/118/additions', {
      method: 'POST',
      body: { product: { identifier: 'MAIL-SEC' }, billCustomer: 'Billable', quantity: 7 },
    })
    assert.equal(made.status, 201)
    const addition = await json(made)
    assert.deepEqual([(addition.product as Json).id, addition.quantity, addition.agreementId], [903, 7, 118])
  })
})
