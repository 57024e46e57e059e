// The occurrences of maintenance windows in a time range (docs/partner-api.md#maintenance-windows), the
// dashboard's timeline: a weekly Europe/Berlin window across both daylight-saving changes of 2026 at
// the right UTC instants, one-off windows overlapping the range's edges, every integration of the
// partner or one of them and never another partner's, the limit, and bad ranges refused.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../../../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../../../support/service.js'

interface Occ {
  windowId: string
  name: string
  mode: string
  integrationId: string
  vendorName: string
  timeZone: string | null
  start: string
  end: string
}

for (const backend of backends()) {
  describe(`maintenance occurrences in a range (${backend})`, () => {
    let svc: TestService
    let s: Setup
    let other: Setup
    let secondIntegration: string
    const clock = manualClock(new Date('2026-11-22T10:00:00.000Z'))
    const windows = (integrationId: string) =>
      `/api/partner/integrations/${integrationId}/maintenance-windows`
    const occurrences = (query: string) => s.partner('GET', `/api/partner/maintenance-occurrences?${query}`)
    const spans = (data: Occ[]) => data.map((o) => [o.name, o.start, o.end])

    before(async () => {
      svc = await startService({ backend, clock })
      s = await setupIntegration(svc, { vendorName: 'Acme Security' })
      other = await setupIntegration(svc, { vendorName: 'Other Vendor' })
      // A second integration of the same partner, with another vendor.
      const vendor = await svc.request('POST', '/api/admin/vendors', {
        token: svc.adminToken,
        body: { name: 'Globex Backup' },
      })
      assert.equal(vendor.status, 201, vendor.text)
      const integration = await svc.request('POST', '/api/admin/integrations', {
        token: svc.adminToken,
        body: { vendorId: vendor.body.id, partnerId: s.partnerId },
      })
      assert.equal(integration.status, 201, integration.text)
      secondIntegration = integration.body.integrationId

      const made = [
        await s.partner('POST', windows(s.integrationId), {
          name: 'Sunday patching',
          mode: 'hold',
          recurrence: {
            rrule: 'FREQ=WEEKLY;BYDAY=SU',
            timeZone: 'Europe/Berlin',
            startTime: '01:00',
            durationMinutes: 240,
            startDate: '2026-03-01',
          },
        }),
        await s.partner('POST', windows(secondIntegration), {
          name: 'Firewall swap',
          startsAt: '2026-10-16T22:00:00Z',
          endsAt: '2026-10-17T02:00:00Z',
        }),
        await other.partner('POST', windows(other.integrationId), {
          name: 'Not yours',
          startsAt: '2026-10-20T22:00:00Z',
          endsAt: '2026-10-21T02:00:00Z',
        }),
      ]
      for (const r of made) assert.equal(r.status, 201, r.text)
    })
    after(async () => svc?.close())

    test('a weekly window across the end of summer time: 01:00–05:00 Berlin, five real hours that night', async () => {
      const res = await occurrences('since=2026-10-17T00:00:00Z&until=2026-11-02T00:00:00Z')
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.since, '2026-10-17T00:00:00.000Z')
      assert.equal(res.body.until, '2026-11-02T00:00:00.000Z')
      assert.equal(res.body.truncated, false)
      assert.deepEqual(spans(res.body.data), [
        // A one-off of the partner's other integration, ending inside the range.
        ['Firewall swap', '2026-10-16T22:00:00.000Z', '2026-10-17T02:00:00.000Z'],
        ['Sunday patching', '2026-10-17T23:00:00.000Z', '2026-10-18T03:00:00.000Z'],
        // 25 October: summer time ends at 03:00, the window ends at 05:00 CET.
        ['Sunday patching', '2026-10-24T23:00:00.000Z', '2026-10-25T04:00:00.000Z'],
        ['Sunday patching', '2026-11-01T00:00:00.000Z', '2026-11-01T04:00:00.000Z'],
      ])
      const [swap, sunday] = res.body.data as Occ[]
      assert.equal(swap?.integrationId, secondIntegration)
      assert.equal(swap?.vendorName, 'Globex Backup')
      assert.equal(swap?.timeZone, null)
      assert.equal(sunday?.integrationId, s.integrationId)
      assert.equal(sunday?.vendorName, 'Acme Security')
      assert.equal(sunday?.timeZone, 'Europe/Berlin')
      assert.equal(sunday?.mode, 'hold')
    })

    test('across the start of summer time: three real hours, and one integration only', async () => {
      const res = await occurrences(
        `from=2026-03-22T02:00:00Z&to=2026-03-29T00:30:00Z&integrationId=${s.integrationId}`,
      )
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(spans(res.body.data), [
        // Overlapping the range's start, and starting before its end.
        ['Sunday patching', '2026-03-22T00:00:00.000Z', '2026-03-22T04:00:00.000Z'],
        // 29 March: 01:00 CET to 05:00 CEST.
        ['Sunday patching', '2026-03-29T00:00:00.000Z', '2026-03-29T03:00:00.000Z'],
      ])
      const second = await occurrences(
        `since=2026-10-16T00:00:00Z&until=2026-10-18T00:00:00Z&integrationId=${secondIntegration}`,
      )
      assert.deepEqual(spans(second.body.data), [
        ['Firewall swap', '2026-10-16T22:00:00.000Z', '2026-10-17T02:00:00.000Z'],
      ])
      const foreign = await occurrences(
        `since=2026-10-16T00:00:00Z&until=2026-10-25T00:00:00Z&integrationId=${other.integrationId}`,
      )
      assert.equal(foreign.status, 200, foreign.text)
      assert.deepEqual(foreign.body.data, [], "another partner's windows are not shown")
    })

    test('the default range is the last 24 hours; limit truncates', async () => {
      // Sunday 22 November 2026, 10:00 UTC: that night's occurrence is in the last 24 hours.
      const res = await occurrences('')
      assert.equal(res.status, 200, res.text)
      assert.equal(res.body.until, '2026-11-22T10:00:00.000Z')
      assert.equal(res.body.since, '2026-11-21T10:00:00.000Z')
      assert.deepEqual(spans(res.body.data), [
        ['Sunday patching', '2026-11-22T00:00:00.000Z', '2026-11-22T04:00:00.000Z'],
      ])
      const limited = await occurrences('since=2026-08-25T00:00:00Z&until=2026-11-22T00:00:00Z&limit=2')
      assert.equal(limited.status, 200, limited.text)
      assert.equal(limited.body.truncated, true)
      assert.deepEqual(
        limited.body.data.map((o: Occ) => o.start),
        ['2026-08-29T23:00:00.000Z', '2026-09-05T23:00:00.000Z'],
      )
    })

    test('bad ranges are refused', async () => {
      for (const query of [
        'since=2026-10-02T00:00:00Z&until=2026-10-01T00:00:00Z',
        'since=2026-01-01T00:00:00Z&until=2026-06-01T00:00:00Z',
        'since=2026-10-01T00:00:00Z&from=2026-10-01T00:00:00Z',
        'since=yesterday',
        'limit=201',
      ]) {
        const res = await occurrences(query)
        assert.equal(res.status, 400, `${query}: ${res.text}`)
        assert.equal(res.body.error, 'VALIDATION_FAILED', query)
      }
      // The ends of the calendar: answered, not a server error.
      for (const query of [
        'since=0001-01-01T00:00:00Z&until=0001-03-01T00:00:00Z',
        'since=9999-11-01T00:00:00Z&until=9999-12-31T23:59:59Z',
        'since=1970-01-01T00:00:00Z&until=1970-02-01T00:00:00Z',
      ]) {
        const res = await occurrences(query)
        assert.equal(res.status, 200, `${query}: ${res.text}`)
      }
      const unauthenticated = await svc.request('GET', '/api/partner/maintenance-occurrences')
      assert.equal(unauthenticated.status, 401)
    })
  })
}
