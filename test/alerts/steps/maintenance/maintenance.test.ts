// Maintenance windows' computation (src/alerts/steps/maintenance/maintenance.ts) and row (maintenance-row.ts), without I/O: one-off windows,
// recurring RFC 5545 rules in an IANA time zone across both daylight-saving changes of Europe/Berlin
// (last Sunday of March: 02:00 → 03:00; last Sunday of October: 03:00 → 02:00), scope, and which
// window applies when several are active; and the decision table's `maintenance` row.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { decide } from '../../../../src/alerts/domain/decide.js'
import {
  activeWindowFor,
  expiredBefore,
  localDate,
  type MaintenanceSchedule,
  type MaintenanceWindow,
  nextBoundary,
  nextOccurrence,
  occurrenceAt,
  scheduleProblem,
} from '../../../../src/alerts/steps/maintenance/maintenance.js'
import { upcomingOf } from '../../../../src/alerts/steps/maintenance/upcoming.js'
import { ctx, rule, ticket } from '../../../support/decision.js'

const t = (s: string) => new Date(s)

/** Every Sunday 01:00–05:00 Berlin, counted from a Sunday in winter. */
const sundays: MaintenanceSchedule = {
  kind: 'recurring',
  rrule: 'FREQ=WEEKLY;BYDAY=SU',
  timeZone: 'Europe/Berlin',
  startDate: '2026-01-04',
  startTime: '01:00',
  durationMinutes: 240,
}

/** A window as stored: its occurrences ahead worked out on 1 March 2026, as its save would. */
const win = (over: Partial<MaintenanceWindow> = {}): MaintenanceWindow => {
  const w = {
    id: 'w1',
    integrationId: 'i1',
    name: 'Sunday patching',
    mode: 'suppress' as const,
    schedule: sundays,
    scope: { accountIds: [], productGroups: [], alertTypes: [] },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  }
  return { ...w, upcoming: over.upcoming ?? upcomingOf(w.schedule, t('2026-03-01T00:00:00Z')) }
}

describe('one-off windows', () => {
  const once: MaintenanceSchedule = {
    kind: 'once',
    startsAt: '2026-11-22T10:00:00.000Z',
    endsAt: '2026-11-22T12:00:00.000Z',
  }
  test('active from its start (inclusive) to its end (exclusive)', () => {
    assert.equal(occurrenceAt(once, t('2026-11-22T09:59:59.999Z')), null)
    assert.deepEqual(occurrenceAt(once, t('2026-11-22T10:00:00.000Z'))?.end, t('2026-11-22T12:00:00.000Z'))
    assert.ok(occurrenceAt(once, t('2026-11-22T11:59:59.999Z')))
    assert.equal(occurrenceAt(once, t('2026-11-22T12:00:00.000Z')), null)
  })
  test('next start and boundary; none once it has started', () => {
    assert.deepEqual(nextOccurrence(once, t('2026-11-22T09:00:00Z'))?.start, t('2026-11-22T10:00:00Z'))
    assert.equal(nextOccurrence(once, t('2026-11-22T10:30:00Z')), null)
    assert.deepEqual(nextBoundary(once, t('2026-11-22T09:00:00Z')), {
      at: t('2026-11-22T10:00:00Z'),
      edge: 'start',
    })
    assert.deepEqual(nextBoundary(once, t('2026-11-22T10:30:00Z')), {
      at: t('2026-11-22T12:00:00Z'),
      edge: 'end',
    })
    assert.equal(nextBoundary(once, t('2026-11-22T12:00:00Z')), null)
  })
  test('expired: ended before the cut-off; a recurring window never is', () => {
    assert.equal(expiredBefore(once, t('2026-12-22T12:00:00Z')), true)
    assert.equal(expiredBefore(once, t('2026-11-22T11:00:00Z')), false)
    assert.equal(expiredBefore(sundays, t('2030-01-01T00:00:00Z')), false)
  })
})

describe('recurring windows across daylight saving (Europe/Berlin)', () => {
  test('winter: 01:00–05:00 CET is 00:00–04:00 UTC', () => {
    const o = occurrenceAt(sundays, t('2026-03-22T02:00:00Z'))
    assert.deepEqual(o, { start: t('2026-03-22T00:00:00Z'), end: t('2026-03-22T04:00:00Z') })
    assert.equal(occurrenceAt(sundays, t('2026-03-21T23:59:59Z')), null)
    assert.equal(occurrenceAt(sundays, t('2026-03-22T04:00:00Z')), null)
  })
  test('spring forward (29 March 2026): 01:00 CET to 05:00 CEST, three real hours', () => {
    const o = occurrenceAt(sundays, t('2026-03-29T01:30:00Z'))
    assert.deepEqual(o, { start: t('2026-03-29T00:00:00Z'), end: t('2026-03-29T03:00:00Z') })
    assert.equal(occurrenceAt(sundays, t('2026-03-29T03:00:00Z')), null)
  })
  test('summer: 01:00–05:00 CEST is 23:00–03:00 UTC of the day before', () => {
    const o = occurrenceAt(sundays, t('2026-04-04T23:30:00Z'))
    assert.deepEqual(o, { start: t('2026-04-04T23:00:00Z'), end: t('2026-04-05T03:00:00Z') })
    assert.deepEqual(nextOccurrence(sundays, t('2026-03-29T12:00:00Z'))?.start, t('2026-04-04T23:00:00Z'))
  })
  test('fall back (25 October 2026): 01:00 CEST to 05:00 CET, five real hours', () => {
    const o = occurrenceAt(sundays, t('2026-10-25T03:30:00Z'))
    assert.deepEqual(o, { start: t('2026-10-24T23:00:00Z'), end: t('2026-10-25T04:00:00Z') })
    assert.deepEqual(nextOccurrence(sundays, t('2026-10-20T00:00:00Z'))?.start, t('2026-10-24T23:00:00Z'))
    assert.deepEqual(nextOccurrence(sundays, t('2026-10-25T12:00:00Z'))?.start, t('2026-11-01T00:00:00Z'))
  })
  test('a start inside the skipped hour (02:30 on 29 March) moves to 03:30 CEST', () => {
    const daily: MaintenanceSchedule = {
      ...sundays,
      rrule: 'FREQ=DAILY',
      startTime: '02:30',
      durationMinutes: 60,
    }
    // 02:30 CET (the offset before the change) is 03:30 CEST; 03:30 on the clock would leave nothing,
    // so it lasts its 60 real minutes.
    assert.deepEqual(occurrenceAt(daily, t('2026-03-29T01:45:00Z')), {
      start: t('2026-03-29T01:30:00Z'),
      end: t('2026-03-29T02:30:00Z'),
    })
    // The day before and the day after keep 02:30 on the clock.
    assert.deepEqual(occurrenceAt(daily, t('2026-03-28T01:45:00Z'))?.start, t('2026-03-28T01:30:00Z'))
    assert.deepEqual(occurrenceAt(daily, t('2026-03-30T00:45:00Z'))?.start, t('2026-03-30T00:30:00Z'))
  })
  test('a start the clock shows twice (02:30 on 25 October) is the first, CEST', () => {
    const daily: MaintenanceSchedule = {
      ...sundays,
      rrule: 'FREQ=DAILY',
      startTime: '02:30',
      durationMinutes: 60,
    }
    // 02:30 CEST is 00:30 UTC; the end, 03:30 on the clock, is CET by then: two real hours.
    assert.deepEqual(occurrenceAt(daily, t('2026-10-25T01:00:00Z')), {
      start: t('2026-10-25T00:30:00Z'),
      end: t('2026-10-25T02:30:00Z'),
    })
  })
  test('an occurrence running over midnight is active on the next day', () => {
    const nightly: MaintenanceSchedule = {
      ...sundays,
      rrule: 'FREQ=DAILY',
      startTime: '23:00',
      durationMinutes: 120,
    }
    assert.deepEqual(occurrenceAt(nightly, t('2026-11-22T23:30:00Z')), {
      start: t('2026-11-22T22:00:00Z'),
      end: t('2026-11-23T00:00:00Z'),
    })
  })
  test('UNTIL and COUNT end the rule: no next start', () => {
    const twice: MaintenanceSchedule = { ...sundays, rrule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=2' }
    assert.deepEqual(nextOccurrence(twice, t('2026-01-05T00:00:00Z'))?.start, t('2026-01-11T00:00:00Z'))
    assert.equal(nextOccurrence(twice, t('2026-01-12T00:00:00Z')), null)
  })
  test('the boundary: the active occurrence’s end, else the next start', () => {
    assert.deepEqual(nextBoundary(sundays, t('2026-03-29T01:00:00Z')), {
      at: t('2026-03-29T03:00:00Z'),
      edge: 'end',
    })
    assert.deepEqual(nextBoundary(sundays, t('2026-03-29T03:00:00Z')), {
      at: t('2026-04-04T23:00:00Z'),
      edge: 'start',
    })
  })
  test('the default start date is today in the zone', () => {
    assert.equal(localDate(t('2026-11-22T23:30:00Z'), 'Europe/Berlin'), '2026-11-23')
    assert.equal(localDate(t('2026-11-22T23:30:00Z'), 'America/New_York'), '2026-11-22')
  })
})

describe('schedule problems', () => {
  const now = t('2026-01-10T00:00:00Z')
  const bad = (over: Partial<Extract<MaintenanceSchedule, { kind: 'recurring' }>>) =>
    scheduleProblem({ ...(sundays as Extract<MaintenanceSchedule, { kind: 'recurring' }>), ...over }, now)
  test('a sound schedule has none', () => assert.equal(scheduleProblem(sundays, now), null))
  test('each problem is a sentence naming the field', () => {
    assert.match(bad({ timeZone: 'Mars/Olympus' }) ?? '', /timeZone/)
    assert.match(bad({ rrule: 'FREQ=SOMETIMES' }) ?? '', /rrule/)
    assert.match(bad({ rrule: 'FREQ=MINUTELY' }) ?? '', /FREQ=YEARLY, MONTHLY, WEEKLY or DAILY/)
    assert.match(bad({ rrule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY' }) ?? '', /RRULE properties only/)
    assert.match(bad({ rrule: 'BYDAY=SU' }) ?? '', /rrule/)
    assert.match(bad({ durationMinutes: 0 }) ?? '', /durationMinutes/)
    assert.match(bad({ startDate: '2026-02-30' }) ?? '', /startDate/)
    assert.match(
      scheduleProblem(
        { kind: 'once', startsAt: '2026-01-02T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' },
        now,
      ) ?? '',
      /endsAt must be after startsAt/,
    )
  })
  test('an RRULE: prefix is accepted', () => assert.equal(bad({ rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU' }), null))
})

describe('which window applies', () => {
  const sunday = t('2026-03-22T02:00:00Z')
  const alert = { accountId: 'acme', productGroup: 'Endpoint Security', alertType: 'Malware Detected' }
  test('scope: empty lists cover all; a list must name the value', () => {
    assert.ok(activeWindowFor([win()], alert, sunday))
    assert.ok(
      activeWindowFor(
        [win({ scope: { accountIds: ['acme'], productGroups: [], alertTypes: [] } })],
        alert,
        sunday,
      ),
    )
    assert.equal(
      activeWindowFor(
        [win({ scope: { accountIds: ['other'], productGroups: [], alertTypes: [] } })],
        alert,
        sunday,
      ),
      null,
    )
    assert.equal(
      activeWindowFor(
        [win({ scope: { accountIds: [], productGroups: ['Backup'], alertTypes: [] } })],
        alert,
        sunday,
      ),
      null,
    )
    assert.equal(
      activeWindowFor(
        [win({ scope: { accountIds: [], productGroups: [], alertTypes: ['Agent Offline'] } })],
        alert,
        sunday,
      ),
      null,
    )
  })
  test('inactive windows do not apply', () =>
    assert.equal(activeWindowFor([win()], alert, t('2026-03-23T02:00:00Z')), null))
  test('suppress wins over hold; of holds, the one ending last', () => {
    const once = (id: string, end: string, mode: 'hold' | 'suppress') =>
      win({ id, mode, schedule: { kind: 'once', startsAt: '2026-03-22T01:00:00Z', endsAt: end } })
    const h1 = once('h1', '2026-03-22T03:00:00Z', 'hold')
    const h2 = once('h2', '2026-03-22T05:00:00Z', 'hold')
    const s1 = once('s1', '2026-03-22T03:00:00Z', 'suppress')
    assert.equal(activeWindowFor([h1, h2], alert, sunday)?.window.id, 'h2')
    assert.equal(activeWindowFor([h1, s1, h2], alert, sunday)?.window.id, 's1')
  })
})

describe('decide: maintenance row', () => {
  const sunday = t('2026-03-22T02:00:00Z')
  const at = (over: Parameters<typeof ctx>[1] = {}, alert: Parameters<typeof ctx>[0] = {}) =>
    decide(ctx(alert, { now: sunday, ...over }))
  test('suppress mode: 200 suppressed, the event names the window', () => {
    const d = at({ maintenance: { windows: [win()], held: null } })
    assert.equal(d.kind, 'done')
    if (d.kind !== 'done') return
    assert.equal(d.outcome.row, 'maintenance')
    assert.equal(d.outcome.httpStatus, 200)
    assert.equal(d.outcome.message, 'suppressed')
    assert.equal(d.outcome.event?.name, 'Suppressed By Maintenance Window')
    assert.match(d.outcome.detail ?? '', /Sunday patching.*w1/)
    assert.equal(d.outcome.correlationId, 'new-cid')
    assert.equal(d.maintenance, undefined)
  })
  test('hold mode: held until the occurrence ends, under the answered correlationId', () => {
    const d = at({ maintenance: { windows: [win({ mode: 'hold' })], held: null } }, { correlationId: 'v-1' })
    assert.equal(d.kind, 'done')
    if (d.kind !== 'done') return
    assert.equal(d.outcome.event?.name, 'Held By Maintenance Window')
    assert.equal(d.outcome.correlationId, 'v-1')
    assert.deepEqual(d.maintenance, {
      kind: 'hold',
      windowId: 'w1',
      windowName: 'Sunday patching',
      releaseAt: '2026-03-22T04:00:00.000Z',
      correlationId: 'v-1',
    })
  })
  test('after the account and rule checks: an unmapped account or no rule is refused as before', () => {
    const m = { maintenance: { windows: [win()], held: null } }
    const unmapped = at({ ...m, mappings: new Map() })
    assert.equal(unmapped.kind === 'done' && unmapped.outcome.row, 'no-mapping-or-rule')
    const noRule = at({ ...m, rules: [rule({ productGroup: 'Backup' })] })
    assert.equal(noRule.kind === 'done' && noRule.outcome.row, 'no-mapping-or-rule')
  })
  test('out of scope, outside the window, or no windows: the rules decide (create)', () => {
    const scoped = win({ scope: { accountIds: ['other'], productGroups: [], alertTypes: [] } })
    assert.equal(at({ maintenance: { windows: [scoped], held: null } }).kind, 'create')
    assert.equal(
      at({ maintenance: { windows: [win()], held: null }, now: t('2026-03-23T02:00:00Z') }).kind,
      'create',
    )
    assert.equal(at({ maintenance: null }).kind, 'create')
  })
  test('an OPEN repeating an open ticket appends as usual', () => {
    const d = at(
      { maintenance: { windows: [win()], held: null }, ticket: ticket({ correlationId: 'cid-1' }) },
      { correlationId: 'cid-1' },
    )
    assert.equal(d.kind, 'append')
  })
  test('a partner’s test alert is never held back', () => {
    assert.equal(
      at({ maintenance: { windows: [win()], held: null } }, { partnerTest: true, test: true }).kind,
      'create',
    )
  })
  test('UPDATE and RESOLVED of a ticket opened before the window pass', () => {
    const m = { maintenance: { windows: [win()], held: null }, ticket: ticket() }
    assert.equal(at(m, { incidentStatus: 'UPDATE', correlationId: 'cid-1' }).kind, 'append')
    assert.equal(at(m, { incidentStatus: 'RESOLVED', correlationId: 'cid-1' }).kind, 'close')
  })
  const held = { windowId: 'w1', windowName: 'Sunday patching', releaseAt: '2026-03-22T04:00:00.000Z' }
  test('RESOLVED of a held alert drops it, with an event', () => {
    const d = at({ maintenance: { windows: [], held } }, { incidentStatus: 'RESOLVED', correlationId: 'v-1' })
    assert.equal(d.kind, 'done')
    if (d.kind !== 'done') return
    assert.equal(d.outcome.row, 'maintenance')
    assert.equal(d.outcome.event?.name, 'Held Alert Dropped')
    assert.deepEqual(d.maintenance, { kind: 'drop', correlationId: 'v-1' })
  })
  test('UPDATE of a held alert is held behind it', () => {
    const d = at({ maintenance: { windows: [], held } }, { incidentStatus: 'UPDATE', correlationId: 'v-1' })
    assert.equal(d.kind === 'done' && d.maintenance?.kind, 'hold')
  })
  test('a follow-up with neither ticket nor held alert is ticket-not-found as before', () => {
    const d = at(
      { maintenance: { windows: [win()], held: null } },
      { incidentStatus: 'RESOLVED', correlationId: 'v-9' },
    )
    assert.equal(d.kind === 'done' && d.outcome.row, 'ticket-not-found')
  })
})
