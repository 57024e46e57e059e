// The partner's controls: toggles, rules, PSA connection and look-ups, events and metrics.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../support/fixtures.js'
import { backends, startService, type TestService } from '../support/service.js'
import { expectFailure } from '../support/shapes.js'

for (const backend of backends()) {
  describe(`partner setup (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    test('toggles change one at a time and are shown back', async () => {
      const s = await setupIntegration(svc)
      const path = `/api/partner/integrations/${s.integrationId}`
      const res = await s.partner('PATCH', path, {
        selfHealing: false,
        deduplication: { keyFields: ['accountId', 'title'], windowMinutes: 30 },
      })
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.selfHealing, false)
      assert.equal(res.body.alertsEnabled, true)
      assert.deepEqual(res.body.deduplication, {
        enabled: true,
        keyFields: ['accountId', 'title'],
        windowMinutes: 30,
      })
      const cleared = await s.partner('PATCH', path, { deduplication: { windowMinutes: null } })
      assert.equal(cleared.body.deduplication.windowMinutes, null)
      assert.deepEqual(cleared.body.deduplication.keyFields, ['accountId', 'title'])
      expectFailure(
        await s.partner('PATCH', path, { deduplication: { keyFields: ['hostname'] } }),
        400,
        'VALIDATION_FAILED',
      )
      expectFailure(await s.partner('PATCH', path, { alertsEnabled: 'yes' }), 400, 'VALIDATION_FAILED')
    })

    test('rules: create with defaults, list in precedence order, change, delete', async () => {
      const s = await setupIntegration(svc)
      const base = `/api/partner/integrations/${s.integrationId}/rules`
      const backup = await s.partner('POST', base, {
        productGroup: 'Backup',
        alertTypes: ['Backup Failed'],
        suppressStatuses: ['UPDATE'],
      })
      assert.equal(backup.status, 201, backup.text)
      assert.equal(backup.body.precedence, 20, 'placed after the existing rule')
      assert.equal(backup.body.action, 'ticket')
      assert.deepEqual(backup.body.ticket, {
        board: null,
        priority: null,
        type: null,
        status: null,
        closedStatus: null,
      })
      const urgent = await s.partner('POST', base, {
        productGroup: 'Backup',
        precedence: 1,
        ticket: { priority: 'P1 - Critical' },
      })
      const list = await s.partner('GET', base)
      assert.deepEqual(
        list.body.data.map((r: { id: string }) => r.id),
        [urgent.body.id, s.ruleId, backup.body.id],
      )
      const changed = await s.partner('PATCH', `${base}/${backup.body.id}`, {
        enabled: false,
        ticket: { board: 'Backup' },
      })
      assert.equal(changed.body.enabled, false)
      assert.equal(changed.body.ticket.board, 'Backup')
      assert.deepEqual(changed.body.suppressStatuses, ['UPDATE'])
      expectFailure(
        await s.partner('PATCH', `${base}/${backup.body.id}`, { alertTypes: ['Nope'] }),
        400,
        'VALIDATION_FAILED',
      )
      assert.equal((await s.partner('DELETE', `${base}/${backup.body.id}`)).status, 204)
      expectFailure(await s.partner('DELETE', `${base}/${backup.body.id}`), 404, 'NOT_FOUND')
      expectFailure(await s.partner('PATCH', `${base}/missing`, { enabled: true }), 404, 'NOT_FOUND')
    })

    test('the rule’s ticket settings, the account’s board and the PSA defaults shape the ticket', async () => {
      const s = await setupIntegration(svc, {
        rule: { productGroup: 'Endpoint Security', ticket: { priority: 'P1 - Critical', board: 'Security' } },
      })
      await s.partner('PUT', '/api/partner/psa', {
        kind: 'sandbox',
        defaults: { type: 'Incident', status: 'New', board: 'Default' },
      })
      await s.sync()
      const t = (await s.partner('GET', '/api/partner/sandbox/tickets')).body.data[0]
      assert.deepEqual(
        [t.board, t.priority, t.type, t.status],
        ['Security', 'P1 - Critical', 'Incident', 'New'],
      )
      assert.match(t.description, /Correlation ID: /)

      await s.partner('PUT', `/api/partner/integrations/${s.integrationId}/accounts/acme-001`, {
        psaCompanyId: '102',
        board: 'Acme Board',
      })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      await s.sync()
      const t2 = (await s.partner('GET', '/api/partner/sandbox/tickets')).body.data[0]
      assert.deepEqual([t2.companyId, t2.board], ['102', 'Acme Board'])
    })

    test('PSA connection: shown with secrets masked; look-ups list seeded and given entries', async () => {
      const s = await setupIntegration(svc)
      const put = await s.partner('PUT', '/api/partner/psa', {
        kind: 'sandbox',
        companies: [{ id: '900', name: 'Umbrella' }],
        boards: ['Night Shift'],
      })
      assert.equal(put.status, 200, put.text)
      const companies = await s.partner('GET', '/api/partner/psa/companies')
      assert.ok(companies.body.data.some((c: { id: string }) => c.id === '100'))
      assert.ok(
        companies.body.data.some(
          (c: { id: string; name: string }) => c.id === '900' && c.name === 'Umbrella',
        ),
      )
      const boards = await s.partner('GET', '/api/partner/psa/boards')
      assert.ok(boards.body.data.some((b: { name: string }) => b.name === 'Night Shift'))
      expectFailure(await s.partner('GET', '/api/partner/psa/tickets'), 400, 'VALIDATION_FAILED')
      // Every PSA kind of docs/psa/README.md has an adapter; a kind it does not name is refused.
      const unknown = await s.partner('PUT', '/api/partner/psa', {
        kind: 'freshservice',
        baseUrl: 'https://fs.example',
        apiKey: 'secret',
      })
      expectFailure(unknown, 400, 'VALIDATION_FAILED')
      assert.match(unknown.body.detail, /kind/)
      const privateHost = await s.partner('PUT', '/api/partner/psa', {
        kind: 'connectwise',
        baseUrl: 'https://127.0.0.1:9',
        companyId: 'acme',
        publicKey: 'p',
        privateKey: 'secret',
        clientId: 'c',
      })
      expectFailure(privateHost, 400, 'VALIDATION_FAILED')
      assert.match(privateHost.body.detail, /psa\/baseUrl: 127\.0\.0\.1 is not a public address/)
      const neither = await s.partner('PUT', '/api/partner/psa', {
        kind: 'connectwise',
        companyId: 'acme',
        publicKey: 'p',
        privateKey: 'secret',
        clientId: 'c',
      })
      expectFailure(neither, 400, 'VALIDATION_FAILED')
      assert.match(neither.body.detail, /site .* or baseUrl/)
      await s.partner('PUT', '/api/partner/sandbox/fault', {
        mode: 'error',
        operations: ['lookup'],
        count: 1,
      })
      expectFailure(await s.partner('GET', '/api/partner/psa/priorities'), 502, 'PSA_ERROR')
      assert.equal((await s.partner('GET', '/api/partner/psa/priorities')).status, 200)
    })

    test('events filter by status, event and correlationId; metrics count by status and name', async () => {
      const s = await setupIntegration(svc)
      const cid = (await s.sync()).body.data.correlationID
      await s.sync({ accountId: 'globex-002' })
      await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
      const failed = await s.partner('GET', '/api/partner/events?status=failed')
      assert.deepEqual(
        failed.body.data.map((e: { event: string }) => e.event),
        ['Failed To Create Ticket'],
      )
      const byCid = await s.partner('GET', `/api/partner/events?correlationId=${cid}`)
      assert.deepEqual(
        byCid.body.data.map((e: { event: string }) => e.event),
        ['Ticket Closed', 'Ticket Created'],
      )
      const named = await s.partner('GET', `/api/partner/events?event=${encodeURIComponent('Ticket Closed')}`)
      assert.equal(named.body.data.length, 1)
      const paged = await s.partner('GET', '/api/partner/events?limit=2')
      assert.equal(paged.body.data.length, 2)
      const rest = await s.partner('GET', `/api/partner/events?limit=2&cursor=${paged.body.nextCursor}`)
      assert.equal(rest.body.data.length, 1)
      assert.equal(rest.body.nextCursor, null)

      const metrics = await s.partner('GET', '/api/partner/metrics')
      assert.equal(metrics.status, 200, metrics.text)
      assert.deepEqual(metrics.body.totals, { success: 2, suppressed: 0, failed: 1, total: 3, tests: 0 })
      assert.ok(
        metrics.body.byEvent.some(
          (e: { event: string; count: number }) => e.event === 'Ticket Created' && e.count === 1,
        ),
      )
      assert.equal(
        metrics.body.series.reduce((n: number, b: { failed: number }) => n + b.failed, 0),
        1,
      )
      const daily = await s.partner('GET', `/api/partner/metrics?bucket=day&integrationId=${s.integrationId}`)
      assert.match(daily.body.series[0].start, /T00:00:00.000Z$/)
      expectFailure(
        await s.partner('GET', '/api/partner/metrics?since=2030-01-01T00:00:00Z&until=2029-01-01T00:00:00Z'),
        400,
        'VALIDATION_FAILED',
      )
    })
  })
}
