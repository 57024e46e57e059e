// A rule's conditions on an alert's text and on the extra `data` fields its vendor sends
// (docs/partner-api.md#rule-conditions, docs/decisions/rules/rule-conditions.md). Every condition of a
// rule must hold for the rule to match. A regular expression runs on RE2 (re2js): linear time in the
// text, no backtracking, no look-around or back-references, and its source is bounded.
import { RE2JS } from 're2js'

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
  pattern: 256,
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

/** A compiled pattern, or why it is refused. Compiled patterns are kept (a bounded number). */
const compiled = new Map<string, RE2JS>()
const compiledMax = 1000

function compile(pattern: string): RE2JS | string {
  const known = compiled.get(pattern)
  if (known) return known
  if (pattern.length > conditionLimits.pattern)
    return `is ${pattern.length} characters long; at most ${conditionLimits.pattern} are allowed`
  try {
    const re = RE2JS.compile(pattern)
    if (compiled.size >= compiledMax) compiled.clear()
    compiled.set(pattern, re)
    return re
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    return `is not a regular expression RE2 accepts (${why}); RE2 has no look-around or back-references`
  }
}

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
      const re = compile(o.value)
      if (typeof re === 'string') return `${at}.matches ${re}.`
    } else if (o.value.length > conditionLimits.value) {
      return `${at}.${o.op} is ${o.value.length} characters long; at most ${conditionLimits.value} are allowed.`
    } else if (o.value === '') {
      return `${at}.${o.op} must not be empty.`
    }
  }
  return null
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

export interface ConditionCheck {
  condition: RuleCondition
  holds: boolean
  /** In one sentence, for the dry run. */
  detail: string
}

const label = (field: string) => (field === 'title' || field === 'summary' ? field : `data.${field}`)
const quote = (s: string, max = 60) => `'${s.length > max ? `${s.slice(0, max)}…` : s}'`

export function checkCondition(c: RuleCondition, facts: ConditionFacts): ConditionCheck {
  const o = operatorOf(c)
  const name = label(c.field)
  const value = fieldText(c.field, facts)
  if (!o) return { condition: c, holds: false, detail: `${name}: the condition has no operator.` }
  const wants = `${o.op} ${quote(o.value)}`
  if (value === undefined) return { condition: c, holds: false, detail: `${name} is absent: ${wants} fails.` }
  let holds: boolean
  if (o.op === 'equals') holds = value.toLowerCase() === o.value.toLowerCase()
  else if (o.op === 'contains') holds = value.toLowerCase().includes(o.value.toLowerCase())
  else {
    const re = compile(o.value)
    holds = typeof re !== 'string' && re.matcher(value).find()
  }
  return {
    condition: c,
    holds,
    detail: `${name} is ${quote(value)}: ${wants} ${holds ? 'holds' : 'fails'}.`,
  }
}

/** Whether every condition holds (no conditions: true). */
export function conditionsHold(conditions: readonly RuleCondition[], facts: ConditionFacts): boolean {
  return conditions.every((c) => checkCondition(c, facts).holds)
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
