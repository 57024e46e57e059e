// The smaller pure pieces: rule matching, dedup keys, the catalogue, the integration lifecycle.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import type { Rule } from '../../../src/alerts/rules/rules.js'
import { matchRule } from '../../../src/alerts/rules/rules.js'
import type { AlertFacts } from '../../../src/platform/core/types.js'
import { dedupKey, withinWindow } from '../../../src/tenants/integrations/dedup.js'
import { transition } from '../../../src/tenants/integrations/state.js'
import {
  checkAgainstProductGroups,
  normaliseProductGroups,
  productGroupsFromList,
  toProductGroups,
} from '../../../src/tenants/product-groups/product-groups.js'

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

const alert: AlertFacts = {
  incidentStatus: 'OPEN',
  correlationId: undefined,
  title: 'T',
  summary: 'S',
  accountId: 'a',
  productGroup: 'G',
  alertType: 'X',
}

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

describe('dedupKey', () => {
  test('depends only on the chosen fields, in any order', () => {
    const k1 = dedupKey(['accountId', 'alertType'], alert)
    assert.equal(k1, dedupKey(['alertType', 'accountId'], alert))
    assert.equal(
      k1,
      dedupKey(['accountId', 'alertType'], { ...alert, title: 'other', productGroup: 'other' }),
    )
    assert.notEqual(k1, dedupKey(['accountId', 'alertType', 'title'], alert))
    assert.notEqual(k1, dedupKey(['accountId', 'alertType'], { ...alert, accountId: 'b' }))
  })

  test('field values cannot be shifted into each other to collide', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (a, b, c, d) => {
        fc.pre(a !== c || b !== d)
        const k1 = dedupKey(['accountId', 'alertType'], { ...alert, accountId: a, alertType: b })
        const k2 = dedupKey(['accountId', 'alertType'], { ...alert, accountId: c, alertType: d })
        assert.notEqual(k1, k2)
      }),
    )
  })

  test('the window is measured from the last occurrence', () => {
    const now = new Date('2026-11-22T12:00:00.000Z')
    assert.equal(withinWindow('2026-11-22T11:50:00.000Z', 10, now), true)
    assert.equal(withinWindow('2026-11-22T11:49:59.000Z', 10, now), false)
    assert.equal(withinWindow('2020-01-01T00:00:00.000Z', null, now), true)
  })
})

describe('catalogue', () => {
  test('accepts arrays and comma-separated strings, trimming and dropping empties and repeats', () => {
    assert.deepEqual(
      normaliseProductGroups({ ' Backup ': 'Failed, Warning,,Failed', EDR: ['Malware', ' Malware ', ''] }),
      {
        Backup: ['Failed', 'Warning'],
        EDR: ['Malware'],
      },
    )
  })

  test('a list naming a group twice, even with other spacing, merges the types of both', () => {
    assert.deepEqual(
      productGroupsFromList([
        [' A', ['x']],
        ['A', 'y, x'],
        ['__proto__', ['z']],
      ]),
      JSON.parse('{"A":["x","y"],"__proto__":["z"]}'),
    )
  })

  test('checks groups and types, naming what is known', () => {
    const c = toProductGroups({ Backup: ['Failed'] })
    assert.deepEqual(checkAgainstProductGroups(c, 'Backup', 'Failed'), { ok: true })
    const group = checkAgainstProductGroups(c, 'EDR', 'Failed')
    assert.equal(!group.ok && group.reason, 'unknown-group')
    assert.match(!group.ok ? group.detail : '', /known groups: Backup/)
    const type = checkAgainstProductGroups(c, 'Backup', 'Failed', 'Nope')
    assert.equal(!type.ok && type.reason, 'unknown-type')
    assert.equal(checkAgainstProductGroups(null, 'Backup').ok, false)
    assert.equal(checkAgainstProductGroups(c, 'Backup').ok, true, 'a group alone is fine')
  })
})

describe('integration lifecycle', () => {
  test('the vendor starts mapping from created; later calls do not cut alerts off', () => {
    assert.deepEqual(transition('created', { kind: 'vendor-started-mapping' }), {
      ok: true,
      next: 'mapping',
      changed: true,
    })
    for (const s of ['mapping', 'pending', 'connected'] as const) {
      assert.deepEqual(transition(s, { kind: 'vendor-started-mapping' }), {
        ok: true,
        next: s,
        changed: false,
      })
    }
  })

  test('completing the mapping needs state mapping and at least one mapped account', () => {
    assert.deepEqual(transition('mapping', { kind: 'partner-completed-mapping', mappedAccounts: 1 }), {
      ok: true,
      next: 'pending',
      changed: true,
    })
    const none = transition('mapping', { kind: 'partner-completed-mapping', mappedAccounts: 0 })
    assert.equal(none.ok, false)
    const early = transition('created', { kind: 'partner-completed-mapping', mappedAccounts: 3 })
    assert.equal(!early.ok && early.error, 'INVALID_STATE')
    assert.equal(transition('connected', { kind: 'partner-completed-mapping', mappedAccounts: 0 }).ok, true)
  })

  test('a successful request moves pending to connected and is refused before pending', () => {
    assert.deepEqual(transition('pending', { kind: 'request-succeeded' }), {
      ok: true,
      next: 'connected',
      changed: true,
    })
    assert.deepEqual(transition('connected', { kind: 'request-succeeded' }), {
      ok: true,
      next: 'connected',
      changed: false,
    })
    for (const s of ['created', 'mapping'] as const) {
      const r = transition(s, { kind: 'request-succeeded' })
      assert.equal(!r.ok && r.error, 'INTEGRATION_NOT_ACTIVE')
    }
  })
})
