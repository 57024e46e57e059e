// Rule conditions (src/alerts/rules/conditions.ts) and matching with them (src/alerts/rules/rules.ts): contains,
// equals and RE2 patterns on title, summary and the vendor's extra data fields; patterns bounded and
// compiled by a linear-time engine; the first enabled rule by precedence whose conditions hold wins.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { decide } from '../../../src/alerts/domain/decide.js'
import {
  type ConditionFacts,
  ConditionWork,
  checkCondition as checkOn,
  conditionLimits,
  conditionsProblem,
  extraFieldsSeen,
  type RuleCondition,
} from '../../../src/alerts/rules/conditions.js'
import { checkRules, matchRule } from '../../../src/alerts/rules/rules.js'
import { ctx, rule } from '../../support/decision.js'

const facts = (over: Partial<ConditionFacts> = {}): ConditionFacts => ({
  title: 'Disk C: is 95% full',
  summary: 'Free space fell below 5% on SERVER-01',
  extras: { severity: 'Critical', score: 9, tags: ['disk'] },
  ...over,
})

/** One condition checked on its own, with an alert's whole budget. */
const checkCondition = (c: RuleCondition, f: ConditionFacts) => checkOn(c, new ConditionWork(f))

describe('conditionsProblem', () => {
  test('a well-formed set passes', () => {
    assert.equal(
      conditionsProblem([
        { field: 'title', contains: 'disk' },
        { field: 'summary', matches: '(?i)server-\\d+' },
        { field: 'severity', equals: 'critical' },
      ]),
      null,
    )
  })

  test('a pattern over the limit, or one RE2 does not accept, is refused naming the field', () => {
    const long = `a${'b'.repeat(conditionLimits.pattern)}`
    assert.match(
      conditionsProblem([{ field: 'title', matches: long }]) ?? '',
      /^conditions\[0\]\.matches is 257 characters long; at most 256/,
    )
    assert.match(
      conditionsProblem([
        { field: 'title', contains: 'x' },
        { field: 'title', matches: '(' },
      ]) ?? '',
      /^conditions\[1\]\.matches is not a regular expression RE2 accepts/,
    )
    // Back-references and look-around need backtracking: RE2 has neither.
    assert.match(conditionsProblem([{ field: 'title', matches: '(a)\\1' }]) ?? '', /RE2 accepts/)
    assert.match(conditionsProblem([{ field: 'title', matches: 'a(?=b)' }]) ?? '', /RE2 accepts/)
  })

  test('exactly one operator; not empty; not a contract field; at most 10', () => {
    assert.match(conditionsProblem([{ field: 'title' }]) ?? '', /exactly one of equals, contains and matches/)
    assert.match(conditionsProblem([{ field: 'title', equals: 'a', contains: 'b' }]) ?? '', /exactly one/)
    assert.match(
      conditionsProblem([{ field: 'title', contains: '' }]) ?? '',
      /conditions\[0\]\.contains must not be empty/,
    )
    assert.match(
      conditionsProblem([{ field: 'productGroup', equals: 'x' }]) ?? '',
      /productGroup and alertTypes/,
    )
    const eleven = Array.from({ length: 11 }, () => ({ field: 'title', contains: 'x' }))
    assert.match(conditionsProblem(eleven) ?? '', /at most 10/)
  })
})

describe('checkCondition', () => {
  test('contains and equals ignore case; matches is as written unless (?i)', () => {
    assert.ok(checkCondition({ field: 'title', contains: 'DISK' }, facts()).holds)
    assert.ok(checkCondition({ field: 'severity', equals: 'critical' }, facts()).holds)
    assert.ok(!checkCondition({ field: 'severity', equals: 'crit' }, facts()).holds)
    assert.ok(!checkCondition({ field: 'summary', matches: 'server-\\d+' }, facts()).holds)
    assert.ok(checkCondition({ field: 'summary', matches: '(?i)server-\\d+' }, facts()).holds)
  })

  test('extra fields: numbers as text, other values as JSON, an absent field never holds', () => {
    assert.ok(checkCondition({ field: 'score', equals: '9' }, facts()).holds)
    assert.ok(checkCondition({ field: 'tags', contains: '"disk"' }, facts()).holds)
    const absent = checkCondition({ field: 'priority', equals: 'p1' }, facts())
    assert.equal(absent.holds, false)
    assert.equal(absent.detail, "data.priority is absent: equals 'p1' fails.")
    // An inherited property is not a field the vendor sent.
    assert.equal(checkCondition({ field: 'constructor', contains: 'Object' }, facts()).holds, false)
    assert.equal(
      checkCondition({ field: 'severity', equals: 'x' }, facts({ extras: undefined })).holds,
      false,
    )
  })

  test('the detail says what was seen and whether it held', () => {
    assert.equal(
      checkCondition({ field: 'severity', equals: 'critical' }, facts()).detail,
      "data.severity is 'Critical': equals 'critical' holds.",
    )
  })

  test('a pattern that backtracks exponentially elsewhere runs on RE2 within the read limit', () => {
    const text = `${'a'.repeat(50_000)}!`
    const work = new ConditionWork(facts({ title: text }))
    const c = checkOn({ field: 'title', matches: '(a+)+$' }, work)
    // Only the first 4,096 characters are read: all a's, so the pattern holds on them.
    assert.deepEqual(c.cut, { length: 50_001, read: conditionLimits.read })
    assert.equal(c.holds, true)
    assert.ok(work.used > 0 && work.used <= conditionLimits.alertWork)
  })
})

describe('matchRule with conditions', () => {
  const critical = rule({
    id: 'critical',
    precedence: 1,
    conditions: [{ field: 'severity', equals: 'critical' }],
    ticket: { board: 'P1', priority: null, type: null, status: null, closedStatus: null },
  })
  const rest = rule({ id: 'rest', precedence: 2 })

  test('the first enabled rule by precedence whose conditions hold', () => {
    const m = matchRule([rest, critical], 'Endpoint Security', 'X', facts())
    assert.equal(m.kind === 'matched' && m.rule.id, 'critical')
    const w = matchRule([rest, critical], 'Endpoint Security', 'X', facts({ extras: { severity: 'low' } }))
    assert.equal(w.kind === 'matched' && w.rule.id, 'rest')
  })

  test('no rule whose conditions hold: no-rule, counting the ones tried', () => {
    const m = matchRule([critical], 'Endpoint Security', 'X', facts({ extras: {} }))
    assert.deepEqual(m, { kind: 'no-rule', unmet: 1 })
  })

  test('without facts (which pairs a rule covers) conditions are not looked at', () => {
    const m = matchRule([critical], 'Endpoint Security', 'X')
    assert.equal(m.kind === 'matched' && m.rule.id, 'critical')
  })

  test('the decision: a critical alert creates on the rule of the P1 board; NO_RULE names the conditions', () => {
    const d = decide(ctx({ extras: { severity: 'CRITICAL' } }, { rules: [rest, critical] }))
    assert.equal(d.kind === 'create' && d.rule.id, 'critical')
    const none = decide(ctx({ extras: { severity: 'low' } }, { rules: [critical] }))
    assert.equal(none.kind, 'done')
    if (none.kind === 'done') {
      assert.equal(none.outcome.error, 'NO_RULE')
      assert.match(none.outcome.detail ?? '', /has conditions this alert meets \(1 tried\)/)
    }
  })

  test('checkRules: the rules tried, up to the first that holds, with each condition', () => {
    const checks = checkRules(
      [rest, critical],
      'Endpoint Security',
      'X',
      facts({ extras: { severity: 'low' } }),
    ).tried
    assert.deepEqual(
      checks.map((c) => [c.ruleId, c.holds, c.conditions.map((x) => x.holds)]),
      [
        ['critical', false, [false]],
        ['rest', true, []],
      ],
    )
  })
})

describe('extraFieldsSeen', () => {
  test('the extra fields of recent requests, most frequent first, with a few examples', () => {
    const contract = new Set(['title', 'summary', 'accountId', 'productGroup', 'alertType', 'incidentStatus'])
    const seen = extraFieldsSeen(
      [
        { data: { title: 't', severity: 'critical', host: 'a' } },
        { data: { title: 't', severity: 'low' } },
        { data: { severity: 'low', nested: { x: 1 } } },
        null,
        { data: 'odd' },
      ],
      (n) => contract.has(n),
    )
    assert.deepEqual(seen, [
      { field: 'severity', alerts: 3, examples: ['critical', 'low'] },
      { field: 'host', alerts: 1, examples: ['a'] },
      { field: 'nested', alerts: 1, examples: ['{"x":1}'] },
    ])
  })
})
