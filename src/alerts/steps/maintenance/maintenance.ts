// Maintenance windows (docs/partner-api.md#maintenance-windows): when a window of an integration is
// active, and whether it covers an alert. Pure, given `now`. A recurring window is an RFC 5545 RRULE
// (the `rrule` library expands it, maintenance-expand.ts) read in local wall time of an IANA time zone:
// the rule is expanded on "floating" dates (the wall time written as if it were UTC), and each
// occurrence's start and end wall times are then placed in the zone with luxon, so "every Sunday
// 01:00–05:00 Europe/Berlin" stays 01:00–05:00 on the clock across daylight-saving changes
// (docs/decisions/maintenance/windows.md). A rule is checked part by part before anything expands it
// (maintenance-rrule.ts), every expansion runs under a budget, and an alert never expands one: it reads
// the occurrences worked out when the window was saved and at each of its boundaries
// (maintenance-upcoming.ts; docs/decisions/maintenance/recurrence-limits.md).
import { DateTime, IANAZone } from 'luxon'
import rrulePackage from 'rrule'
import type { AlertFacts } from '../../../platform/core/types.js'
import { expansionBudget, floating, marginMs, minuteMs, occurrenceOf, ruleText, walk } from './expand.js'
import { type CheckedRule, checkRule, earliestDate, horizonYears, maxStartYearsAhead } from './rrule.js'
import type { MaintenanceSchedule, Occurrence, Recurring } from './schedule.js'
import { activeIn, horizonFrom, type Upcoming, upcomingOf } from './upcoming.js'

export type { MaintenanceSchedule, Occurrence } from './schedule.js'

const { RRule } = rrulePackage

export type MaintenanceMode = 'suppress' | 'hold'

/** Empty lists cover everything; otherwise the alert's value must be listed. */
export interface MaintenanceScope {
  accountIds: readonly string[]
  productGroups: readonly string[]
  alertTypes: readonly string[]
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
  /**
   * The occurrences ahead as of the window's last save or boundary job, what an alert reads; null until
   * they are worked out (a window saved by a version before them: worked out at the next start).
   */
  upcoming: Upcoming | null
}

export const maxDurationMinutes = 7 * 24 * 60

/** Why a schedule cannot be used (a sentence for the failure's detail, naming the field), or null. */
export function scheduleProblem(s: MaintenanceSchedule, now: Date): string | null {
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
  const today = localDate(now, s.timeZone)
  const latestStart = `${String(Number(today.slice(0, 4)) + maxStartYearsAhead)}${today.slice(4)}`
  if (s.startDate < earliestDate || s.startDate > latestStart)
    return `startDate must be from ${earliestDate} to ${latestStart} (${maxStartYearsAhead} years from today).`
  if (!Number.isInteger(s.durationMinutes) || s.durationMinutes < 1 || s.durationMinutes > maxDurationMinutes)
    return `durationMinutes must be a whole number from 1 to ${maxDurationMinutes}.`
  if (/DTSTART|TZID|\n/i.test(s.rrule))
    return 'rrule holds the RRULE properties only (e.g. FREQ=WEEKLY;BYDAY=SU); the start and time zone are fields of their own.'
  const checked = checkRule(ruleText(s.rrule), s.startDate, today)
  if (!checked.ok) return checked.problem
  try {
    RRule.parseString(ruleText(s.rrule))
  } catch (err) {
    return `rrule is not a valid RFC 5545 RRULE: ${err instanceof Error ? err.message : String(err)}.`
  }
  return occurrenceProblem(s, checked.rule, now)
}

/**
 * A rule must occur within the horizon, found within the budget; a rule with COUNT (which is walked
 * from its first occurrence every time) must be walked to its end within it.
 */
function occurrenceProblem(s: Recurring, rule: CheckedRule, now: Date): string | null {
  if (rule.count !== null) {
    let seen = 0
    const end = walk(s, new Date(0), () => ++seen > 0, expansionBudget, false)
    if (end === 'exhausted')
      return `rrule: COUNT=${rule.count} reaches further than an expansion may go (${seen} occurrences found within its limit); give UNTIL instead.`
  }
  const ahead = upcomingOf(s, now)
  if (ahead.occurrences.length > 0) return null
  const by = horizonFrom(now).toISOString().slice(0, 10)
  return ahead.exhausted
    ? `rrule: no occurrence was found before ${by} (${horizonYears} years) within the expansion limit; its BYxxx parts leave too few days.`
    : `rrule: the rule has no occurrence from now to ${by} (${horizonYears} years): its BYxxx parts, COUNT or UNTIL leave none.`
}

/** The occurrence active at `now` (start ≤ now < end), or null; null also when the budget ran out. */
export function occurrenceAt(s: MaintenanceSchedule, now: Date): Occurrence | null {
  if (s.kind === 'once') {
    const o = { start: new Date(s.startsAt), end: new Date(s.endsAt) }
    return o.start <= now && now < o.end ? o : null
  }
  const f = floating(now, s.timeZone).getTime()
  let found: Occurrence | null = null
  walk(s, new Date(f - s.durationMinutes * minuteMs - marginMs), (wall) => {
    if (wall.getTime() > f + marginMs) return false
    const o = occurrenceOf(s, wall)
    if (o.start <= now && now < o.end) found = o
    return found === null
  })
  return found
}

/** The first occurrence that starts after `now`, or null (none, or none found within the budget). */
export function nextOccurrence(s: MaintenanceSchedule, now: Date): Occurrence | null {
  if (s.kind === 'once') {
    const start = new Date(s.startsAt)
    return start > now ? { start, end: new Date(s.endsAt) } : null
  }
  let found: Occurrence | null = null
  walk(s, new Date(floating(now, s.timeZone).getTime() - marginMs), (wall) => {
    const o = occurrenceOf(s, wall)
    if (o.start > now) found = o
    return found === null
  })
  return found
}

/** Some occurrences, and whether the expansion's budget ran out before all were found. */
export interface Expanded {
  occurrences: Occurrence[]
  exhausted: boolean
}

/**
 * The occurrences that overlap [from, to) (start < to, end > from), in start order: at most `limit`,
 * or `limit + 1` to tell the caller there are more.
 */
export function occurrencesBetween(s: MaintenanceSchedule, from: Date, to: Date, limit: number): Expanded {
  if (s.kind === 'once') {
    const o = { start: new Date(s.startsAt), end: new Date(s.endsAt) }
    return { occurrences: o.start < to && o.end > from && limit > 0 ? [o] : [], exhausted: false }
  }
  const found: Occurrence[] = []
  const after = new Date(floating(from, s.timeZone).getTime() - s.durationMinutes * minuteMs - marginMs)
  const before = floating(to, s.timeZone).getTime() + marginMs
  const end = walk(s, after, (wall) => {
    if (wall.getTime() > before) return false
    const o = occurrenceOf(s, wall)
    if (o.start < to && o.end > from) found.push(o)
    return found.length <= limit
  })
  return { occurrences: found, exhausted: end === 'exhausted' }
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
 * The window that applies to the alert at `now`: of those active (by their stored occurrences) and in
 * scope, a `suppress` window first (nothing to release), else the `hold` window that ends last (a held
 * alert waits for all).
 */
export function activeWindowFor(
  windows: readonly MaintenanceWindow[],
  alert: Pick<AlertFacts, 'accountId' | 'productGroup' | 'alertType'>,
  now: Date,
): ActiveWindow | null {
  let best: ActiveWindow | null = null
  for (const window of windows) {
    if (!inScope(window.scope, alert)) continue
    // The stored occurrences, never an expansion: an alert's cost does not depend on the rule.
    const occurrence = activeIn(window.upcoming, now)
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
