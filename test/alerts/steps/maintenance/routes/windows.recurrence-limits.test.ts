// Maintenance-window recurrences cannot hang or slow the service
// (docs/decisions/maintenance/recurrence-limits.md), through the API on SQLite and PostgreSQL: the bug
// report's rules each answered 400 naming the part, on create and replace, while /healthz keeps answering
// and nothing changes; a window whose stored rule would hang rrule (a row saved before the checks) still
// decides alerts from its stored occurrences, and its list, occurrences and /healthz answer; and a window
// saved before the occurrences were stored gets them at the next start.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { backfillUpcoming } from '../../../../../src/alerts/steps/maintenance/upcoming-backfill.js'
import { createLogger } from '../../../../../src/main/boot.js'
import { type Setup, setupIntegration } from '../../../../support/fixtures.js'
import { backends, manualClock, startService, type TestService } from '../../../../support/service.js'

const minute = 60_000

/** The bug report's recurrences, each with the part its refusal must name. */
const hostile: [Record<string, unknown>, RegExp][] = [
  [{ rrule: 'FREQ=DAILY;INTERVAL=-1' }, /^rrule: INTERVAL must be a whole number from 1 to 366 \(not '-1'\)/],
  [{ rrule: 'FREQ=DAILY;INTERVAL=-5' }, /^rrule: INTERVAL .*'-5'/],
  [{ rrule: 'FREQ=WEEKLY;INTERVAL=-1' }, /^rrule: INTERVAL .*'-1'/],
  [{ rrule: 'FREQ=DAILY;INTERVAL=0' }, /^rrule: INTERVAL .*'0'/],
  [{ rrule: 'FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11' }, /^rrule: .*no occurrence .*5 years/],
  [{ rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' }, /^rrule: .*no occurrence .*5 years/],
  [{ rrule: 'FREQ=DAILY;COUNT=100000000' }, /^rrule: COUNT must be a whole number from 1 to 1000/],
  [{ rrule: 'FREQ=DAILY', startDate: '0001-01-01' }, /^startDate must be from 2000-01-01/],
]

const recurrence = (over: Record<string, unknown>) => ({
  rrule: 'FREQ=WEEKLY;BYDAY=SU',
  timeZone: 'Europe/Berlin',
  startDate: '2026-01-01',
  startTime: '01:00',
  durationMinutes: 240,
  ...over,
})

for (const backend of backends('databases')) {
  describe(`maintenance recurrences cannot hang or slow the service (${backend})`, () => {
    let svc: TestService
    let s: Setup
    // Sunday 22 November 2026, 11:00 in Berlin.
    const clock = manualClock(new Date('2026-11-22T10:00:00.000Z'))
    const windows = () => `/api/partner/integrations/${s.integrationId}/maintenance-windows`
    const db = () => svc.services.db.kysely
    before(async () => {
      svc = await startService({ backend, clock })
      s = await setupIntegration(svc)
    })
    after(async () => svc?.close())

    test('each hostile rule is 400 naming its part, on create and replace, while /healthz answers; nothing changes', async () => {
      const sound = await s.partner('POST', windows(), { name: 'Sound', recurrence: recurrence({}) })
      assert.equal(sound.status, 201, sound.text)
      const before = await svc.snapshot()
      for (const [over, detail] of hostile) {
        const body = { name: 'x', recurrence: recurrence(over) }
        // Each refusal is sent beside a /healthz: both are answered.
        const [created, replaced, health] = await Promise.all([
          s.partner('POST', windows(), body),
          s.partner('PUT', `${windows()}/${sound.body.id}`, body),
          svc.request('GET', '/healthz'),
        ])
        for (const res of [created, replaced]) {
          assert.equal(res.status, 400, `${JSON.stringify(over)}: ${res.text}`)
          assert.equal(res.body.error, 'VALIDATION_FAILED')
          assert.equal(res.body.message, 'failed')
          assert.match(res.body.detail, detail, res.text)
        }
        assert.equal(health.status, 200, health.text)
      }
      // All of them at once, with /healthz asked in between.
      const all = await Promise.all([
        ...hostile.map(([over]) => s.partner('POST', windows(), { name: 'x', recurrence: recurrence(over) })),
        ...hostile.map(() => svc.request('GET', '/healthz')),
      ])
      assert.deepEqual(
        all.map((r) => r.status),
        [...hostile.map(() => 400), ...hostile.map(() => 200)],
      )
      assert.deepEqual(await svc.snapshot(), before)
      assert.equal((await s.partner('DELETE', `${windows()}/${sound.body.id}`)).status, 204)
    })

    test('a stored rule that would hang rrule: alerts decide from the stored occurrences, and everything answers', async () => {
      // Every day 10:00–14:00 Berlin: running now (11:00).
      const w = await s.partner('POST', windows(), {
        name: 'Daily',
        recurrence: recurrence({ rrule: 'FREQ=DAILY', startTime: '10:00' }),
      })
      assert.equal(w.status, 201, w.text)
      assert.equal(w.body.activeNow, true, w.text)
      // As a row saved before the rules were checked would hold it.
      const poisoned = {
        ...recurrence({ rrule: 'FREQ=DAILY;INTERVAL=-1', startTime: '10:00' }),
        kind: 'recurring',
      }
      await db()
        .updateTable('maintenance_windows')
        .set({ schedule: JSON.stringify(poisoned) })
        .where('id', '=', w.body.id)
        .execute()
      svc.services.alerts.acceptReads.clear()

      const [alert, health] = await Promise.all([
        s.sync({ title: 'in window' }),
        svc.request('GET', '/healthz'),
      ])
      assert.equal(health.status, 200)
      // Expanding the rule would find no occurrence (and create a ticket): the stored ones say active.
      assert.equal(alert.status, 200, alert.text)
      assert.equal(alert.body.message, 'suppressed')
      const event = await db()
        .selectFrom('events')
        .select('detail')
        .where('integration_id', '=', s.integrationId)
        .where('event', '=', 'Suppressed By Maintenance Window')
        .executeTakeFirst()
      assert.match(event?.detail ?? '', /active until 2026-11-22T13:00:00.000Z/)

      const listed = await s.partner('GET', windows())
      assert.equal(listed.status, 200, listed.text)
      assert.equal(listed.body.data[0].activeUntil, '2026-11-22T13:00:00.000Z')
      // The dashboard's expansion runs out of its budget: answered, what it found, truncated.
      const occurrences = await s.partner('GET', '/api/partner/maintenance-occurrences')
      assert.equal(occurrences.status, 200, occurrences.text)
      assert.deepEqual([occurrences.body.data, occurrences.body.truncated], [[], true])
      const dry = await s.partner('POST', `/api/partner/integrations/${s.integrationId}/dry-run`, {
        data: {
          title: 'x',
          alertType: 'Malware Detected',
          accountId: 'acme-001',
          productGroup: 'Endpoint Security',
          incidentStatus: 'OPEN',
        },
      })
      assert.equal(dry.status, 200, dry.text)
      assert.equal(dry.body.row, 'maintenance')
      assert.equal((await s.partner('DELETE', `${windows()}/${w.body.id}`)).status, 204)
    })

    test('a window saved before occurrences were stored gets them at the next start, and applies again', async () => {
      const w = await s.partner('POST', windows(), {
        name: 'Older',
        startsAt: new Date(clock().getTime() - minute).toISOString(),
        endsAt: new Date(clock().getTime() + 30 * minute).toISOString(),
      })
      assert.equal(w.status, 201, w.text)
      await db()
        .updateTable('maintenance_windows')
        .set({ upcoming: null })
        .where('id', '=', w.body.id)
        .execute()
      svc.services.alerts.acceptReads.clear()
      // Not worked out yet: it applies to no alert.
      const before = await s.sync({ title: 'before the start' })
      assert.equal(before.status, 201, before.text)

      const backfill = () =>
        backfillUpcoming({
          store: svc.services.store,
          queue: svc.services.queue,
          clock,
          log: createLogger('silent'),
        })
      assert.equal(await backfill(), 1)
      assert.equal(await backfill(), 0, 'nothing left to do')
      const row = await db()
        .selectFrom('maintenance_windows')
        .select('upcoming')
        .where('id', '=', w.body.id)
        .executeTakeFirstOrThrow()
      assert.ok(
        row.upcoming?.includes(new Date(clock().getTime() + 30 * minute).toISOString()),
        row.upcoming ?? '',
      )
      const afterwards = await s.sync({ title: 'after the start' })
      assert.equal(afterwards.body.message, 'suppressed', afterwards.text)
      assert.equal((await s.partner('DELETE', `${windows()}/${w.body.id}`)).status, 204)
    })
  })
}
