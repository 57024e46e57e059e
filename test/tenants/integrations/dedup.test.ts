// Dedup keys: made of the chosen fields alone, in any order, with no two values shifting into a collision;
// and the dedup window, measured from the last occurrence.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import type { AlertFacts } from '../../../src/platform/core/types.js'
import { dedupKey, withinWindow } from '../../../src/tenants/integrations/dedup.js'

const alert: AlertFacts = {
  incidentStatus: 'OPEN',
  correlationId: undefined,
  title: 'T',
  summary: 'S',
  accountId: 'a',
  productGroup: 'G',
  alertType: 'X',
}

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
