// Maintenance windows (docs/partner-api.md#maintenance-windows): when a window of an integration is
// active, and whether it covers an alert. Pure, given `now`. A recurring window is an RFC 5545 RRULE
// (the `rrule` library expands it) read in local wall time of an IANA time zone: the rule is expanded
// on "floating" dates (the wall time written as if it were UTC), and each occurrence's start and end
// wall times are then placed in the zone with luxon, so "every Sunday 01:00–05:00 Europe/Berlin" stays
// 01:00–05:00 on the clock across daylight-saving changes
// (docs/decisions/maintenance/windows.md).
import { DateTime, IANAZone } from 'luxon'
import rrulePackage from 'rrule'
import type { AlertFacts } from './types.js'

const { RRule } = rrulePackage

export type MaintenanceMode = 'suppress' | 'hold'

/** Empty lists cover everything; otherwise the alert's value must be listed. */
export interface MaintenanceScope {
  accountIds: readonly string[]
  productGroups: readonly string[]
  alertTypes: readonly string[]
}

export type MaintenanceSchedule =
  | { kind: 'once'; startsAt: string; endsAt: string }
  | {
      kind: 'recurring'
      /** RRULE properties without DTSTART, e.g. `FREQ=WEEKLY;BYDAY=SU`. */
      rrule: string
      timeZone: string
      /** The local date the recurrence counts from (its DTSTART's date), YYYY-MM-DD. */
      startDate: string
      /** The local wall time each occurrence starts, HH:MM. */
      startTime: string
      /** Wall-clock minutes from the start to the end of each occurrence. */
      durationMinutes: number
    }

export interface MaintenanceWindow {
  id: string
  integrationId: string
  name: string
  mode: MaintenanceMode
  schedule: MaintenanceSchedule
  scope: MaintenanceScope
  createdAt: string
  updatedAt: string
}

export interface Occurrence {
  start: Date
  end: Date
}

/** The frequencies a window may recur at: an hourly or finer maintenance window is not one. */
const allowedFreqs = new Set<number>([RRule.YEARLY, RRule.MONTHLY, RRule.WEEKLY, RRule.DAILY])
export const maxDurationMinutes = 7 * 24 * 60
const minuteMs = 60_000
/** Wider than any offset change: the search around `now` in floating time. */
const marginMs = 26 * 60 * minuteMs

/** Why a schedule cannot be used (a sentence for the failure's detail), or null. */
export function scheduleProblem(s: MaintenanceSchedule): string | null {
  if (s.kind === 'once') {
    const start = Date.parse(s.startsAt)
    const end = Date.parse(s.endsAt)
    if (Number.isNaN(start) || Number.isNaN(end)) return 'startsAt and endsAt must be ISO 8601 date-times.'
    if (end <= start) return 'endsAt must be after startsAt.'
    return null
  }
  if (!IANAZone.isValidZone(s.timeZone))
    return `timeZone '${s.timeZone}' is not an IANA time zone (e.g. Europe/Berlin).`
  if (!DateTime.fromISO(`${s.startDate}T${s.startTime}`, { zone: 'utc' }).isValid)
    return 'startDate must be YYYY-MM-DD and startTime HH:MM.'
  if (!Number.isInteger(s.durationMinutes) || s.durationMinutes < 1 || s.durationMinutes > maxDurationMinutes)
    return `durationMinutes must be a whole number from 1 to ${maxDurationMinutes}.`
  if (/DTSTART|TZID|\n/i.test(s.rrule))
    return 'rrule holds the RRULE properties only (e.g. FREQ=WEEKLY;BYDAY=SU); the start and time zone are fields of their own.'
  let freq: number | undefined
  try {
    freq = RRule.parseString(stripPrefix(s.rrule)).freq
  } catch (err) {
    return `rrule is not a valid RFC 5545 RRULE: ${err instanceof Error ? err.message : String(err)}.`
  }
  if (freq === undefined || !allowedFreqs.has(freq))
    return 'rrule must have FREQ=YEARLY, MONTHLY, WEEKLY or DAILY.'
  return null
}

const stripPrefix = (rule: string) => rule.trim().replace(/^RRULE:/i, '')

/** The wall time `instant` shows in `zone`, written as a UTC date (a "floating" date). */
function floating(instant: Date, zone: string): Date {
  const l = DateTime.fromJSDate(instant, { zone })
  return new Date(Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second, l.millisecond))
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

type Recurring = Extract<MaintenanceSchedule, { kind: 'recurring' }>

function expand(s: Recurring) {
  const [y = 0, m = 1, d = 1] = s.startDate.split('-').map(Number)
  const [hh = 0, mm = 0] = s.startTime.split(':').map(Number)
  const options = RRule.parseString(stripPrefix(s.rrule))
  return new RRule({ ...options, dtstart: new Date(Date.UTC(y, m - 1, d, hh, mm)), tzid: null })
}

function occurrenceOf(s: Recurring, wallStart: Date): Occurrence {
  const durationMs = s.durationMinutes * minuteMs
  const start = zoned(wallStart, s.timeZone)
  const end = zoned(new Date(wallStart.getTime() + durationMs), s.timeZone)
  // A start in the hour a change skips moves forward (RFC 5545: read with the offset before it); an
  // end the clock skipped with it would leave nothing, so such an occurrence lasts its real minutes.
  return { start, end: end > start ? end : new Date(start.getTime() + durationMs) }
}

/** The occurrence active at `now` (start ≤ now < end), or null. */
export function occurrenceAt(s: MaintenanceSchedule, now: Date): Occurrence | null {
  if (s.kind === 'once') {
    const o = { start: new Date(s.startsAt), end: new Date(s.endsAt) }
    return o.start <= now && now < o.end ? o : null
  }
  const f = floating(now, s.timeZone).getTime()
  const from = new Date(f - s.durationMinutes * minuteMs - marginMs)
  for (const wall of expand(s).between(from, new Date(f + marginMs), true)) {
    const o = occurrenceOf(s, wall)
    if (o.start <= now && now < o.end) return o
  }
  return null
}

/** The first occurrence that starts after `now`, or null (a one-off past, a rule that ended). */
export function nextOccurrence(s: MaintenanceSchedule, now: Date): Occurrence | null {
  if (s.kind === 'once') {
    const start = new Date(s.startsAt)
    return start > now ? { start, end: new Date(s.endsAt) } : null
  }
  const rule = expand(s)
  let wall = rule.after(new Date(floating(now, s.timeZone).getTime() - marginMs), true)
  for (let i = 0; wall && i < 1000; i++) {
    const o = occurrenceOf(s, wall)
    if (o.start > now) return o
    wall = rule.after(wall, false)
  }
  return null
}

/**
 * The occurrences that overlap [from, to) (start < to, end > from), in start order: at most `limit`,
 * or `limit + 1` to tell the caller there are more.
 */
export function occurrencesBetween(
  s: MaintenanceSchedule,
  from: Date,
  to: Date,
  limit: number,
): Occurrence[] {
  if (s.kind === 'once') {
    const o = { start: new Date(s.startsAt), end: new Date(s.endsAt) }
    return o.start < to && o.end > from && limit > 0 ? [o] : []
  }
  const found: Occurrence[] = []
  const after = new Date(floating(from, s.timeZone).getTime() - s.durationMinutes * minuteMs - marginMs)
  const before = new Date(floating(to, s.timeZone).getTime() + marginMs)
  expand(s).between(after, before, true, (wall) => {
    const o = occurrenceOf(s, wall)
    if (o.start < to && o.end > from) found.push(o)
    return found.length <= limit
  })
  return found
}

/** The next start or end after `now` (the end of the active occurrence first): when its job runs. */
export function nextBoundary(s: MaintenanceSchedule, now: Date): { at: Date; edge: 'start' | 'end' } | null {
  const active = occurrenceAt(s, now)
  if (active) return { at: active.end, edge: 'end' }
  const next = nextOccurrence(s, now)
  return next ? { at: next.start, edge: 'start' } : null
}

export function inScope(
  scope: MaintenanceScope,
  alert: Pick<AlertFacts, 'accountId' | 'productGroup' | 'alertType'>,
): boolean {
  const covers = (list: readonly string[], value: string) => list.length === 0 || list.includes(value)
  return (
    covers(scope.accountIds, alert.accountId) &&
    covers(scope.productGroups, alert.productGroup) &&
    covers(scope.alertTypes, alert.alertType)
  )
}

export interface ActiveWindow {
  window: MaintenanceWindow
  occurrence: Occurrence
}

/**
 * The window that applies to the alert at `now`: of those active and in scope, a `suppress` window
 * first (nothing to release), else the `hold` window that ends last (a held alert waits for all).
 */
export function activeWindowFor(
  windows: readonly MaintenanceWindow[],
  alert: Pick<AlertFacts, 'accountId' | 'productGroup' | 'alertType'>,
  now: Date,
): ActiveWindow | null {
  let best: ActiveWindow | null = null
  for (const window of windows) {
    if (!inScope(window.scope, alert)) continue
    const occurrence = occurrenceAt(window.schedule, now)
    if (!occurrence) continue
    const candidate = { window, occurrence }
    if (!best) best = candidate
    else if (best.window.mode === 'suppress') continue
    else if (window.mode === 'suppress' || occurrence.end > best.occurrence.end) best = candidate
  }
  return best
}

/** The local date of `now` in `zone` (a recurring window's default startDate). */
export function localDate(now: Date, zone: string): string {
  return DateTime.fromJSDate(now, { zone }).toISODate() ?? now.toISOString().slice(0, 10)
}

/** A one-off window that ended before `before` (retention prunes it). */
export function expiredBefore(s: MaintenanceSchedule, before: Date): boolean {
  return s.kind === 'once' && new Date(s.endsAt) < before
}

/** An alert held for a correlationId (the first of them), as the decision sees it. */
export interface HeldRef {
  windowId: string
  windowName: string
  /** When its window's job releases it (the occurrence's end). */
  releaseAt: string
}

/** What the decision table knows of maintenance for one alert (loaded by the caller). */
export interface MaintenanceFacts {
  windows: readonly MaintenanceWindow[]
  /** An alert of the same correlationId held and not yet released, if any. */
  held: HeldRef | null
}

/** What the executor does beside recording the outcome: store the alert held, or drop those held. */
export type MaintenanceAction =
  | { kind: 'hold'; windowId: string; windowName: string; releaseAt: string; correlationId: string }
  | { kind: 'drop'; correlationId: string }
