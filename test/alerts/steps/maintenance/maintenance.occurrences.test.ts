// The occurrences of a maintenance window that overlap a range (occurrencesBetween in
// src/alerts/steps/maintenance/maintenance.ts), without I/O: edges, both daylight-saving changes of Europe/Berlin, a
// start the clock skips, a rule that ends, the limit.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  occurrencesBetween as expanded,
  type MaintenanceSchedule,
} from '../../../../src/alerts/steps/maintenance/maintenance.js'

const occurrencesBetween = (...a: Parameters<typeof expanded>) => {
  const e = expanded(...a)
  assert.equal(e.exhausted, false, 'within the expansion budget')
  return e.occurrences
}

const t = (s: string) => new Date(s)
const iso = (list: { start: Date; end: Date }[]) =>
  list.map((o) => [o.start.toISOString(), o.end.toISOString()])

const sundays: MaintenanceSchedule = {
  kind: 'recurring',
  rrule: 'FREQ=WEEKLY;BYDAY=SU',
  timeZone: 'Europe/Berlin',
  startDate: '2026-01-04',
  startTime: '01:00',
  durationMinutes: 240,
}

test('a one-off window overlapping the range, and not one that ends at its start', () => {
  const once: MaintenanceSchedule = {
    kind: 'once',
    startsAt: '2026-05-01T22:00:00.000Z',
    endsAt: '2026-05-02T02:00:00.000Z',
  }
  assert.deepEqual(iso(occurrencesBetween(once, t('2026-05-02T01:00:00Z'), t('2026-05-03T00:00:00Z'), 10)), [
    ['2026-05-01T22:00:00.000Z', '2026-05-02T02:00:00.000Z'],
  ])
  assert.deepEqual(occurrencesBetween(once, t('2026-05-02T02:00:00Z'), t('2026-05-03T00:00:00Z'), 10), [])
  assert.deepEqual(occurrencesBetween(once, t('2026-05-01T00:00:00Z'), t('2026-05-01T22:00:00Z'), 10), [])
})

test('weekly in Berlin across both changes: 3 real hours in March, 5 in October', () => {
  assert.deepEqual(
    iso(occurrencesBetween(sundays, t('2026-03-22T03:59:00Z'), t('2026-03-30T00:00:00Z'), 10)),
    [
      ['2026-03-22T00:00:00.000Z', '2026-03-22T04:00:00.000Z'],
      ['2026-03-29T00:00:00.000Z', '2026-03-29T03:00:00.000Z'],
    ],
  )
  assert.deepEqual(
    iso(occurrencesBetween(sundays, t('2026-10-18T00:00:00Z'), t('2026-11-01T00:00:01Z'), 10)),
    [
      ['2026-10-17T23:00:00.000Z', '2026-10-18T03:00:00.000Z'],
      ['2026-10-24T23:00:00.000Z', '2026-10-25T04:00:00.000Z'],
      ['2026-11-01T00:00:00.000Z', '2026-11-01T04:00:00.000Z'],
    ],
  )
})

test('a start the clock skips moves forward; a rule with COUNT ends', () => {
  const skipped: MaintenanceSchedule = { ...sundays, startTime: '02:30', durationMinutes: 60 }
  assert.deepEqual(
    iso(occurrencesBetween(skipped, t('2026-03-29T00:00:00Z'), t('2026-03-29T06:00:00Z'), 10)),
    [['2026-03-29T01:30:00.000Z', '2026-03-29T02:30:00.000Z']],
  )
  const three: MaintenanceSchedule = { ...sundays, rrule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=3' }
  assert.equal(occurrencesBetween(three, t('2026-01-01T00:00:00Z'), t('2026-04-01T00:00:00Z'), 10).length, 3)
})

test('at most limit + 1, so the caller can tell there are more', () => {
  const daily: MaintenanceSchedule = { ...sundays, rrule: 'FREQ=DAILY' }
  const found = occurrencesBetween(daily, t('2026-06-01T00:00:00Z'), t('2026-09-01T00:00:00Z'), 5)
  assert.equal(found.length, 6)
  assert.equal(found[0]?.start.toISOString(), '2026-05-31T23:00:00.000Z')
})
