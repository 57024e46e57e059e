// The Autotask simulator, over HTTP, as a client would meet it: the zone lookup, the three credential
// headers, tickets and notes with Autotask's validation (500 + errors for a missing queue), closing with
// PATCH (id in the body), keyset paging through nextPageUrl, picklists, the thread limit, the hourly
// budget, a zone that moves, and the harness's faults.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { loseNextAnswer } from '../harness.js'
import { type AutotaskSim, autotaskCalls, startAutotaskSim } from './server.js'

let sim: AutotaskSim
const auth = { ApiIntegrationCode: 'TRACKING-ID-1', UserName: 'api-user@acme.example', Secret: 'api-secret' }
type Answer = { status: number; json: any }

async function http(method: string, url: string, body?: unknown, headers: object = auth): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: await res.json() }
}
const api = (method: string, path: string, body?: unknown, headers?: object) =>
  http(method, `${sim.state.zoneUrl}V1.0/${path}`, body, headers)

const ticket = { companyID: 0, title: 'Disk full on SRV01', status: 1, priority: 2, queueID: 29682834 }
const note = { title: 'Alert', description: 'Disk at 99%', noteType: 1, publish: 1 }

before(async () => {
  sim = await startAutotaskSim()
})
after(() => sim.close())

describe('Autotask simulator', () => {
  test('the zone lookup answers the configured user (no credentials, any case) and 500 for others', async () => {
    for (const path of ['ATServicesRest/V1.0/ZoneInformation', 'atservicesrest/v1.0/zoneInformation']) {
      const known = await http('GET', `${sim.url}/${path}?user=api-user@acme.example`, undefined, {})
      assert.equal(known.status, 200)
      assert.equal(known.json.url, `${sim.url}/ATServicesRest/`)
      assert.ok(known.json.zoneName && known.json.webUrl && known.json.ci)
    }
    const versions = await http('GET', `${sim.url}/atservicesrest/versioninformation`)
    assert.deepEqual(versions.json, { apiVersions: ['1.0'] })
    for (const user of ['someone@else.example', '']) {
      const unknown = await http(
        'GET',
        `${sim.url}/ATServicesRest/V1.0/ZoneInformation?user=${user}`,
        undefined,
        {},
      )
      assert.equal(unknown.status, 500)
      assert.equal(typeof unknown.json.errors[0], 'string')
    }
  })

  test('credentials: missing or a wrong secret is 401; an unknown user or tracking id is 500', async () => {
    assert.equal((await api('GET', 'Tickets/1', undefined, {})).status, 401)
    const wrong = await api('GET', 'Tickets/1', undefined, { ...auth, Secret: 'nope' })
    assert.equal(wrong.status, 401)
    assert.equal(typeof wrong.json.errors[0], 'string')
    assert.equal((await api('GET', 'Tickets/1', undefined, { ...auth, UserName: 'x@y.example' })).status, 500)
    assert.equal((await api('GET', 'Tickets/1', undefined, { ...auth, ApiIntegrationCode: 'X' })).status, 500)
    const lower = {
      apiintegrationcode: auth.ApiIntegrationCode,
      username: auth.UserName,
      secret: auth.Secret,
    }
    assert.equal(
      (await http('GET', `${sim.url}/atservicesrest/v1.0/tickets/1`, undefined, lower)).status,
      200,
    )
  })

  test('a ticket needs a queue, an existing company and valid picklist values: else 500 with errors', async () => {
    const before = sim.state.tickets.length
    const { queueID: _q, ...noQueue } = ticket
    const missing = await api('POST', 'Tickets', noQueue)
    assert.equal(missing.status, 500)
    assert.deepEqual(missing.json.errors, [
      'AssignedResourceID, AssignedResourceRoleID, and QueueID cannot all be empty. Supply a QueueID or both a AssignedResourceID and AssignedResourceRoleID.',
    ])
    const { status: _s, ...noStatus } = ticket
    const { priority: _p, ...noPriority } = ticket
    for (const [bad, text] of [
      [noStatus, /Missing required field: status/],
      [noPriority, /Missing required field: priority/],
      [{ ...noQueue, assignedResourceID: 29682940 }, /both a assignedResourceID and assignedResourceRoleID/],
      [{ ...ticket, description: 'x'.repeat(8001) }, /description exceeds its maximum length of 8000/],
    ] as const) {
      const refused = await api('POST', 'Tickets', bad)
      assert.equal(refused.status, 500, JSON.stringify(bad).slice(0, 200))
      assert.match(refused.json.errors.join(' '), text)
    }
    for (const bad of [
      { ...ticket, title: undefined },
      { ...ticket, status: 99 },
      { ...ticket, priority: 'high' },
      { ...ticket, title: 'x'.repeat(256) },
      { ...ticket, companyID: 424242 },
      { ...ticket, queueID: 29682836 },
      { ...ticket, issueType: 3, subIssueType: 12 },
    ]) {
      const answer = await api('POST', 'Tickets', bad)
      assert.equal(answer.status, 500, JSON.stringify(bad))
      assert.ok(answer.json.errors.length > 0)
    }
    assert.equal(sim.state.tickets.length, before, 'nothing was made')
    const assigned = await api('POST', 'Tickets', {
      ...noQueue,
      assignedResourceID: 29682940,
      assignedResourceRoleID: 29682800,
    })
    assert.equal(assigned.status, 200, 'a resource and role stand in for the queue')
  })

  test('create → get → notes → PATCH to Complete stamps completedDate; the custom resolved status does not', async () => {
    const created = await api('POST', 'Tickets', {
      ...ticket,
      externalID: 'alert-1',
      issueType: 3,
      subIssueType: 10,
    })
    assert.equal(created.status, 200)
    assert.deepEqual(Object.keys(created.json), ['itemId'])
    const id: number = created.json.itemId
    const { json } = await api('GET', `Tickets/${id}`)
    assert.match(json.item.ticketNumber, /^T\d{8}\.\d{4}$/)
    assert.equal(json.item.status, 1)
    assert.equal(json.item.completedDate, null)
    assert.equal(json.item.externalID, 'alert-1')
    assert.deepEqual((await api('GET', 'Tickets/999999')).json, { item: null })

    const { noteType: _n, ...noType } = note
    const untyped = await api('POST', `Tickets/${id}/Notes`, { ...noType, ticketID: id })
    assert.equal(untyped.status, 500)
    assert.match(untyped.json.errors.join(' '), /noteType/)
    assert.equal((await api('POST', `Tickets/${id}/Notes`, { ...note, ticketID: id + 1 })).status, 500)
    assert.equal((await api('POST', 'TicketNotes', { ...note, ticketID: id })).status, 404)
    assert.equal((await api('POST', `Tickets/${id}/Notes`, { ...note, ticketID: id })).status, 200)
    assert.equal((await api('POST', `Tickets/${id}/Notes`, note)).status, 200, 'the URL names the ticket')
    assert.equal((await api('GET', `Tickets/${id}/Notes`)).json.items.length, 2)
    const byQuery = await api('POST', 'TicketNotes/query', {
      filter: [{ op: 'eq', field: 'ticketID', value: id }],
    })
    assert.equal(byQuery.json.items.length, 2)

    const resolved = await api('PATCH', 'Tickets', { id, status: 29 })
    assert.deepEqual(resolved.json, { itemId: id })
    assert.equal((await api('GET', `Tickets/${id}`)).json.item.completedDate, null)
    await api('PATCH', 'Tickets', { id, status: 5, resolution: 'Disk cleaned' })
    const closed = (await api('GET', `Tickets/${id}`)).json.item
    assert.equal(closed.status, 5)
    assert.ok(closed.completedDate)
    assert.equal(closed.title, ticket.title, 'PATCH changes only the fields sent')
    await api('PATCH', 'Tickets', { id, status: 8 })
    assert.equal((await api('GET', `Tickets/${id}`)).json.item.completedDate, null)
    assert.equal((await api('PATCH', `Tickets/${id}`, { status: 5 })).status, 405)
  })

  test('PUT replaces the whole ticket: whatever is not sent is lost (or required and refused)', async () => {
    const id = (await api('POST', 'Tickets', { ...ticket, description: 'details' })).json.itemId
    assert.equal((await api('PUT', 'Tickets', { id, status: 5 })).status, 500)
    assert.equal((await api('PUT', 'Tickets', { ...ticket, id, status: 5 })).status, 200)
    assert.equal((await api('GET', `Tickets/${id}`)).json.item.description, null)
  })

  test('1200 companies page by 500: POST the same query to each nextPageUrl (a GET there is 405)', async () => {
    const query = {
      filter: [{ op: 'eq', field: 'isActive', value: true }],
      IncludeFields: ['id', 'companyName'],
    }
    const seen = new Set<number>()
    let answer = await api('POST', 'Companies/query', query)
    const pages: number[] = []
    for (;;) {
      assert.equal(answer.status, 200)
      pages.push(answer.json.pageDetails.count)
      for (const c of answer.json.items) seen.add(c.id)
      assert.deepEqual(Object.keys(answer.json.items[0]).sort(), ['companyName', 'id'])
      const next = answer.json.pageDetails.nextPageUrl
      if (next === null) break
      assert.ok(next.startsWith(`${sim.url}/ATServicesRest/V1.0/Companies/query/next?paging=`))
      assert.equal((await http('GET', next)).status, 405)
      assert.equal((await http('POST', next)).status, 500, 'the filter must be sent again')
      answer = await http('POST', next, query)
    }
    assert.deepEqual(pages, [500, 500, 200])
    assert.equal(seen.size, 1200)
    assert.deepEqual((await api('POST', 'Companies/query/count', query)).json, { queryCount: 1200 })
  })

  test('a GET query carries its search in nextPageUrl and is followed by GET; a query needs a filter', async () => {
    const search = encodeURIComponent(JSON.stringify({ filter: [{ op: 'gte', field: 'id', value: 0 }] }))
    let answer = await api('GET', `Companies/query?search=${search}`)
    let total = 0
    while (answer.status === 200) {
      total += answer.json.items.length
      if (!answer.json.pageDetails.nextPageUrl) break
      answer = await http('GET', answer.json.pageDetails.nextPageUrl)
    }
    assert.equal(total, 1200)
    const unfiltered = await api('POST', 'Companies/query', { MaxRecords: 10 })
    assert.equal(unfiltered.status, 500)
    assert.match(unfiltered.json.errors[0], /filters/)
    assert.deepEqual((await api('POST', 'Companies/query', { filter: [] })).json.items, [])
    const items = [
      { op: 'beginsWith', field: 'CompanyName', value: 'acme' },
      { op: 'eq', field: 'id', value: 29683003 },
    ]
    const found = (await api('POST', 'Companies/query', { filter: [{ op: 'or', items }] })).json.items
    assert.deepEqual(found.map((c: any) => c.companyName).sort(), ['Acme MSP', 'Contoso 0001'])
  })

  test('picklists come from entityInformation/fields, values as strings, sub-issue types with their parent', async () => {
    const { fields } = (await api('GET', 'Tickets/entityInformation/fields')).json
    const pick = (name: string) => fields.find((f: any) => f.name === name)
    for (const name of [
      'queueID',
      'status',
      'priority',
      'issueType',
      'subIssueType',
      'source',
      'ticketType',
    ]) {
      assert.equal(pick(name).isPickList, true, name)
    }
    const status = pick('status').picklistValues
    assert.deepEqual(
      status.find((v: any) => v.value === '5'),
      {
        value: '5',
        label: 'Complete',
        isDefaultValue: false,
        sortOrder: 2,
        parentValue: '',
        isActive: true,
        isSystem: true,
      },
    )
    assert.equal(status.find((v: any) => v.label === 'Resolved - Pending Confirmation').isSystem, false)
    assert.equal(pick('priority').picklistValues.find((v: any) => v.isDefaultValue).label, 'Medium')
    assert.equal(pick('subIssueType').picklistValues.find((v: any) => v.label === 'Printer').parentValue, '3')
    const notes = (await api('GET', 'TicketNotes/entityInformation/fields')).json.fields
    const labels = (name: string) =>
      notes.find((f: any) => f.name === name).picklistValues.map((v: any) => v.label)
    assert.ok(labels('noteType').includes('Task Summary'))
    assert.deepEqual(labels('publish'), [
      'All Autotask Users',
      'Internal Project Team',
      'Internal & Co-Managed',
    ])
  })

  test('a fourth concurrent call to one endpoint gets 429; ZoneInformation is not limited', async () => {
    sim.faults.set({ latencyMs: 300 })
    try {
      const filter = { filter: [{ op: 'eq', field: 'id', value: 0 }] }
      const four = await Promise.all([1, 2, 3, 4].map(() => api('POST', 'Companies/query', filter)))
      const refused = four.filter((a) => a.status === 429)
      assert.equal(refused.length, 1)
      assert.match(refused[0]?.json.errors[0], /^API thread threshold of 3 threads has been exceeded/)
      const zone = `${sim.url}/ATServicesRest/V1.0/ZoneInformation?user=${auth.UserName}`
      const lookups = await Promise.all([1, 2, 3, 4, 5].map(() => http('GET', zone, undefined, auth)))
      assert.ok(lookups.every((a) => a.status === 200))
    } finally {
      sim.faults.clear()
    }
  })

  test('ThresholdInformation counts the calls of the last hour; beyond the threshold calls get 429', async () => {
    const first = (await api('GET', 'ThresholdInformation')).json
    assert.equal(first.externalRequestThreshold, 10000)
    assert.equal(first.requestThresholdTimeframe, 60)
    await api('GET', 'Tickets/1')
    assert.equal(
      (await api('GET', 'ThresholdInformation')).json.currentTimeframeRequestCount,
      first.currentTimeframeRequestCount + 2,
    )
    sim.state.usage.presetCount = 10000
    try {
      const over = await api('GET', 'Tickets/1')
      assert.equal(over.status, 429)
      assert.equal(typeof over.json.errors[0], 'string')
    } finally {
      sim.state.usage.presetCount = 0
    }
  })

  test('a moved zone: the old root answers 401 until the client looks the zone up again', async () => {
    const oldRoot = sim.state.zoneUrl
    sim.state.zoneUrl = `${sim.url}/zone2/ATServicesRest/`
    sim.state.movedZone = true
    try {
      assert.equal((await http('GET', `${oldRoot}V1.0/Tickets/1`)).status, 401)
      const zone = await http('GET', `${oldRoot}V1.0/ZoneInformation?user=${auth.UserName}`, undefined, {})
      assert.equal(zone.json.url, `${sim.url}/zone2/ATServicesRest/`)
      assert.equal((await http('GET', `${zone.json.url}V1.0/Tickets/1`)).status, 200)
    } finally {
      sim.state.zoneUrl = oldRoot
      sim.state.movedZone = false
    }
  })

  test('a denied entity answers 403; the harness faults answer in the Autotask error shape', async () => {
    sim.state.deny = ['TicketNotes']
    assert.equal((await api('POST', 'TicketNotes/query', { filter: [] })).status, 403)
    assert.equal((await api('GET', 'Tickets/1/Notes')).status, 403)
    sim.state.deny = []
    sim.faults.set({ fail: { status: 503, count: 1 } })
    const failed = await api('GET', 'Tickets/1')
    assert.equal(failed.status, 503)
    assert.equal(typeof failed.json.errors[0], 'string')
    assert.equal((await api('GET', 'Tickets/1')).status, 200)
    sim.faults.set({ ratePerSecond: 1 })
    const burst = await Promise.all([1, 2, 3].map(() => api('GET', 'Tickets/1')))
    assert.ok(burst.some((a) => a.status === 429))
    sim.faults.clear()
    assert.ok(sim.callsTo(/\/Tickets\/1$/i, 'GET').length > 0)
  })
})

describe('Autotask simulator: contracts and their units', () => {
  const company = () => sim.state.companies[1]?.id
  const today = new Date().toISOString().slice(0, 10)
  const periodsOf = (contractServiceId: number) =>
    sim.state.contractServiceUnits
      .filter((u) => u.contractServiceID === contractServiceId)
      .sort((a, b) => a.startDate.localeCompare(b.startDate))
  const adjust = { contractID: 29684001, contractServiceID: 7002, effectiveDate: today }

  test('contracts, contract services, services and units are queried with Autotask filters', async () => {
    const contracts = await api('POST', 'Contracts/query', {
      filter: [
        { op: 'eq', field: 'companyID', value: company() },
        { op: 'eq', field: 'status', value: 1 },
      ],
    })
    assert.deepEqual(
      contracts.json.items.map((c: any) => [c.id, c.contractName, c.contractType]),
      [[29684001, 'Managed Services', 7]],
    )
    const search = encodeURIComponent(
      JSON.stringify({ filter: [{ op: 'eq', field: 'ContractID', value: 29684001 }] }),
    )
    const lines = await api('GET', `ContractServices/query?search=${search}`)
    assert.deepEqual(
      lines.json.items.map((s: any) => [s.id, s.serviceID, s.units]),
      [
        [7001, 501, undefined],
        [7002, 502, undefined],
      ],
      'a contract service carries no units of its own',
    )
    const services = await api('POST', 'Services/query', {
      filter: [{ op: 'or', items: [501, 502].map((value) => ({ op: 'eq', field: 'id', value })) }],
    })
    assert.deepEqual(
      services.json.items.map((s: any) => s.name),
      ['Endpoint Protection (per device)', 'Cloud Backup (per TB)'],
    )
    const units = await api('POST', 'ContractServiceUnits/query', {
      filter: [
        { op: 'eq', field: 'contractServiceID', value: 7001 },
        { op: 'lte', field: 'startDate', value: today },
        { op: 'gte', field: 'endDate', value: today },
      ],
    })
    assert.deepEqual(
      units.json.items.map((u: any) => u.units),
      [5],
    )
    assert.equal((await api('GET', 'Contracts/29684001/Services')).json.items.length, 2)
    assert.equal(
      (await api('PATCH', 'ContractServiceUnits', { id: units.json.items[0].id, units: 9 })).status,
      405,
    )
    const state = (await http('GET', `${sim.url}/__sim/state`)).json
    assert.equal(state.contracts.length, 3)
    assert.ok(state.contractServiceUnits.length >= 12)
  })

  test('an adjustment changes the units by its delta from its effective period on, not before', async () => {
    const before = periodsOf(7002).map((p) => p.units)
    const made = await api('POST', 'ContractServiceAdjustments', {
      ...adjust,
      unitChange: 3,
      adjustedUnitPrice: 12,
    })
    assert.equal(made.status, 200)
    assert.deepEqual(Object.keys(made.json), ['itemId'])
    assert.deepEqual(
      periodsOf(7002).map((p) => p.units),
      [before[0], (before[1] ?? 0) + 3, (before[2] ?? 0) + 3],
      'last month keeps its units',
    )
    const byService = await api('POST', 'Contracts/29684001/ServiceAdjustments', {
      serviceID: 502,
      effectiveDate: `${today}T00:00:00Z`,
      unitChange: -1,
    })
    assert.equal(byService.status, 200)
    assert.equal(periodsOf(7002)[1]?.units, (before[1] ?? 0) + 2)
    assert.deepEqual(
      sim.state.adjustments.slice(-2).map((a) => [a.contractServiceID, a.unitChange]),
      [
        [7002, 3],
        [7002, -1],
      ],
    )
  })

  test('adjustments are create-only and refused with errors: no effectiveDate, a foreign service, an inactive contract, units below zero', async () => {
    const count = sim.state.adjustments.length
    const { effectiveDate: _e, ...undated } = adjust
    for (const [body, text] of [
      [{ ...undated, unitChange: 1 }, /effectiveDate/],
      [{ ...adjust }, /unitChange/],
      [{ ...adjust, contractServiceID: 7004, unitChange: 1 }, /not on contract/],
      [{ contractID: 29684002, contractServiceID: 7003, effectiveDate: today, unitChange: 1 }, /inactive/],
      [{ ...adjust, unitChange: -1000 }, /below zero/],
    ] as const) {
      const refused = await api('POST', 'ContractServiceAdjustments', body)
      assert.equal(refused.status, 500, JSON.stringify(body))
      assert.match(refused.json.errors.join(' '), text)
    }
    assert.equal(sim.state.adjustments.length, count)
    assert.equal(
      (
        await api('POST', 'ContractServiceAdjustments/query', {
          filter: [{ op: 'gte', field: 'id', value: 0 }],
        })
      ).status,
      404,
    )
    assert.equal((await api('GET', 'ContractServiceAdjustments/1')).status, 404)
    assert.equal((await api('PATCH', 'ContractServiceAdjustments', { id: 1, unitChange: 2 })).status, 405)
    const fields = (await api('GET', 'ContractServiceAdjustments/entityInformation/fields')).json.fields
    assert.equal(fields.find((f: any) => f.name === 'effectiveDate')?.isRequired, true)
  })
})

describe('Autotask simulator: a tenant as strict as Autotask', () => {
  const fieldsOf = async (entity: string) =>
    (await api('GET', `${entity}/entityInformation/fields`)).json.fields
  const field = (fields: any[], name: string) => fields.find((f: any) => f.name === name)

  test('more tickets than one query page; externalID finds one among them; an undocumented operator is not applied', async () => {
    assert.ok(sim.state.tickets.length > 500, `${sim.state.tickets.length} tickets`)
    const all = await api('POST', 'Tickets/query', { filter: [{ op: 'gte', field: 'id', value: 0 }] })
    assert.equal(all.json.items.length, 500)
    assert.ok(all.json.pageDetails.nextPageUrl, 'a second page')
    const one = await api('POST', 'Tickets/query', {
      filter: [{ op: 'eq', field: 'externalID', value: 'rmm-301' }],
      IncludeFields: ['id', 'externalID'],
    })
    assert.deepEqual(
      one.json.items.map((t: any) => t.externalID),
      ['rmm-301'],
    )
    // "like" is not among the REST operators: that condition is dropped, the other one applies.
    const complete = sim.state.tickets.filter((t) => t.status === 5).length
    const loose = await api('POST', 'Tickets/query/count', {
      filter: [
        { op: 'like', field: 'externalID', value: 'rmm-301' },
        { op: 'eq', field: 'status', value: 5 },
      ],
    })
    assert.equal(loose.json.queryCount, complete)
  })

  test("field lengths come from the tenant's field information, and writes are held to them", async () => {
    sim.state.rules.lengths['Tickets.title'] = 100
    try {
      assert.equal(field(await fieldsOf('Tickets'), 'title').length, 100)
      const long = await api('POST', 'Tickets', { ...ticket, title: 'x'.repeat(101) })
      assert.equal(long.status, 500)
      assert.match(long.json.errors[0], /title exceeds its maximum length of 100/)
      assert.equal((await api('POST', 'Tickets', { ...ticket, title: 'x'.repeat(100) })).status, 200)
    } finally {
      delete sim.state.rules.lengths['Tickets.title']
    }
    const notes = await fieldsOf('TicketNotes')
    assert.equal(field(notes, 'title').length, 250)
    assert.equal(field(notes, 'description').isQueryable, true)
  })

  test('notes are found by ticketID and a contains on the description; a field marked not queryable is refused', async () => {
    const id = (await api('POST', 'Tickets', ticket)).json.itemId
    for (const marker of ['m-1', 'm-2'])
      await api('POST', `Tickets/${id}/Notes`, { ...note, description: `Update\n\nMessage ID: ${marker}` })
    const query = {
      filter: [
        { op: 'eq', field: 'ticketID', value: id },
        { op: 'contains', field: 'description', value: 'Message ID: m-2' },
      ],
    }
    const found = await api('POST', 'TicketNotes/query', query)
    assert.deepEqual(
      found.json.items.map((n: any) => n.description.endsWith('Message ID: m-2')),
      [true],
    )
    sim.state.rules.unqueryable = ['TicketNotes.description']
    try {
      assert.equal(field(await fieldsOf('TicketNotes'), 'description').isQueryable, false)
      const refused = await api('POST', 'TicketNotes/query', query)
      assert.equal(refused.status, 500)
      assert.match(refused.json.errors[0], /cannot be queried/)
    } finally {
      sim.state.rules.unqueryable = []
    }
  })

  test('a lost answer: the ticket, note and status change are made, the connection drops', async () => {
    const before = sim.state.tickets.length
    loseNextAnswer(sim, autotaskCalls, 'create')
    await assert.rejects(api('POST', 'Tickets', ticket))
    assert.equal(sim.state.tickets.length, before + 1)
    const id = sim.state.tickets.at(-1)!.id
    loseNextAnswer(sim, autotaskCalls, 'note')
    await assert.rejects(api('POST', `Tickets/${id}/Notes`, note))
    assert.equal(sim.state.notes[String(id)]?.length, 1)
    loseNextAnswer(sim, autotaskCalls, 'close')
    await assert.rejects(api('PATCH', 'Tickets', { id, status: 5 }))
    assert.equal(sim.state.tickets.at(-1)!.status, 5)
    sim.faults.clear()
  })

  test('a tenant that marks no default queue, and one that requires a ticket category', async () => {
    const strict = await startAutotaskSim({ noDefault: ['queueID'], requireCategory: true, tickets: 0 })
    try {
      const fields = (await http('GET', `${strict.state.zoneUrl}V1.0/Tickets/entityInformation/fields`)).json
        .fields
      assert.equal(
        field(fields, 'queueID').picklistValues.some((v: any) => v.isDefaultValue),
        false,
      )
      assert.equal(field(fields, 'ticketCategory').isRequired, true)
      const refused = await http('POST', `${strict.state.zoneUrl}V1.0/Tickets`, ticket)
      assert.match(refused.json.errors.join(' '), /Missing required field: ticketCategory/)
      const made = await http('POST', `${strict.state.zoneUrl}V1.0/Tickets`, { ...ticket, ticketCategory: 3 })
      assert.equal(made.status, 200)
    } finally {
      await strict.close()
    }
    const queues = field(await fieldsOf('Tickets'), 'queueID').picklistValues
    assert.deepEqual(
      queues.filter((v: any) => v.isDefaultValue).map((v: any) => v.label),
      ['Service Desk'],
      'a fresh tenant marks a default queue',
    )
  })
})

describe('Autotask simulator: technicians and ticket webhooks over HTTP', () => {
  test('the technician endpoints act as a technician; a webhook callout is signed sha1=<base64>', async () => {
    const got: { headers: Record<string, unknown>; body: string }[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8')
      })
      req.on('end', () => {
        got.push({ headers: req.headers, body })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`
    try {
      const hook = await api('POST', 'TicketWebhooks', {
        Name: 'test',
        WebhookUrl: url,
        DeactivationUrl: `${url}/off`,
        SecretKey: 's3cret',
        IsActive: true,
        IsSubscribedToUpdateEvents: true,
        IsSubscribedToDeleteEvents: true,
        SendThresholdExceededNotification: false,
      })
      assert.equal(hook.status, 200)
      const field = await api('POST', `TicketWebhooks/${hook.json.itemId}/Fields`, {
        FieldID: 4,
        IsSubscribedField: true,
        IsDisplayAlwaysField: false,
      })
      assert.equal(field.status, 200)
      const made = await api('POST', 'Tickets', ticket)
      const id = String(made.json.itemId)
      const act = (action: string, body: object) =>
        fetch(`${sim.url}/__sim/technician/${action}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      assert.equal((await act('note', { id, text: 'Called the customer' })).status, 204)
      assert.equal((await act('time', { id })).status, 204)
      assert.equal((await act('close', { id })).status, 204)
      const t = (await api('GET', `Tickets/${id}`)).json.item
      assert.equal(t.status, 5)
      assert.equal(t.completedByResourceID, 29682885)
      assert.equal(sim.state.timeEntries.filter((e) => String(e.ticketID) === id).length, 1)
      assert.equal(sim.state.notes[id]?.[0]?.creatorResourceID, 29682885)
      const drop = await fetch(`${sim.url}/__sim/pushes`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ drop: 1 }),
      })
      assert.equal(drop.status, 204)
      assert.equal((await act('reopen', { id })).status, 204)
      await sim.pushes.settled()
      // Only the close changed Status (the note and the time entry did not); the reopen was dropped.
      assert.equal(got.length, 1)
      const sent = got[0]
      const expected = `sha1=${createHmac('sha1', 's3cret')
        .update(sent?.body ?? '')
        .digest('base64')}`
      assert.equal(sent?.headers['x-hook-signature'], expected)
      const body = JSON.parse(sent?.body ?? '{}')
      assert.deepEqual(Object.keys(body), [
        'Action',
        'Guid',
        'EntityType',
        'Id',
        'Fields',
        'EventTime',
        'SequenceNumber',
        'PersonID',
      ])
      assert.equal(body.Fields.status, 5)
      assert.equal((await api('DELETE', `TicketWebhooks/${hook.json.itemId}`)).status, 200)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
