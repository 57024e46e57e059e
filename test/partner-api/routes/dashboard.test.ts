// What the portal's screens read (docs/decisions/portal/screen-additions.md): ticket filters and search,
// the integrations overview with its last-24-hour counts, the top failure causes with examples, metrics by
// event name over time.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../support/service.js'
import { expectFailure, expectSyncFailure, expectSyncSuccess } from '../../support/shapes.js'

const hour = 3600_000

for (const backend of backends('databases')) {
  describe(`the portal's dashboard reads (${backend})`, () => {
    let svc: TestService
    let s: Setup
    const clock = manualClock(new Date('2026-11-22T10:00:00.000Z'))
    const t0 = clock().toISOString()
    const ids: Record<string, string> = {}

    before(async () => {
      svc = await startService({ backend, clock, env: { SNAPSHOT_COALESCE_MS: '0' } })
      s = await setupIntegration(svc, {
        accounts: ['acme-001', 'globex-002', 'initech-003'],
        mapped: ['acme-001', 'globex-002'],
      })
      await s.partner('POST', `/api/partner/integrations/${s.integrationId}/rules`, {
        productGroup: 'Backup',
      })
      // 10:00 — A: created, then appended once by de-duplication.
      ids.a = expectSyncSuccess(await s.sync({ title: 'Malware on WS-042' }), {
        status: 201,
        message: 'created',
      }).correlationId
      expectSyncSuccess(await s.sync({ title: 'Malware on WS-042 again' }), {
        status: 200,
        message: 'updated',
      })
      // 10:00 — C: created and closed.
      ids.c = expectSyncSuccess(await s.sync({ alertType: 'Agent Offline', title: 'Agent offline: SRV-1' }), {
        status: 201,
        message: 'created',
      }).correlationId
      expectSyncSuccess(
        await s.sync({ alertType: 'Agent Offline', incidentStatus: 'RESOLVED' }, { correlationId: ids.c }),
        { status: 200, message: 'closed' },
      )
      // 12:00 — B on another account and group, with LIKE's own characters in its title.
      clock.advance(2 * hour)
      ids.b = expectSyncSuccess(
        await s.sync({
          accountId: 'globex-002',
          productGroup: 'Backup',
          alertType: 'Backup Failed',
          title: 'Nightly job 100%_done then failed',
        }),
        { status: 201, message: 'created' },
      ).correlationId
      // Failures: an unmapped account twice, an unknown ticket once; a suppression.
      for (const cid of ['vendor-cid-1', 'vendor-cid-2'])
        expectSyncFailure(await s.sync({ accountId: 'initech-003' }, { correlationId: cid }), {
          status: 404,
          error: 'ACCOUNT_NOT_MAPPED',
        })
      expectSyncFailure(await s.sync({ incidentStatus: 'UPDATE' }, { correlationId: 'no-such-ticket' }), {
        status: 404,
        error: 'TICKET_NOT_FOUND',
      })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { ticketCreation: false })
      expectSyncSuccess(await s.sync({ alertType: 'Ransomware Behaviour' }), {
        status: 200,
        message: 'suppressed',
      })
      await s.partner('PATCH', `/api/partner/integrations/${s.integrationId}`, { ticketCreation: true })
    })
    after(() => svc.close())

    const tickets = async (query: string) => {
      const res = await s.partner('GET', `/api/partner/tickets?${query}`)
      assert.equal(res.status, 200, `${query}: ${res.text}`)
      return res.body.data.map((t: { correlationId: string }) =>
        Object.keys(ids).find((k) => ids[k] === t.correlationId),
      )
    }

    test('tickets filter by status, account, product group, alert type and creation time', async () => {
      assert.deepEqual(await tickets(''), ['b', 'c', 'a'])
      assert.deepEqual(await tickets('status=closed'), ['c'])
      assert.deepEqual(await tickets('status=open'), ['b', 'a'])
      assert.deepEqual(await tickets('accountId=globex-002'), ['b'])
      assert.deepEqual(await tickets('productGroup=Endpoint%20Security'), ['c', 'a'])
      assert.deepEqual(await tickets('alertType=Agent%20Offline'), ['c'])
      assert.deepEqual(await tickets('productGroup=Endpoint%20Security&status=open'), ['a'])
      const at11 = new Date(Date.parse(t0) + hour).toISOString()
      assert.deepEqual(await tickets(`since=${at11}`), ['b'])
      assert.deepEqual(await tickets(`from=${at11}`), ['b'])
      assert.deepEqual(await tickets(`until=${at11}`), ['c', 'a'])
      assert.deepEqual(await tickets(`to=${at11}`), ['c', 'a'])
      assert.deepEqual(await tickets(`from=${t0}&to=${at11}&alertType=Malware%20Detected`), ['a'])
    })

    test('ticket search finds part of the title or the correlationId, case ignored, % and _ taken literally', async () => {
      assert.deepEqual(await tickets('search=ws-042'), ['a'])
      assert.deepEqual(await tickets('search=AGENT%20OFFLINE'), ['c'])
      assert.deepEqual(await tickets(`search=${ids.b!.slice(-12)}`), ['b'])
      assert.deepEqual(await tickets('search=100%25_'), ['b'])
      assert.deepEqual(await tickets('search=%25'), ['b'])
      assert.deepEqual(await tickets('search=_'), ['b'])
      assert.deepEqual(await tickets('search=%5C'), [])
      assert.deepEqual(await tickets('search=nothing%20like%20it'), [])
    })

    test('the filters page like the list', async () => {
      const first = await s.partner('GET', '/api/partner/tickets?status=open&limit=1')
      assert.equal(first.body.data.length, 1)
      const second = await s.partner(
        'GET',
        `/api/partner/tickets?status=open&limit=1&cursor=${first.body.nextCursor}`,
      )
      assert.equal(second.body.data[0].correlationId, ids.a)
      assert.equal(second.body.nextCursor, null)
    })

    test('bad ticket filters are a 400 and change nothing', async () => {
      const before = await svc.snapshot()
      for (const query of [
        'search=',
        `search=${'x'.repeat(129)}`,
        'since=yesterday',
        `since=${t0}&from=${t0}`,
        `until=${t0}&to=${t0}`,
        `from=${t0}&to=${t0}`,
        'productGroup=a%00b',
      ]) {
        expectFailure(await s.partner('GET', `/api/partner/tickets?${query}`), 400, 'VALIDATION_FAILED')
      }
      assert.deepEqual(await svc.snapshot(), before)
    })

    test('the overview lists each integration with its vendor and the last 24 hours in counts', async () => {
      const vendor = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Backup Vendor', productGroups: { Backup: ['Backup Failed'] } },
      })
      const second = await svc.request('POST', '/api/admin/integrations', {
        token: svc.adminToken,
        body: { vendorId: vendor.body.id, partnerId: s.partnerId },
      })
      assert.equal(second.status, 201, second.text)
      const other = await setupIntegration(svc, { partnerName: 'Other MSP', vendorName: 'Other vendor' })
      await other.sync()

      const res = await s.partner('GET', '/api/partner/overview')
      assert.equal(res.status, 200, res.text)
      assert.ok(Date.parse(res.body.until) > clock().getTime(), 'events of this very moment count')
      assert.equal(Date.parse(res.body.until) - Date.parse(res.body.since), 24 * hour)
      assert.deepEqual(
        res.body.data.map(
          (i: { integrationId: string; vendorName: string; state: string; alertsEnabled: boolean }) => [
            i.integrationId,
            i.vendorName,
            i.state,
            i.alertsEnabled,
          ],
        ),
        [
          [s.integrationId, 'Acme Security', 'connected', true],
          [second.body.integrationId, 'Backup Vendor', 'created', true],
        ],
      )
      assert.deepEqual(res.body.data[0].last24h, {
        created: 3,
        appended: 1,
        closed: 1,
        suppressed: 1,
        failed: 3,
        tests: 0,
      })
      assert.deepEqual(res.body.data[1].last24h, {
        created: 0,
        appended: 0,
        closed: 0,
        suppressed: 0,
        failed: 0,
        tests: 0,
      })
      const paged = await s.partner('GET', '/api/partner/overview?limit=1')
      assert.equal(paged.body.data.length, 1)
      const rest = await s.partner('GET', `/api/partner/overview?limit=1&cursor=${paged.body.nextCursor}`)
      assert.equal(rest.body.data[0].integrationId, second.body.integrationId)
    })

    test('the top failure causes, most frequent first, with the newest examples', async () => {
      const res = await s.partner('GET', '/api/partner/failures')
      assert.equal(res.status, 200, res.text)
      const causes = res.body.data.map((c: { event: string; error: string; count: number }) => [
        c.event,
        c.error,
        c.count,
      ])
      assert.deepEqual(causes, [
        ['Failed To Create Ticket', 'ACCOUNT_NOT_MAPPED', 2],
        ['Ticket Not Found', 'TICKET_NOT_FOUND', 1],
      ])
      const top = res.body.data[0]
      assert.match(top.detail, /initech-003/)
      assert.deepEqual(
        top.examples.map((e: { correlationId: string }) => e.correlationId),
        ['vendor-cid-2', 'vendor-cid-1'],
      )
      assert.equal(top.examples[0].integrationId, s.integrationId)
      const one = await s.partner('GET', '/api/partner/failures?limit=1')
      assert.equal(one.body.data.length, 1)
      const before = await s.partner('GET', `/api/partner/failures?to=${t0}`)
      assert.deepEqual(before.body.data, [])
      expectFailure(await s.partner('GET', '/api/partner/failures?limit=0'), 400, 'VALIDATION_FAILED')
    })

    test('metrics count by event name in each bucket; from and to name the range too', async () => {
      const from = t0
      const to = new Date(Date.parse(t0) + 3 * hour).toISOString()
      const res = await s.partner('GET', `/api/partner/metrics?from=${from}&to=${to}&bucket=hour`)
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.since, from)
      assert.deepEqual(
        res.body.series.map((b: { start: string; events: Record<string, number> }) => [b.start, b.events]),
        [
          ['2026-11-22T10:00:00.000Z', { 'Ticket Created': 2, 'Ticket Updated': 1, 'Ticket Closed': 1 }],
          [
            '2026-11-22T12:00:00.000Z',
            {
              'Ticket Created': 1,
              'Failed To Create Ticket': 3,
              'Ticket Not Found': 1,
            },
          ],
        ],
      )
      assert.equal(res.body.series[1].failed, 3)
      assert.equal(res.body.series[1].suppressed, 1)
      expectFailure(
        await s.partner('GET', `/api/partner/metrics?from=${from}&since=${from}`),
        400,
        'VALIDATION_FAILED',
      )
    })

    test('a day later the overview’s counts are empty', async () => {
      clock.advance(25 * hour)
      const res = await s.partner('GET', '/api/partner/overview')
      assert.deepEqual(res.body.data[0].last24h, {
        created: 0,
        appended: 0,
        closed: 0,
        suppressed: 0,
        failed: 0,
        tests: 0,
      })
      assert.deepEqual((await s.partner('GET', '/api/partner/failures')).body.data, [])
    })
  })
}
