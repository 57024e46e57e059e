// Expanding a recurring maintenance window's RRULE, always under a budget
// (docs/decisions/maintenance/recurrence-limits.md). The `rrule` library iterates period by period
// (a day, a week, a month or a year at a time) until it has what was asked for, and calls back only for
// the dates a rule yields: a rule that yields nothing (`BYMONTH=2;BYMONTHDAY=30`) or steps backwards
// (`INTERVAL=-1`) never calls back and never ends before the year 9999. So the budget counts the
// iterator's own work instead: every read of the rule's parsed options, of which it makes a few for
// each day it looks at and each period it steps; past `expansionBudget` reads the walk stops and says
// so. And a rule without COUNT is started from the period nearest the instant asked about, not from its
// first one, so the work does not grow with the years since its startDate. Pure.
import { DateTime } from 'luxon'
import rrulePackage, { type Options } from 'rrule'
import type { Occurrence, Recurring } from './schedule.js'

const { RRule } = rrulePackage

/**
 * Reads of the rule's options one expansion may make: about 18 per day looked at with FREQ=DAILY and
 * 8 to 10 with coarser ones, so some 15 years of days at FREQ=DAILY; tens of milliseconds of work.
 */
export const expansionBudget = 100_000

export const minuteMs = 60_000
const dayMs = 24 * 60 * minuteMs
/** Wider than any offset change: the search around an instant in floating time. */
export const marginMs = 26 * 60 * minuteMs
/** rrule iterates no further than the year 9999. */
const lastDate = new Date(Date.UTC(9999, 11, 31, 23, 59))

/** Date.UTC, also for the years 0–99 (which Date.UTC reads as 1900–1999). */
function utc(y: number, month: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date {
  const at = new Date(Date.UTC(2000, month, d, h, mi, s, ms))
  at.setUTCFullYear(y, month, d)
  return at
}

/** The wall time `instant` shows in `zone`, written as a UTC date (a "floating" date). */
export function floating(instant: Date, zone: string): Date {
  const l = DateTime.fromJSDate(instant, { zone })
  return utc(l.year, l.month - 1, l.day, l.hour, l.minute, l.second, l.millisecond)
}

/**
 * The instant a floating wall time is in `zone`, as RFC 5545 reads local times: one the clock skips
 * is read with the offset before the change (it moves forward), one the clock shows twice is the first.
 */
function zoned(wall: Date, zone: string): Date {
  const at = DateTime.fromObject(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
    },
    { zone },
  )
  // Shown twice (the clock went back 30 or 60 minutes): the earlier instant, if it shows the same time.
  for (const back of [60, 30]) {
    const earlier = at.minus({ minutes: back })
    if (earlier.hour === at.hour && earlier.minute === at.minute) return earlier.toJSDate()
  }
  return at.toJSDate()
}

/** The occurrence that starts at the floating wall time `wallStart`. */
export function occurrenceOf(s: Recurring, wallStart: Date): Occurrence {
  const durationMs = s.durationMinutes * minuteMs
  const start = zoned(wallStart, s.timeZone)
  const end = zoned(new Date(wallStart.getTime() + durationMs), s.timeZone)
  // A start in the hour a change skips moves forward (RFC 5545: read with the offset before it); an
  // end the clock skipped with it would leave nothing, so such an occurrence lasts its real minutes.
  return { start, end: end > start ? end : new Date(start.getTime() + durationMs) }
}

/** The rule's parts as rrule reads them: without `RRULE:`, in capitals (RFC 5545 names and values are
 * case-insensitive; rrule reads `BYDAY=su` as no day at all). */
export const ruleText = (rule: string) =>
  rule
    .trim()
    .replace(/^RRULE:/i, '')
    .toUpperCase()

/** The rule's first start: startDate at startTime, floating. */
function firstStart(s: Recurring): Date {
  const [y = 2000, m = 1, d = 1] = s.startDate.split('-').map(Number)
  const [hh = 0, mm = 0] = s.startTime.split(':').map(Number)
  return utc(y, m - 1, d, hh, mm)
}

const dayNumber = (d: Date) => Math.floor(d.getTime() / dayMs)
/** Monday 0 … Sunday 6, as rrule counts weekdays. */
const weekdayOf = (d: Date) => (d.getUTCDay() + 6) % 7

/**
 * The defaults rrule derives from DTSTART when a rule names no day (rrule 2.8.1, parseoptions.ts):
 * YEARLY on DTSTART's month and day, MONTHLY on its day of the month, WEEKLY on its weekday. A rule
 * started from a later period names them, so that it yields the same dates.
 */
function defaultsOf(o: Partial<Options>, dtstart: Date): Partial<Options> {
  const listed = (v: unknown) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)
  const namesDays =
    Boolean(o.byweekno) ||
    listed(o.byweekno) ||
    listed(o.byyearday) ||
    Boolean(o.bymonthday) ||
    listed(o.bymonthday) ||
    (o.byweekday !== null && o.byweekday !== undefined) ||
    (o.byeaster !== null && o.byeaster !== undefined)
  if (namesDays) return {}
  switch (o.freq) {
    case RRule.YEARLY:
      return { bymonth: o.bymonth || dtstart.getUTCMonth() + 1, bymonthday: dtstart.getUTCDate() }
    case RRule.MONTHLY:
      return { bymonthday: dtstart.getUTCDate() }
    case RRule.WEEKLY:
      return { byweekday: [weekdayOf(dtstart)] }
    default:
      return {}
  }
}

/**
 * The start of the latest period of the rule (counted in INTERVALs from DTSTART's period) that begins
 * no later than `from`, at DTSTART's time of day; null when that is DTSTART's own period.
 */
function anchorOf(o: Partial<Options>, dtstart: Date, from: Date): Date | null {
  const interval = o.interval ?? 1
  if (!Number.isInteger(interval) || interval < 1) return null
  const steps = (n: number) => Math.floor(n / interval) * interval
  const timeOfDay = dtstart.getTime() - dayNumber(dtstart) * dayMs
  const onDay = (day: number) => new Date(day * dayMs + timeOfDay)
  const y = dtstart.getUTCFullYear()
  const m = dtstart.getUTCMonth()
  const [hh, mm] = [dtstart.getUTCHours(), dtstart.getUTCMinutes()]
  switch (o.freq) {
    case RRule.DAILY: {
      const k = steps(dayNumber(from) - dayNumber(dtstart))
      return k > 0 ? onDay(dayNumber(dtstart) + k) : null
    }
    case RRule.WEEKLY: {
      const wkst = typeof o.wkst === 'number' ? o.wkst : (o.wkst?.weekday ?? 0)
      const weekStart = dayNumber(dtstart) - ((weekdayOf(dtstart) - wkst + 7) % 7)
      const k = steps(Math.floor((dayNumber(from) - weekStart) / 7))
      return k > 0 ? onDay(weekStart + 7 * k) : null
    }
    case RRule.MONTHLY: {
      const k = steps((from.getUTCFullYear() - y) * 12 + from.getUTCMonth() - m)
      return k > 0 ? utc(y + Math.floor((m + k) / 12), (m + k) % 12, 1, hh, mm) : null
    }
    case RRule.YEARLY: {
      const k = steps(from.getUTCFullYear() - y)
      return k > 0 ? utc(y + k, 0, 1, hh, mm) : null
    }
    default:
      return null
  }
}

/** The rule, in floating time, to walk from `from`: from a later period when it has no COUNT. */
export function ruleFrom(s: Recurring, from: Date, anchored = true): InstanceType<typeof RRule> {
  const options = RRule.parseString(ruleText(s.rrule))
  const dtstart = firstStart(s)
  const anchor = anchored && !options.count ? anchorOf(options, dtstart, from) : null
  const chosen = anchor
    ? { ...options, ...defaultsOf(options, dtstart), dtstart: anchor }
    : { ...options, dtstart }
  return new RRule({ ...chosen, tzid: null }, true)
}

class OutOfBudget extends Error {}

/** How a walk ended: the visitor stopped it or the rule ended (`done`), or the budget ran out. */
export type WalkEnd = 'done' | 'exhausted'

/**
 * Calls `visit` with each floating start of the rule at or after `from` (floating), in order, until
 * it answers false, the rule ends, or `budget` reads of the rule's options are spent.
 */
export function walk(
  s: Recurring,
  from: Date,
  visit: (wallStart: Date) => boolean,
  budget = expansionBudget,
  anchored = true,
): WalkEnd {
  if (!(from < lastDate)) return 'done'
  let rule: InstanceType<typeof RRule>
  try {
    rule = ruleFrom(s, from, anchored)
  } catch {
    // A stored rule rrule cannot read (saved before the rules were checked as they are now) never occurs.
    return 'done'
  }
  let left = budget
  const out = new OutOfBudget('the expansion budget ran out')
  rule.options = new Proxy(rule.options, {
    get(target, key, receiver) {
      if (--left < 0) throw out
      return Reflect.get(target, key, receiver)
    },
  })
  try {
    rule.between(from, lastDate, true, (wall) => visit(wall))
    return 'done'
  } catch (err) {
    if (err === out) return 'exhausted'
    throw err
  }
}
