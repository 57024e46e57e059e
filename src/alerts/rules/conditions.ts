// A rule's conditions on an alert's text and on the extra `data` fields its vendor sends
// (docs/partner-api.md#rule-conditions, docs/decisions/rules/rule-conditions.md). Every condition of a
// rule must hold for the rule to match. A regular expression runs on RE2 (re2js, rule-patterns.ts):
// linear time, no backtracking, no look-around or back-references.
//
// What one alert's conditions may cost is bounded (docs/decisions/rules/condition-limits.md): a
// condition reads at most `conditionLimits.read` characters of its field, and the conditions checked
// for one alert take at most `conditionLimits.alertWork` units of work (a character read by equals or
// contains is one unit; by a pattern, one per instruction of its program). Conditions are checked in
// precedence and written order, each rule's stopping at the first that fails; a condition that would
// take more than what is left is not run and does not hold, nor does any after it.
import { compilePattern, type Program, patternLimits, patternProblem } from './patterns.js'

/**
 * One condition: `field` is `title`, `summary` or the name of an extra field of the alert's `data`; exactly
 * one of `equals` (the whole value, ignoring case), `contains` (a part of it, ignoring case) and `matches`
 * (an RE2 regular expression, as written: `(?i)` ignores case).
 */
export interface RuleCondition {
  field: string
  equals?: string
  contains?: string
  matches?: string
}

export const conditionLimits = {
  /** Conditions per rule. */
  count: 10,
  /** Characters of a field name, an `equals` or `contains` value, and a `matches` pattern. */
  field: 128,
  value: 256,
  pattern: patternLimits.source,
  /** Characters of a field's text a condition reads; the rest is not looked at. */
  read: 4_096,
  /** Instructions of the compiled patterns of one integration's rules together. */
  integrationProgram: 4_000,
  /** Units of condition work one alert may take (see above). */
  alertWork: 2_000_000,
} as const

/** The fields of the contract other than the texts: a rule names them with productGroup and alertTypes. */
const contractFields = new Set(['alertType', 'accountId', 'productGroup', 'incidentStatus'])

/** What conditions look at: an alert's (AlertFacts') texts and extra data fields. */
export interface ConditionFacts {
  title: string
  summary: string
  extras?: Readonly<Record<string, unknown>>
}

const operators = ['equals', 'contains', 'matches'] as const
type Operator = (typeof operators)[number]

function operatorOf(c: RuleCondition): { op: Operator; value: string } | null {
  const given = operators.filter((op) => c[op] !== undefined)
  const op = given[0]
  if (given.length !== 1 || op === undefined) return null
  return { op, value: c[op] ?? '' }
}

const number = (n: number) => n.toLocaleString('en-US')

/** Why a rule's conditions are refused, naming the condition and its field, or null. */
export function conditionsProblem(conditions: readonly RuleCondition[]): string | null {
  if (conditions.length > conditionLimits.count)
    return `conditions: ${conditions.length} given; a rule has at most ${conditionLimits.count}.`
  for (const [i, c] of conditions.entries()) {
    const at = `conditions[${i}]`
    if (c.field.trim() === '' || c.field.length > conditionLimits.field)
      return `${at}.field must be 1–${conditionLimits.field} characters.`
    if (contractFields.has(c.field))
      return `${at}.field '${c.field}': a rule names product groups and alert types with productGroup and alertTypes; conditions look at title, summary and the vendor's extra data fields.`
    const o = operatorOf(c)
    if (!o) return `${at} must have exactly one of equals, contains and matches.`
    if (o.op === 'matches') {
      const problem = patternProblem(o.value)
      if (problem) return `${at}.matches ${problem}.`
    } else if (o.value.length > conditionLimits.value) {
      return `${at}.${o.op} is ${o.value.length} characters long; at most ${conditionLimits.value} are allowed.`
    } else if (o.value === '') {
      return `${at}.${o.op} must not be empty.`
    }
  }
  return null
}

/** The instructions of the compiled patterns of `conditions` (a pattern that does not compile: 0). */
export function programSizeOf(conditions: readonly RuleCondition[]): number {
  let size = 0
  for (const c of conditions) {
    if (c.matches === undefined) continue
    const p = compilePattern(c.matches)
    if (typeof p !== 'string') size += p.size
  }
  return size
}

/**
 * Why an integration's rules may not take a change of their conditions, or null: their patterns together
 * would compile past `conditionLimits.integrationProgram` instructions. A change that does not make the
 * total larger is always taken (rules saved before the limit keep being editable).
 */
export function integrationProgramProblem(before: number, after: number): string | null {
  if (after <= conditionLimits.integrationProgram || after <= before) return null
  return `conditions: the patterns of this integration's rules would compile to ${number(after)} instructions together; at most ${number(conditionLimits.integrationProgram)} are allowed. Shorten or remove some patterns (equals and contains cost none).`
}

/** A field's text as a condition reads it: at most `conditionLimits.read` characters of it. */
interface FieldText {
  text: string
  /** The whole text's length, when it was longer than what is read. */
  cutFrom?: number
}

/** The field's value as text: title and summary, else an extra data field (a non-text value as JSON). */
function fieldText(field: string, facts: ConditionFacts): string | undefined {
  if (field === 'title') return facts.title
  if (field === 'summary') return facts.summary
  const extras = facts.extras
  if (!extras || !Object.hasOwn(extras, field)) return undefined
  const v = extras[field]
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return v === undefined ? undefined : JSON.stringify(v)
}

function readPart(whole: string): FieldText {
  const max = conditionLimits.read
  if (whole.length <= max) return { text: whole }
  // Never end on the first half of a surrogate pair (an emoji, say).
  const code = whole.charCodeAt(max - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max
  return { text: whole.slice(0, end), cutFrom: whole.length }
}

/**
 * The condition work of one alert: what its conditions have read and spent. The field texts are read
 * (and cut) once per alert, whichever conditions name them.
 */
export class ConditionWork {
  used = 0
  /** A condition was not run because the rest of the budget could not pay for it. */
  spent = false
  private readonly texts = new Map<string, FieldText | null>()

  constructor(
    readonly facts: ConditionFacts,
    readonly limit: number = conditionLimits.alertWork,
  ) {}

  text(field: string): FieldText | null {
    let t = this.texts.get(field)
    if (t === undefined) {
      const whole = fieldText(field, this.facts)
      t = whole === undefined ? null : readPart(whole)
      this.texts.set(field, t)
    }
    return t
  }

  /** Takes `units` if they fit in what is left; once one does not, nothing more is taken. */
  take(units: number): boolean {
    if (this.spent || this.used + units > this.limit) {
      this.spent = true
      return false
    }
    this.used += units
    return true
  }
}

export interface ConditionCheck {
  condition: RuleCondition
  holds: boolean
  /** In one sentence, for the dry run. */
  detail: string
  /** False when it was not run: the alert's condition work had reached its limit. */
  checked: boolean
  /** When the field was longer than a condition reads: its whole length, and how many characters were read. */
  cut?: { length: number; read: number }
}

const label = (field: string) => (field === 'title' || field === 'summary' ? field : `data.${field}`)
const quote = (s: string, max = 60) => `'${s.length > max ? `${s.slice(0, max)}…` : s}'`

/**
 * Each condition's compiled pattern, kept with the condition itself: with the rules of the configuration
 * the alert path holds (alerts/executor/cached-reads.ts), so a pattern is compiled once for them, not per alert
 * (and, across reloads of the rules, once while the pattern stays in rule-patterns.ts's cache).
 */
const programs = new WeakMap<RuleCondition, Program | string>()

function programOf(c: RuleCondition, pattern: string): Program | string {
  let p = programs.get(c)
  if (p === undefined) {
    p = compilePattern(pattern)
    programs.set(c, p)
  }
  return p
}

export function checkCondition(c: RuleCondition, work: ConditionWork): ConditionCheck {
  const o = operatorOf(c)
  const name = label(c.field)
  const base = { condition: c, holds: false, checked: true }
  if (!o) return { ...base, detail: `${name}: the condition has no operator.` }
  const wants = `${o.op} ${quote(o.value)}`
  const field = work.text(c.field)
  if (field === null) return { ...base, detail: `${name} is absent: ${wants} fails.` }
  const { text, cutFrom } = field
  const cut = cutFrom === undefined ? undefined : { length: cutFrom, read: text.length }
  const seen = cut
    ? `${name} (${number(cut.length)} characters, the first ${number(cut.read)} read) is ${quote(text)}`
    : `${name} is ${quote(text)}`
  const program = o.op === 'matches' ? programOf(c, o.value) : null
  if (typeof program === 'string')
    return {
      ...base,
      ...(cut && { cut }),
      detail: `${seen}: the pattern ${program}, so it fails; edit the rule.`,
    }
  const units = program ? program.size * (text.length + 1) : Math.max(1, text.length)
  if (!work.take(units))
    return {
      ...base,
      checked: false,
      ...(cut && { cut }),
      detail: `${name}: ${wants} was not checked, so it fails: this alert's conditions reached their limit of ${number(work.limit)} units of work (docs/partner-api.md#rule-conditions).`,
    }
  const holds =
    o.op === 'equals'
      ? text.toLowerCase() === o.value.toLowerCase()
      : o.op === 'contains'
        ? text.toLowerCase().includes(o.value.toLowerCase())
        : program?.re.matcher(text).find() === true
  return { ...base, holds, ...(cut && { cut }), detail: `${seen}: ${wants} ${holds ? 'holds' : 'fails'}.` }
}

/** Whether every condition holds (no conditions: true), checked in order up to the first that fails. */
export function conditionsHold(conditions: readonly RuleCondition[], work: ConditionWork): boolean {
  return conditions.every((c) => checkCondition(c, work).holds)
}

/** An extra data field recent alerts carried: how many of them, and a few of its values. */
export interface ExtraFieldSeen {
  field: string
  alerts: number
  examples: string[]
}

/**
 * The extra `data` fields of recent alerts (their requests as recorded with their events), most frequent
 * first: what a rule's condition can name. At most 50 fields, 5 short examples each.
 */
export function extraFieldsSeen(
  requests: readonly unknown[],
  isContractField: (name: string) => boolean,
): ExtraFieldSeen[] {
  const seen = new Map<string, ExtraFieldSeen>()
  for (const request of requests) {
    const data = (request as { data?: unknown } | null)?.data
    if (typeof data !== 'object' || data === null || Array.isArray(data)) continue
    for (const [field, value] of Object.entries(data)) {
      if (isContractField(field)) continue
      const entry = seen.get(field) ?? { field, alerts: 0, examples: [] }
      entry.alerts++
      const shown = typeof value === 'string' ? value : JSON.stringify(value)
      const example = shown.length > 80 ? `${shown.slice(0, 80)}…` : shown
      if (entry.examples.length < 5 && !entry.examples.includes(example)) entry.examples.push(example)
      seen.set(field, entry)
    }
  }
  return [...seen.values()].sort((a, b) => b.alerts - a.alerts || a.field.localeCompare(b.field)).slice(0, 50)
}
