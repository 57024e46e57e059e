// A recurring maintenance window's schedule checked before anything expands it (scheduleProblem in
// src/alerts/steps/maintenance/maintenance.ts, the RRULE's parts in maintenance-rrule.ts), without I/O: every refusal names
// the part at fault (docs/partner-api.md#maintenance-windows), the bug report's hostile rules among
// them, and the rules partners write pass.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type MaintenanceSchedule,
  scheduleProblem,
} from '../../../../src/alerts/steps/maintenance/maintenance.js'
import {
  checkRule,
  maxCount,
  maxInterval,
  maxListValues,
} from '../../../../src/alerts/steps/maintenance/rrule.js'

const now = new Date('2026-11-22T10:00:00.000Z')
const base: Extract<MaintenanceSchedule, { kind: 'recurring' }> = {
  kind: 'recurring',
  rrule: 'FREQ=WEEKLY;BYDAY=SU',
  timeZone: 'Europe/Berlin',
  startDate: '2026-01-01',
  startTime: '01:00',
  durationMinutes: 240,
}
const problem = (rrule: string, over: Partial<typeof base> = {}) =>
  scheduleProblem({ ...base, rrule, ...over }, now)

describe('the bug report’s rules: each refused, naming the part', () => {
  const cases: [string, Partial<typeof base>, RegExp][] = [
    ['FREQ=DAILY;INTERVAL=-1', {}, /^rrule: INTERVAL must be a whole number from 1 to 366 \(not '-1'\)/],
    ['FREQ=DAILY;INTERVAL=-5', {}, /INTERVAL .*'-5'/],
    ['FREQ=WEEKLY;INTERVAL=-1', {}, /INTERVAL .*'-1'/],
    ['FREQ=DAILY;INTERVAL=0', {}, /INTERVAL .*'0'/],
    ['FREQ=DAILY;COUNT=100000000', {}, /^rrule: COUNT must be a whole number from 1 to 1000/],
    ['FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11', {}, /^rrule: .*no occurrence .*2031-11-22 \(5 years\)/],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', {}, /^rrule: .*no occurrence/],
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', {}, /^rrule: .*no occurrence/],
    ['FREQ=DAILY', { startDate: '0001-01-01' }, /^startDate must be from 2000-01-01 to 2031-11-22/],
  ]
  for (const [rrule, over, detail] of cases)
    test(`${rrule} ${over.startDate ?? ''}`, () => assert.match(problem(rrule, over) ?? 'accepted', detail))
})

describe('each part held to its limit', () => {
  const refused: [string, RegExp][] = [
    // INTERVAL and COUNT
    [`FREQ=DAILY;INTERVAL=${maxInterval + 1}`, /INTERVAL must be a whole number from 1 to 366/],
    ['FREQ=DAILY;INTERVAL=two', /INTERVAL .*'TWO'/],
    ['FREQ=DAILY;INTERVAL=1.5', /INTERVAL/],
    [`FREQ=DAILY;COUNT=${maxCount + 1}`, /COUNT must be .* to 1000.*UNTIL/],
    ['FREQ=DAILY;COUNT=0', /COUNT/],
    ['FREQ=DAILY;COUNT=-3', /COUNT/],
    // UNTIL
    ['FREQ=DAILY;UNTIL=19991231', /UNTIL must be from 2000-01-01 to 2126-11-22/],
    ['FREQ=DAILY;UNTIL=21270101', /UNTIL must be from 2000-01-01/],
    ['FREQ=DAILY;UNTIL=2027-01-01', /UNTIL must be a date YYYYMMDD/],
    ['FREQ=DAILY;UNTIL=20270230', /UNTIL must be a date/],
    ['FREQ=DAILY;UNTIL=20270101T250000Z', /UNTIL must be a date/],
    ['FREQ=DAILY;UNTIL=20251231', /UNTIL is before startDate 2026-01-01/],
    ['FREQ=DAILY;UNTIL=20270101;COUNT=3', /COUNT and UNTIL must not both/],
    // FREQ and the grammar
    ['FREQ=HOURLY', /must have FREQ=YEARLY, MONTHLY, WEEKLY or DAILY/],
    ['FREQ=SOMETIMES', /FREQ=SOMETIMES is not an RFC 5545 frequency/],
    ['BYDAY=SU', /must have FREQ/],
    ['FREQ=DAILY;FREQ=WEEKLY', /FREQ is given twice/],
    ['FREQ=DAILY;', /'' is not a NAME=VALUE part/],
    ['FREQ=DAILY;INTERVAL', /'INTERVAL' is not a NAME=VALUE part/],
    ['FREQ=DAILY;INTERVAL=1=2', /not a NAME=VALUE part/],
    ['FREQ=DAILY; INTERVAL=2', /not a NAME=VALUE part/],
    // unsupported parts
    ['FREQ=DAILY;BYHOUR=3', /BYHOUR is not supported: each occurrence starts at startTime/],
    ['FREQ=DAILY;BYMINUTE=3', /BYMINUTE is not supported/],
    ['FREQ=DAILY;BYSECOND=3', /BYSECOND is not supported/],
    ['FREQ=YEARLY;BYEASTER=0', /BYEASTER is not supported \(supported: FREQ, INTERVAL/],
    ['FREQ=DAILY;X-NAME=1', /X-NAME is not supported/],
    // BYxxx values, lists, and the RFC's rules between parts
    ['FREQ=YEARLY;BYMONTH=13', /BYMONTH values are whole numbers from 1 to 12 \(not '13'\)/],
    ['FREQ=YEARLY;BYMONTH=-1', /BYMONTH values/],
    ['FREQ=MONTHLY;BYMONTHDAY=0', /BYMONTHDAY values are whole numbers from -31 to -1 or 1 to 31/],
    ['FREQ=MONTHLY;BYMONTHDAY=32', /BYMONTHDAY values/],
    ['FREQ=MONTHLY;BYMONTHDAY=1,1', /BYMONTHDAY lists 1 twice/],
    [
      `FREQ=MONTHLY;BYMONTHDAY=${Array.from({ length: 32 }, (_, i) => (i < 31 ? i + 1 : -1)).join(',')}`,
      /BYMONTHDAY lists at most 31 values/,
    ],
    ['FREQ=WEEKLY;BYMONTHDAY=3', /BYMONTHDAY must not be used with FREQ=WEEKLY/],
    ['FREQ=MONTHLY;BYYEARDAY=3', /BYYEARDAY must not be used with FREQ=MONTHLY/],
    ['FREQ=YEARLY;BYYEARDAY=367', /BYYEARDAY values/],
    ['FREQ=DAILY;BYWEEKNO=3', /BYWEEKNO must not be used with FREQ=DAILY/],
    ['FREQ=YEARLY;BYWEEKNO=54', /BYWEEKNO values/],
    ['FREQ=MONTHLY;BYSETPOS=1', /BYSETPOS needs another BYxxx part/],
    ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', /BYSETPOS values/],
    ['FREQ=WEEKLY;BYDAY=1MO', /BYDAY takes an ordinal \(1MO\) only with FREQ=MONTHLY or YEARLY/],
    ['FREQ=MONTHLY;BYDAY=6MO', /BYDAY ordinals are from -5 to -1 or 1 to 5 with FREQ=MONTHLY/],
    ['FREQ=YEARLY;BYDAY=0MO', /BYDAY ordinals/],
    ['FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO', /BYDAY takes no ordinal together with BYWEEKNO/],
    ['FREQ=WEEKLY;BYDAY=XX', /BYDAY values are MO … SU/],
    ['FREQ=WEEKLY;BYDAY=MO,MO', /BYDAY lists a day twice/],
    ['FREQ=WEEKLY;WKST=XX', /WKST must be MO, TU, WE, TH, FR, SA or SU/],
    // a rule with no occurrence within the horizon
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO', /no occurrence from now to 2031-11-22/],
    ['FREQ=DAILY;UNTIL=20260301', /no occurrence/],
    ['FREQ=DAILY;COUNT=3', /no occurrence/],
    ['FREQ=YEARLY;INTERVAL=10', /no occurrence/],
  ]
  for (const [rrule, detail] of refused)
    test(rrule.slice(0, 60), () => assert.match(problem(rrule) ?? 'accepted', detail))

  test('startDate from 2000-01-01 to five years from today, in the window’s zone', () => {
    assert.match(
      problem('FREQ=DAILY', { startDate: '1999-12-31' }) ?? '',
      /^startDate must be from 2000-01-01/,
    )
    assert.match(
      problem('FREQ=DAILY', { startDate: '2031-11-23' }) ?? '',
      /startDate .* to 2031-11-22 \(5 years from today\)/,
    )
    assert.equal(problem('FREQ=DAILY', { startDate: '2000-01-01' }), null)
    assert.equal(problem('FREQ=DAILY', { startDate: '2031-11-22' }), null)
  })

  test('a COUNT whose occurrences reach further than one expansion may go is refused, naming COUNT', () =>
    assert.match(
      problem('FREQ=DAILY;BYDAY=MO;COUNT=1000', { startDate: '2000-01-01' }) ?? '',
      /^rrule: COUNT=1000 reaches further than an expansion may go .*give UNTIL instead/,
    ))
})

describe('the rules partners write pass', () => {
  for (const [rrule, startDate] of [
    ['FREQ=WEEKLY;BYDAY=SU'],
    ['RRULE:FREQ=WEEKLY;BYDAY=SA,SU;INTERVAL=2'],
    ['freq=weekly;byday=su'],
    ['FREQ=DAILY', '2000-01-01'],
    ['FREQ=DAILY;INTERVAL=366'],
    ['FREQ=MONTHLY;BYDAY=1SU'],
    ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'],
    ['FREQ=MONTHLY;BYMONTHDAY=-1'],
    ['FREQ=MONTHLY;BYMONTHDAY=31'],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'],
    ['FREQ=YEARLY;BYWEEKNO=1,27;BYDAY=MO'],
    ['FREQ=YEARLY;BYYEARDAY=1,-1'],
    ['FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10'],
    ['FREQ=WEEKLY;BYDAY=SU;UNTIL=20301231T235959Z'],
    ['FREQ=WEEKLY;BYDAY=SU;COUNT=52', '2026-11-01'],
    ['FREQ=DAILY;COUNT=1000', '2026-11-01'],
    ['FREQ=WEEKLY;WKST=SU;BYDAY=SA'],
  ] as [string, string?][])
    test(`${rrule} ${startDate ?? ''}`, () =>
      assert.equal(problem(rrule, startDate ? { startDate } : {}), null))
})

test('the parts alone: what the later checks need', () => {
  assert.deepEqual(checkRule('FREQ=DAILY;COUNT=5', '2026-01-01', '2026-11-22'), {
    ok: true,
    rule: { freq: 'DAILY', count: 5, until: null },
  })
  const until = checkRule('FREQ=WEEKLY;UNTIL=20270101T120000Z', '2026-01-01', '2026-11-22')
  assert.deepEqual(until.ok && until.rule.until, new Date('2027-01-01T12:00:00.000Z'))
  assert.equal(maxListValues, 31)
})
