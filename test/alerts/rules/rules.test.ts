// Rule matching: precedence ties, disabled rules, and no rule told apart from all rules off.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Rule } from '../../../src/alerts/rules/rules.js'
import { matchRule } from '../../../src/alerts/rules/rules.js'

const rule = (over: Partial<Rule>): Rule => ({
  id: 'r',
  precedence: 10,
  enabled: true,
  productGroup: 'G',
  alertTypes: [],
  action: 'ticket',
  suppressStatuses: [],
  ticket: { board: null, priority: null, type: null, status: null, closedStatus: null },
  conditions: [],
  templates: { title: null, description: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
})

describe('matchRule', () => {
  test('ties in precedence go to the older rule', () => {
    const rules = [rule({ id: 'new', createdAt: '2026-02-01T00:00:00.000Z' }), rule({ id: 'old' })]
    const m = matchRule(rules, 'G', 'X')
    assert.equal(m.kind === 'matched' && m.rule.id, 'old')
  })

  test('a disabled rule is skipped in favour of the next enabled one', () => {
    const m = matchRule(
      [rule({ id: 'a', precedence: 1, enabled: false }), rule({ id: 'b', precedence: 2 })],
      'G',
      'X',
    )
    assert.equal(m.kind === 'matched' && m.rule.id, 'b')
  })

  test('no rule for the group, and all rules off, are told apart', () => {
    assert.equal(matchRule([rule({ productGroup: 'H' })], 'G', 'X').kind, 'no-rule')
    assert.equal(matchRule([rule({ enabled: false })], 'G', 'X').kind, 'all-disabled')
  })
})
