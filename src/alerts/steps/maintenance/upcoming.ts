// The occurrences of a maintenance window ahead of an instant, worked out when the window is saved and
// at each of its boundaries (the maintenance job, src/alerts/steps/maintenance/jobs.ts) and stored with it: what an
// alert reads to tell whether the window is active, in a few comparisons, whatever its rule
// (docs/decisions/maintenance/recurrence-limits.md). The list is exact: every occurrence that ends
// after `asOf` and starts no later than `until` is in it, in start order, so for any later instant the
// first listed occurrence covering it is the one an expansion would find. Pure.
import { DateTime } from 'luxon'
import { floating, marginMs, minuteMs, occurrenceOf, walk } from './expand.js'
import { horizonYears } from './rrule.js'
import type { MaintenanceSchedule, Occurrence } from './schedule.js'

/** Occurrences listed at most: the window's boundaries for a week of a daily window, months of others. */
export const upcomingListed = 8
/** When the list could not be completed (the budget ran out), it is worked out again a day later. */
const retryMs = 24 * 3600_000

export interface Upcoming {
  /** The instant the list was worked out at. */
  asOf: Date
  /** The occurrences that end after asOf, in start order, at most upcomingListed. */
  occurrences: readonly Occurrence[]
  /**
   * Every occurrence starting no later than this is listed: the last listed one's start when the list
   * is full, the end of the horizon when none starts before it; null when the rule ends within the list.
   */
  until: Date | null
  /** The expansion's budget ran out: what is listed is exact, what comes after it is unknown. */
  exhausted: boolean
}

/** The horizon a list looks ahead (and a new rule must occur within): horizonYears from `at`. */
export const horizonFrom = (at: Date): Date =>
  DateTime.fromJSDate(at, { zone: 'utc' }).plus({ years: horizonYears }).toJSDate()

/** The occurrences ahead of `at` (one expansion, under its budget). */
export function upcomingOf(s: MaintenanceSchedule, at: Date): Upcoming {
  if (s.kind === 'once') {
    const o = { start: new Date(s.startsAt), end: new Date(s.endsAt) }
    return { asOf: at, occurrences: o.end > at ? [o] : [], until: null, exhausted: false }
  }
  const horizon = horizonFrom(at)
  const list: Occurrence[] = []
  let until: Date | null = null
  const from = new Date(floating(at, s.timeZone).getTime() - s.durationMinutes * minuteMs - marginMs)
  const end = walk(s, from, (wall) => {
    const o = occurrenceOf(s, wall)
    if (o.end <= at) return true
    if (o.start > horizon) {
      until = horizon
      return false
    }
    list.push(o)
    if (list.length < upcomingListed) return true
    until = o.start
    return false
  })
  if (end === 'exhausted')
    return { asOf: at, occurrences: list, until: list.at(-1)?.start ?? at, exhausted: true }
  return { asOf: at, occurrences: list, until, exhausted: false }
}

/** The occurrence active at `now`: the first listed one covering it; null when none listed does. */
export function activeIn(u: Upcoming | null, now: Date): Occurrence | null {
  if (!u) return null
  for (const o of u.occurrences) {
    if (o.start > now) return null
    if (now < o.end) return o
  }
  return null
}

/** The first listed start after `now`; null when none is listed (the rule ended, or none is known). */
export function nextStartIn(u: Upcoming | null, now: Date): Date | null {
  for (const o of u?.occurrences ?? []) if (o.start > now) return o.start
  return null
}

export type BoundaryEdge = 'start' | 'end' | 'refresh'

/**
 * When the window's job next runs: the end of the active occurrence, else the next start; past the
 * list, at `until` (or a day later if the budget ran out) to work it out again (`refresh`).
 */
export function nextBoundaryIn(u: Upcoming, now: Date): { at: Date; edge: BoundaryEdge } | null {
  const active = activeIn(u, now)
  if (active) return { at: active.end, edge: 'end' }
  const next = nextStartIn(u, now)
  if (next) return { at: next, edge: 'start' }
  if (u.exhausted || (u.until && u.until <= now))
    return { at: new Date(now.getTime() + retryMs), edge: 'refresh' }
  return u.until ? { at: u.until, edge: 'refresh' } : null
}

/** The stored form (a JSON text of ISO instants). */
export function upcomingJson(u: Upcoming): string {
  return JSON.stringify({
    asOf: u.asOf.toISOString(),
    until: u.until?.toISOString() ?? null,
    exhausted: u.exhausted,
    occurrences: u.occurrences.map((o) => [o.start.toISOString(), o.end.toISOString()]),
  })
}

/** The stored form read back; null for none (or one this version cannot read: worked out again). */
export function upcomingFromJson(text: string | null): Upcoming | null {
  if (!text) return null
  try {
    const v = JSON.parse(text) as {
      asOf: string
      until: string | null
      exhausted: boolean
      occurrences: [string, string][]
    }
    return {
      asOf: new Date(v.asOf),
      until: v.until === null ? null : new Date(v.until),
      exhausted: v.exhausted === true,
      occurrences: v.occurrences.map(([start, end]) => ({ start: new Date(start), end: new Date(end) })),
    }
  } catch {
    return null
  }
}
