// The RRULE of a recurring maintenance window, checked part by part before anything expands it
// (docs/partner-api.md#maintenance-windows, docs/decisions/maintenance/recurrence-limits.md). The
// `rrule` library's own parser accepts what its iterator cannot finish (`INTERVAL=-1` loops for ever,
// `INTERVAL=0` or `COUNT=100000000` cost every expansion), so every part is read here first with a
// strict grammar, held to the RFC 5545 rules between parts and to our limits, and only a rule that
// passes is handed to the library. Pure.

/** The parts a window's rule may have. The start, its time and its zone are fields of their own. */
const supportedParts = [
  'FREQ',
  'INTERVAL',
  'COUNT',
  'UNTIL',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
] as const
type Part = (typeof supportedParts)[number]

/** INTERVAL: 1 (every period) to this many periods. */
export const maxInterval = 366
/** COUNT: at most this many occurrences; a longer-running rule says UNTIL. */
export const maxCount = 1000
/** Values in one BYxxx list. */
export const maxListValues = 31
/** The earliest startDate and UNTIL (a rule counting from before is no maintenance plan). */
export const earliestDate = '2000-01-01'
/** A rule must occur within this many years from now (when it is saved). */
export const horizonYears = 5
/** The latest startDate: this many years after today (a later one could not occur within the horizon). */
export const maxStartYearsAhead = horizonYears
/** The latest UNTIL: this many years after today. */
export const maxUntilYearsAhead = 100

const frequencies = new Set(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'])
const finer = new Set(['HOURLY', 'MINUTELY', 'SECONDLY'])
const weekdays = new Set(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'])

/** What the rest of the checks need from a rule that passed. */
export interface CheckedRule {
  freq: 'YEARLY' | 'MONTHLY' | 'WEEKLY' | 'DAILY'
  count: number | null
  /** UNTIL as a floating date-time (the wall time written as UTC), as the expansion reads it. */
  until: Date | null
}

export type RuleCheck = { ok: true; rule: CheckedRule } | { ok: false; problem: string }

const fail = (problem: string): RuleCheck => ({ ok: false, problem: `rrule: ${problem}` })

/** An integer list within ±max (never 0 when signed), or why not. */
function numbers(part: Part, value: string, min: number, max: number, signed: boolean): number[] | string {
  const items = value.split(',')
  if (items.length > maxListValues) return `${part} lists at most ${maxListValues} values.`
  const out: number[] = []
  for (const item of items) {
    const n = /^[+-]?\d{1,3}$/.test(item) ? Number(item) : Number.NaN
    const inRange = signed ? n !== 0 && Math.abs(n) >= min && Math.abs(n) <= max : n >= min && n <= max
    if (!Number.isInteger(n) || !inRange)
      return `${part} values are whole numbers from ${signed ? `-${max} to -${min} or ` : ''}${min} to ${max} (not '${item}').`
    if (out.includes(n)) return `${part} lists ${n} twice.`
    out.push(n)
  }
  return out
}

/** UNTIL as RFC 5545 writes it (YYYYMMDD, or YYYYMMDDTHHMMSS with an optional Z), or null. */
function untilOf(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(value)
  if (!m) return null
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)))
  const at = new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s))
  const same =
    at.getUTCFullYear() === y && at.getUTCMonth() === mo! - 1 && at.getUTCDate() === d && h < 24 && mi < 60
  return same && s < 60 ? at : null
}

const yearsAfter = (day: string, years: number) => `${String(Number(day.slice(0, 4)) + years)}${day.slice(4)}`

/**
 * Checks the rule's parts (`rrule` without a leading `RRULE:`), for a window that counts from
 * `startDate`, on `today` (both YYYY-MM-DD in the window's zone). Answers the sentence naming the
 * first part at fault, or what the later checks need.
 */
export function checkRule(rrule: string, startDate: string, today: string): RuleCheck {
  const parts = new Map<Part, string>()
  for (const raw of rrule.split(';')) {
    const m = /^([A-Za-z-]+)=([^=]+)$/.exec(raw)
    if (!m) return fail(`'${raw.slice(0, 40)}' is not a NAME=VALUE part (parts are separated by ';').`)
    const name = m[1]!.toUpperCase()
    const value = m[2]!.toUpperCase()
    if (name === 'BYHOUR' || name === 'BYMINUTE' || name === 'BYSECOND')
      return fail(`${name} is not supported: each occurrence starts at startTime.`)
    if (!(supportedParts as readonly string[]).includes(name))
      return fail(`${name.slice(0, 40)} is not supported (supported: ${supportedParts.join(', ')}).`)
    if (parts.has(name as Part)) return fail(`${name} is given twice.`)
    parts.set(name as Part, value)
  }
  const freq = parts.get('FREQ')
  if (freq === undefined || finer.has(freq) || !frequencies.has(freq))
    return freq === undefined || finer.has(freq)
      ? fail('must have FREQ=YEARLY, MONTHLY, WEEKLY or DAILY.')
      : fail(
          `FREQ=${freq.slice(0, 20)} is not an RFC 5545 frequency; use FREQ=YEARLY, MONTHLY, WEEKLY or DAILY.`,
        )
  const f = freq as CheckedRule['freq']

  const interval = parts.get('INTERVAL')
  if (interval !== undefined) {
    const n = /^[+-]?\d{1,12}$/.test(interval) ? Number(interval) : Number.NaN
    if (!Number.isInteger(n) || n < 1 || n > maxInterval)
      return fail(
        `INTERVAL must be a whole number from 1 to ${maxInterval} (not '${interval.slice(0, 20)}').`,
      )
  }
  let count: number | null = null
  const countText = parts.get('COUNT')
  if (countText !== undefined) {
    count = /^[+-]?\d{1,12}$/.test(countText) ? Number(countText) : Number.NaN
    if (!Number.isInteger(count) || count < 1 || count > maxCount)
      return fail(
        `COUNT must be a whole number from 1 to ${maxCount} (not '${countText.slice(0, 20)}'); for a longer rule give UNTIL.`,
      )
  }
  let until: Date | null = null
  const untilText = parts.get('UNTIL')
  if (untilText !== undefined) {
    if (count !== null) return fail('COUNT and UNTIL must not both be given (RFC 5545).')
    until = untilOf(untilText)
    if (!until)
      return fail(
        `UNTIL must be a date YYYYMMDD or a date-time YYYYMMDDTHHMMSSZ (not '${untilText.slice(0, 20)}').`,
      )
    const day = until.toISOString().slice(0, 10)
    const latest = yearsAfter(today, maxUntilYearsAhead)
    if (day < earliestDate || day > latest)
      return fail(`UNTIL must be from ${earliestDate} to ${latest} (${maxUntilYearsAhead} years from today).`)
    if (day < startDate) return fail(`UNTIL is before startDate ${startDate}: the rule would never occur.`)
  }
  const wkst = parts.get('WKST')
  if (wkst !== undefined && !weekdays.has(wkst))
    return fail(`WKST must be MO, TU, WE, TH, FR, SA or SU (not '${wkst.slice(0, 20)}').`)

  const byday = parts.get('BYDAY')
  if (byday !== undefined) {
    const items = byday.split(',')
    if (items.length > maxListValues) return fail(`BYDAY lists at most ${maxListValues} values.`)
    const ordinalMax = f === 'MONTHLY' ? 5 : 53
    for (const item of items) {
      const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(item)
      if (!m || !weekdays.has(m[2]!))
        return fail(
          `BYDAY values are MO … SU, with an optional ordinal such as 1MO or -1FR (not '${item.slice(0, 20)}').`,
        )
      if (m[1] === undefined) continue
      const n = Number(m[1])
      if (f !== 'MONTHLY' && f !== 'YEARLY')
        return fail(`BYDAY takes an ordinal (${item}) only with FREQ=MONTHLY or YEARLY.`)
      if (n === 0 || Math.abs(n) > ordinalMax)
        return fail(
          `BYDAY ordinals are from -${ordinalMax} to -1 or 1 to ${ordinalMax} with FREQ=${f} (not '${item}').`,
        )
      if (parts.has('BYWEEKNO')) return fail('BYDAY takes no ordinal together with BYWEEKNO (RFC 5545).')
    }
    if (new Set(items).size !== items.length) return fail('BYDAY lists a day twice.')
  }
  const lists: [Part, number, number, boolean, string | null][] = [
    ['BYMONTH', 1, 12, false, null],
    ['BYMONTHDAY', 1, 31, true, f === 'WEEKLY' ? 'FREQ=WEEKLY' : null],
    ['BYYEARDAY', 1, 366, true, f !== 'YEARLY' ? `FREQ=${f}` : null],
    ['BYWEEKNO', 1, 53, true, f !== 'YEARLY' ? `FREQ=${f}` : null],
    ['BYSETPOS', 1, 366, true, null],
  ]
  for (const [part, min, max, signed, forbidden] of lists) {
    const value = parts.get(part)
    if (value === undefined) continue
    if (forbidden) return fail(`${part} must not be used with ${forbidden} (RFC 5545).`)
    const checked = numbers(part, value, min, max, signed)
    if (typeof checked === 'string') return fail(checked)
  }
  if (parts.has('BYSETPOS') && ![...parts.keys()].some((p) => p.startsWith('BY') && p !== 'BYSETPOS'))
    return fail('BYSETPOS needs another BYxxx part to pick from (RFC 5545).')
  return { ok: true, rule: { freq: f, count, until } }
}
