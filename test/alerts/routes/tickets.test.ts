// The vendor's ticket reads (docs/contract.md#vendor-api-calls, docs/contract.md#ticket-record): bearer
// token, cursor pagination, filters, history.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupIntegration } from '../../support/fixtures.js'
import { backends, startService, type TestService } from '../../support/service.js'
import { expectFailure } from '../../support/shapes.js'

for (const backend of backends('databases')) {
  describe(`ticket reads (${backend})`, () => {
    let svc: TestService
    before(async () => {
      svc = await startService({ backend })
    })
    after(() => svc.close())

    test('pagination returns every ticket exactly once while new tickets are being created', async () => {
      const s = await setupIntegration(svc)
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      const existing = new Set<string>()
      for (let i = 0; i < 25; i++)
        existing.add((await s.sync({ title: `Ticket ${i}` })).body.data.correlationID)

      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const query: string = `?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
        const [page] = await Promise.all([
          svc.request('GET', `/api/oem-alerts-api/alert${query}`, { token: s.vendorToken }),
          s.sync({ title: `Created during page ${pages}` }),
          s.sync({ title: `Also during page ${pages}` }),
        ])
        assert.equal(page.status, 200, page.text)
        assert.ok(page.body.data.length <= 7)
        seen.push(...page.body.data.map((t: { correlationId: string }) => t.correlationId))
        cursor = page.body.nextCursor
        pages++
      } while (cursor && pages < 50)

      assert.equal(new Set(seen).size, seen.length, 'no ticket twice')
      for (const id of existing) assert.ok(seen.includes(id), `ticket ${id} was listed`)
    })

    test('filters by status and accountId', async () => {
      const s = await setupIntegration(svc, { mapped: ['acme-001', 'globex-002'] })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, {
        deduplication: { enabled: false },
      })
      const a = (await s.sync({ accountId: 'acme-001' })).body.data.correlationID
      const b = (await s.sync({ accountId: 'globex-002' })).body.data.correlationID
      await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: a })
      const list = (q: string) =>
        svc.request('GET', `/api/oem-alerts-api/alert${q}`, { token: s.vendorToken })
      assert.deepEqual(
        (await list('?status=closed')).body.data.map((t: { correlationId: string }) => t.correlationId),
        [a],
      )
      assert.deepEqual(
        (await list('?status=open')).body.data.map((t: { correlationId: string }) => t.correlationId),
        [b],
      )
      assert.deepEqual(
        (await list('?accountId=globex-002')).body.data.map(
          (t: { correlationId: string }) => t.correlationId,
        ),
        [b],
      )
      expectFailure(await list('?status=maybe'), 400, 'VALIDATION_FAILED')
      expectFailure(await list('?cursor=garbage'), 400, 'VALIDATION_FAILED')
      expectFailure(await list('?limit=0'), 400, 'VALIDATION_FAILED')
    })

    test('get by correlationId returns status, PSA ticket id and the full event history', async () => {
      const s = await setupIntegration(svc)
      const cid = (await s.sync()).body.data.correlationID
      await s.sync({ incidentStatus: 'UPDATE', summary: 'more' }, { correlationId: cid })
      await s.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
      for (const path of [`/api/oem-alerts-api/alert/${cid}`, `/api/oem-alerts-api/alerts/${cid}`]) {
        const res = await svc.request('GET', path, { token: s.vendorToken })
        assert.equal(res.status, 200, res.text)
        assert.equal(res.body.correlationId, cid)
        assert.equal(res.body.status, 'closed')
        assert.match(res.body.psaTicketId, /^SBX-/)
        assert.deepEqual(
          res.body.events.map((e: { event: string }) => e.event),
          ['Ticket Created', 'Ticket Updated', 'Ticket Closed'],
        )
        assert.equal(JSON.stringify(res.body).includes(s.clientSecret), false)
      }
      const missing = await svc.request('GET', '/api/oem-alerts-api/alert/not-a-ticket', {
        token: s.vendorToken,
      })
      expectFailure(missing, 404, 'TICKET_NOT_FOUND')
    })

    test('reads need a valid bearer token and see only the vendor’s own tickets', async () => {
      const a = await setupIntegration(svc)
      const b = await setupIntegration(svc)
      const cid = (await a.sync()).body.data.correlationID
      expectFailure(await svc.request('GET', '/api/oem-alerts-api/alert'), 401, 'UNAUTHENTICATED')
      expectFailure(
        await svc.request('GET', '/api/oem-alerts-api/alert', { token: 'abt_nonsense' }),
        401,
        'INVALID_CREDENTIALS',
      )
      const other = await svc.request('GET', `/api/oem-alerts-api/alert/${cid}`, { token: b.vendorToken })
      expectFailure(other, 404, 'TICKET_NOT_FOUND')
      const list = await svc.request('GET', '/api/oem-alerts-api/alert', { token: b.vendorToken })
      assert.equal(list.body.data.length, 0)
    })

    test('NUL in a filter or the correlationId is a 400 naming it, on both databases', async () => {
      const s = await setupIntegration(svc)
      await s.sync()
      for (const [path, detail] of [
        ['/api/oem-alerts-api/alert?accountId=acme%00', /querystring\/accountId .*NUL/],
        ['/api/oem-alerts-api/alert?integrationId=%00', /querystring\/integrationId .*NUL/],
        ['/api/oem-alerts-api/alerts?accountId=%00', /querystring\/accountId .*NUL/],
        ['/api/oem-alerts-api/alert/abc%00', /params\/correlationId .*NUL/],
        ['/api/oem-alerts-api/alert/abc?integrationId=%00', /querystring\/integrationId .*NUL/],
      ] as const) {
        const before = await svc.snapshot()
        const res = await svc.request('GET', path, { token: s.vendorToken })
        expectFailure(res, 400, 'VALIDATION_FAILED')
        assert.match(res.body.detail, detail, res.text)
        assert.deepEqual(await svc.snapshot(), before)
      }
    })

    test('an unbound token lists the tickets of all the vendor’s integrations', async () => {
      const a = await setupIntegration(svc)
      const vendor = { id: a.vendorId, clientId: a.clientId, clientSecret: a.clientSecret }
      const b = await setupIntegration(svc, { vendor, partnerName: 'Second MSP' })
      await a.sync()
      await b.sync()
      const token = await svc.request('POST', '/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: a.clientId, client_secret: a.clientSecret },
      })
      assert.equal(token.body.integration_id, null)
      const all = await svc.request('GET', '/api/oem-alerts-api/alert', { token: token.body.access_token })
      assert.equal(all.body.data.length, 2)
      const one = await svc.request('GET', `/api/oem-alerts-api/alert?integrationId=${b.integrationId}`, {
        token: token.body.access_token,
      })
      assert.equal(one.body.data.length, 1)
      assert.equal(one.body.data[0].integrationId, b.integrationId)
    })
  })
}
