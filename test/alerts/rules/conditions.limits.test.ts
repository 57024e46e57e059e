// What one alert's rule conditions may cost (src/alerts/rules/patterns.ts, src/alerts/rules/conditions.ts;
// docs/decisions/rules/condition-limits.md): a pattern's written-out size and compiled program bounded,
// the characters a condition reads, the patterns of an integration together, and the work of one alert,
// with the hostile rule set of the review (three `([a-z]*[a-z]*){40}$` conditions on a 62 KB field, and
// thirty such rules) refused at save time or evaluated within the budget. Counts and limits, no timings.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type ConditionFacts,
  ConditionWork,
  checkCondition,
  conditionLimits,
  conditionsProblem,
  integrationProgramProblem,
  programSizeOf,
  type RuleCondition,
} from '../../../src/alerts/rules/conditions.js'
import {
  compilePattern,
  patternLimits,
  patternProblem,
  writtenOutSize,
} from '../../../src/alerts/rules/patterns.js'
import { checkRules, matchRule } from '../../../src/alerts/rules/rules.js'
import { rule } from '../../support/decision.js'

const hostile = '([a-z]*[a-z]*){40}$'
/** The same shape, small enough to be saved: what a determined partner sends next. */
const justUnder = '([a-z]*[a-z]*){30}$'
const big = 'a'.repeat(62_000)
const facts = (log: string): ConditionFacts => ({ title: 'Disk full', summary: '', extras: { log } })
const sizeOf = (pattern: string) => {
  const p = compilePattern(pattern)
  assert.ok(typeof p !== 'string', p as string)
  return p.size
}

describe('a pattern is bounded before and after it compiles', () => {
  test('the written-out size counts every copy of a counted repetition', () => {
    assert.equal(writtenOutSize('abc'), 3)
    assert.equal(writtenOutSize('a{3}'), 3)
    assert.equal(writtenOutSize('(ab){3}'), 12) // (ab) is 4 with its parentheses, three times
    assert.equal(writtenOutSize('a{2,4}'), 6) // four copies, two of them optional
    assert.equal(writtenOutSize('[a-z]{2}'), 10)
    assert.equal(writtenOutSize('\\p{Greek}{2}'), 18)
    assert.equal(writtenOutSize('((a{10}){10}){10}'), 1_220)
    assert.equal(writtenOutSize('a{999}'.repeat(40)), 39_960)
  })

  test('a pattern that writes out past the bound is refused without being compiled', () => {
    const many = 'a{999}'.repeat(40) // 240 characters: under the source limit
    assert.ok(many.length <= patternLimits.source)
    const refused = compilePattern(many)
    assert.equal(typeof refused, 'string')
    assert.match(String(refused), /^repeats its parts to 39,960 characters .* at most 2,000/)
  })

  test("the review's pattern compiles to more instructions than a rule may save", () => {
    assert.equal(sizeOf(hostile), 243)
    assert.match(patternProblem(hostile) ?? '', /^compiles to a program of 243 instructions; at most 200/)
    assert.match(
      conditionsProblem([{ field: 'log', matches: hostile }]) ?? '',
      /^conditions\[0\]\.matches compiles to a program of 243 instructions/,
    )
    assert.match(patternProblem('((a{10}){10}){10}') ?? '', /1,222 instructions/)
    // At the limit is allowed; one past it is not.
    assert.equal(sizeOf('.{198}'), patternLimits.program)
    assert.equal(patternProblem('.{198}'), null)
    assert.notEqual(patternProblem('.{199}'), null)
    assert.equal(patternProblem(justUnder), null)
  })

  test('a pattern is compiled once and kept', () => {
    assert.equal(compilePattern('(?i)disk-\\d+'), compilePattern('(?i)disk-\\d+'))
  })
})

describe('a condition reads at most 4,096 characters of its field', () => {
  test('a 62 KB field is cut: the rest is not matched, and the check says so', () => {
    const work = new ConditionWork(facts(`${big}needle`))
    const c = checkCondition({ field: 'log', contains: 'needle' }, work)
    assert.equal(c.holds, false, 'the needle is past what is read')
    assert.deepEqual(c.cut, { length: 62_006, read: 4_096 })
    assert.match(
      c.detail,
      /^data\.log \(62,006 characters, the first 4,096 read\) is 'a{60}…': contains 'needle' fails\.$/,
    )
    assert.equal(work.used, 4_096, 'a character read by contains is a unit')
    // A field within the limit is not cut.
    const short = checkCondition({ field: 'title', equals: 'disk full' }, new ConditionWork(facts('')))
    assert.equal(short.holds, true)
    assert.equal(short.cut, undefined)
  })

  test('the cut never ends on the first half of a surrogate pair', () => {
    const text = `${'a'.repeat(conditionLimits.read - 1)}😀tail`
    const c = checkCondition({ field: 'log', matches: '\\p{So}' }, new ConditionWork(facts(text)))
    assert.deepEqual(c.cut, { length: text.length, read: conditionLimits.read - 1 })
    assert.equal(c.holds, false)
  })

  test('a pattern costs its program size for each character it reads', () => {
    const work = new ConditionWork(facts(big))
    checkCondition({ field: 'log', matches: 'x' }, work)
    assert.equal(work.used, sizeOf('x') * (conditionLimits.read + 1))
  })
})

describe("one alert's conditions stay within their budget", () => {
  const hostileRule = (i: number, pattern: string) =>
    rule({
      id: `hostile-${String(i).padStart(2, '0')}`,
      precedence: i,
      conditions: [1, 2, 3].map((): RuleCondition => ({ field: 'log', matches: pattern })),
    })
  const thirty = Array.from({ length: 30 }, (_, i) => hostileRule(i + 1, justUnder))
  const perCheck = sizeOf(justUnder) * (conditionLimits.read + 1)
  const fit = Math.floor(conditionLimits.alertWork / perCheck)

  test('thirty rules of three such conditions: a few run, the rest are not checked and do not hold', () => {
    assert.equal(fit, 2)
    const match = matchRule(thirty, 'Endpoint Security', 'X', facts(big))
    assert.deepEqual(match, { kind: 'no-rule', unmet: 30, unchecked: 30 })
    const { tried, work } = checkRules(thirty, 'Endpoint Security', 'X', facts(big))
    assert.equal(tried.length, 30)
    const all = tried.flatMap((r) => r.conditions)
    assert.equal(all.filter((c) => c.checked).length, fit)
    assert.ok(all.every((c) => c.cut?.read === conditionLimits.read))
    assert.deepEqual(work, { used: fit * perCheck, limit: conditionLimits.alertWork, spent: true })
    assert.ok(work.used <= conditionLimits.alertWork)
    assert.match(tried[0]?.conditions[2]?.detail ?? '', /was not checked, so it fails: .* 2,000,000 units/)
  })

  test('a plain rule after them still matches; on a short field every condition runs', () => {
    const plain = rule({ id: 'plain', precedence: 100 })
    const m = matchRule([...thirty, plain], 'Endpoint Security', 'X', facts(big))
    assert.equal(m.kind === 'matched' && m.rule.id, 'plain')
    const short = checkRules(thirty, 'Endpoint Security', 'X', facts('abc'))
    assert.equal(short.tried.length, 1, 'the first rule holds')
    assert.equal(short.work.spent, false)
    assert.equal(short.work.used, 3 * sizeOf(justUnder) * 4)
  })

  test('the dry run decides as matchRule does; conditions after a failing one are shown on their own budget', () => {
    const r = rule({
      conditions: [
        { field: 'log', contains: 'zzz' },
        { field: 'log', matches: 'a+' },
      ],
    })
    const { tried, work } = checkRules([r], 'Endpoint Security', 'X', facts(big))
    assert.deepEqual(
      tried[0]?.conditions.map((c) => [c.holds, c.checked]),
      [
        [false, true],
        [true, true],
      ],
    )
    assert.equal(tried[0]?.holds, false)
    assert.equal(work.used, conditionLimits.read, 'only the contains counts against the decision')
  })

  test('a pattern saved before the limits runs within the budget; one past the written-out bound fails', () => {
    const legacy = rule({ conditions: [{ field: 'log', matches: '.{500}' }] })
    const checked = checkRules([legacy], 'Endpoint Security', 'X', facts('b'.repeat(600)))
    assert.equal(checked.tried[0]?.holds, true)
    assert.equal(checked.work.used, sizeOf('.{500}') * 601)
    const refused = rule({ conditions: [{ field: 'log', matches: 'a{999}'.repeat(40) }] })
    const c = checkRules([refused], 'Endpoint Security', 'X', facts('a')).tried[0]?.conditions[0]
    assert.equal(c?.holds, false)
    assert.match(c?.detail ?? '', /the pattern repeats its parts .* so it fails; edit the rule\.$/)
  })
})

describe("an integration's patterns together", () => {
  test('their program sizes add up; past 4,000 a change that adds to them is refused', () => {
    const three = [1, 2, 3].map((): RuleCondition => ({ field: 'log', matches: justUnder }))
    assert.equal(programSizeOf([...three, { field: 'title', contains: 'x' }]), 3 * sizeOf(justUnder))
    assert.equal(integrationProgramProblem(0, conditionLimits.integrationProgram), null)
    assert.match(
      integrationProgramProblem(3_900, 4_010) ?? '',
      /would compile to 4,010 instructions together; at most 4,000/,
    )
    // Over the limit already (saved before it): a change that does not add is taken.
    assert.equal(integrationProgramProblem(5_000, 5_000), null)
    assert.equal(integrationProgramProblem(5_000, 4_500), null)
    assert.notEqual(integrationProgramProblem(5_000, 5_001), null)
  })
})
