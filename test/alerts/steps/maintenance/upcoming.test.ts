// A maintenance window's stored occurrences ahead (src/alerts/steps/maintenance/upcoming.ts), without I/O:
// read at any later instant they answer what expanding the rule answers (active occurrence, next start,
// next boundary) across daylight-saving changes and overlapping occurrences; how far they reach; their
// stored form; and the decision table reading them instead of the rule, so an alert never expands one.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { decide } from '../../../../src/alerts/domain/decide.js'
import {
  type MaintenanceSchedule,
  type MaintenanceWindow,
  nextBoundary,
  nextOccurrence,
  occurrenceAt,
} from '../../../../src/alerts/steps/maintenance/maintenance.js'
import {
  activeIn,
  nextBoundaryIn,
  nextStartIn,
  upcomingFromJson,
  upcomingJson,
  upcomingListed,
  upcomingOf,
} from '../../../../src/alerts/steps/maintenance/upcoming.js'
import { ctx } from '../../../support/decision.js'

const t = (s: string) => new Date(s)
const hour = 3600_000
const recurring = (rrule: string, over: Partial<Extract<MaintenanceSchedule, { kind: 'recurring' }>> = {}) =>
  ({
    kind: 'recurring',
    rrule,
    timeZone: 'Europe/Berlin',
    startDate: '2026-01-04',
    startTime: '01:00',
    durationMinutes: 240,
    ...over,
  }) satisfies MaintenanceSchedule

const schedules: [string, MaintenanceSchedule, string][] = [
  [
    'Sundays 01:00–05:00 Berlin, across the spring change',
    recurring('FREQ=WEEKLY;BYDAY=SU'),
    '2026-03-20T00:00:00Z',
  ],
  ['Sundays, across the autumn change', recurring('FREQ=WEEKLY;BYDAY=SU'), '2026-10-20T00:00:00Z'],
  [
    'daily 02:30, the skipped and the doubled hour',
    recurring('FREQ=DAILY', { startTime: '02:30', durationMinutes: 60 }),
    '2026-03-27T00:00:00Z',
  ],
  [
    'daily for two days: occurrences overlap',
    recurring('FREQ=DAILY', { durationMinutes: 2880 }),
    '2026-05-01T12:00:00Z',
  ],
  [
    'three occurrences, then the rule ends',
    recurring('FREQ=DAILY;COUNT=3', { startDate: '2026-06-01' }),
    '2026-05-31T00:00:00Z',
  ],
  [
    'once',
    { kind: 'once', startsAt: '2026-07-01T10:00:00.000Z', endsAt: '2026-07-01T12:00:00.000Z' },
    '2026-07-01T00:00:00Z',
  ],
]

describe('the stored occurrences answer what the expansion answers', () => {
  for (const [name, s, asOf] of schedules) {
    test(name, () => {
      const u = upcomingOf(s, t(asOf))
      // Every 17 minutes for up to 6 days after they were worked out, as far as they reach (`until`).
      const reach = Math.min(
        t(asOf).getTime() + 6 * 24 * hour,
        u.until?.getTime() ?? Number.POSITIVE_INFINITY,
      )
      assert.ok(reach > t(asOf).getTime() + 4 * 24 * hour, 'they reach days ahead')
      for (let at = t(asOf).getTime(); at < reach; at += 17 * 60_000) {
        const now = new Date(at)
        assert.deepEqual(activeIn(u, now), occurrenceAt(s, now), `active at ${now.toISOString()}`)
        assert.deepEqual(
          nextStartIn(u, now),
          nextOccurrence(s, now)?.start ?? null,
          `next at ${now.toISOString()}`,
        )
        const b = nextBoundaryIn(u, now)
        assert.deepEqual(
          b && b.edge !== 'refresh' ? b : null,
          nextBoundary(s, now),
          `boundary at ${now.toISOString()}`,
        )
      }
    })
  }
})

describe('how far the list reaches', () => {
  test('full: upcomingListed occurrences, until the last one’s start', () => {
    const u = upcomingOf(recurring('FREQ=DAILY'), t('2026-05-01T12:00:00Z'))
    assert.equal(u.occurrences.length, upcomingListed)
    assert.deepEqual(u.until, u.occurrences.at(-1)?.start)
    assert.equal(u.exhausted, false)
  })
  test('a rule that ends: until null, and no boundary after its last occurrence', () => {
    const u = upcomingOf(
      recurring('FREQ=DAILY;COUNT=3', { startDate: '2026-06-01' }),
      t('2026-05-31T00:00:00Z'),
    )
    assert.equal(u.occurrences.length, 3)
    assert.equal(u.until, null)
    assert.equal(nextBoundaryIn(u, t('2026-06-05T00:00:00Z')), null)
  })
  test('nothing within the horizon: until its end, where the job works them out again', () => {
    const u = upcomingOf(
      recurring('FREQ=YEARLY;INTERVAL=10', { startDate: '2026-01-04' }),
      t('2026-02-01T00:00:00Z'),
    )
    assert.deepEqual(u.occurrences, [])
    assert.deepEqual(u.until, t('2031-02-01T00:00:00Z'))
    assert.deepEqual(nextBoundaryIn(u, t('2026-02-01T00:00:00Z')), {
      at: t('2031-02-01T00:00:00Z'),
      edge: 'refresh',
    })
  })
  test('a budget that ran out: tried again a day later', () => {
    const u = upcomingOf(recurring('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'), t('2026-02-01T00:00:00Z'))
    assert.equal(u.exhausted, true)
    assert.deepEqual(nextBoundaryIn(u, t('2026-02-01T00:00:00Z')), {
      at: t('2026-02-02T00:00:00Z'),
      edge: 'refresh',
    })
  })
  test('the stored form reads back as it was', () => {
    const u = upcomingOf(recurring('FREQ=WEEKLY;BYDAY=SU'), t('2026-03-20T00:00:00Z'))
    assert.deepEqual(upcomingFromJson(upcomingJson(u)), u)
    assert.equal(upcomingFromJson(null), null)
    assert.equal(upcomingFromJson('{not json'), null)
  })
})

describe('an alert reads the stored occurrences, never the rule', () => {
  const sunday = t('2026-03-22T02:00:00Z')
  const window = (
    schedule: MaintenanceSchedule,
    upcoming: MaintenanceWindow['upcoming'],
  ): MaintenanceWindow => ({
    id: 'w1',
    integrationId: 'i1',
    name: 'Sunday patching',
    mode: 'suppress',
    schedule,
    scope: { accountIds: [], productGroups: [], alertTypes: [] },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    upcoming,
  })
  const decided = (w: MaintenanceWindow) =>
    decide(ctx({}, { now: sunday, maintenance: { windows: [w], held: null } }))
  const stored = upcomingOf(recurring('FREQ=WEEKLY;BYDAY=SU'), t('2026-03-21T00:00:00Z'))

  test('a rule rrule cannot even read: the stored occurrences still decide (it was never expanded)', () => {
    const d = decided(window(recurring('NOT A RULE;X=\u0000'), stored))
    assert.equal(d.kind === 'done' && d.outcome.event?.name, 'Suppressed By Maintenance Window')
    assert.match(d.kind === 'done' ? (d.outcome.detail ?? '') : '', /active until 2026-03-22T04:00:00.000Z/)
  })
  test('a rule that would hang rrule: decided at once from what is stored', () => {
    const d = decided(window(recurring('FREQ=DAILY;INTERVAL=-1'), stored))
    assert.equal(d.kind === 'done' && d.outcome.row, 'maintenance')
  })
  test('a rule active now but nothing stored (not yet worked out): no window applies', () => {
    assert.equal(decided(window(recurring('FREQ=WEEKLY;BYDAY=SU'), null)).kind, 'create')
    assert.equal(
      decided(window(recurring('FREQ=WEEKLY;BYDAY=SU'), { ...stored, occurrences: [] })).kind,
      'create',
    )
  })
})
