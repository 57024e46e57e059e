// The product-group catalogue: the forms a vendor's list takes, a group named twice, and checking a group
// and an alert type against it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  checkAgainstProductGroups,
  normaliseProductGroups,
  productGroupsFromList,
  toProductGroups,
} from '../../../src/tenants/product-groups/product-groups.js'

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
