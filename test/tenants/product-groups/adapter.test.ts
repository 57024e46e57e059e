// Reading a vendor's product-groups answer: the contract's shape, and a mapped one
// (docs/contract.md#vendor-endpoints, docs/decisions/catalogue/adapter.md).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { readProductGroupAnswer } from '../../../src/tenants/product-groups/adapter.js'

describe('catalogue answer adapter', () => {
  test("the spec's shape, with alertTypes as an array or a comma-separated string", () => {
    const read = readProductGroupAnswer(
      {
        productGroups: [
          { productGroup: 'Endpoint Security', alertTypes: ['Malware Detected', ' Agent Offline '] },
          { productGroup: 'Firewall', alertTypes: 'Port Scan, Intrusion,' },
        ],
      },
      null,
    )
    assert.deepEqual(read, {
      ok: true,
      groups: {
        'Endpoint Security': ['Malware Detected', 'Agent Offline'],
        Firewall: ['Port Scan', 'Intrusion'],
      },
    })
  })

  test('a mapping reads a differently shaped answer, types given as objects', () => {
    const read = readProductGroupAnswer(
      {
        data: {
          groups: [{ name: 'Backup', types: [{ code: 'Backup Failed' }, { code: 'Backup Warning' }] }],
        },
      },
      { groupsPath: 'data.groups', groupField: 'name', typesField: 'types', typeNameField: 'code' },
    )
    assert.deepEqual(read, { ok: true, groups: { Backup: ['Backup Failed', 'Backup Warning'] } })
  })

  test('answers that do not fit are errors naming what is wrong', () => {
    assert.deepEqual(readProductGroupAnswer({ groups: [] }, null), {
      ok: false,
      reason: "'productGroups' is not an array",
    })
    assert.equal(readProductGroupAnswer({ productGroups: [{ alertTypes: [] }] }, null).ok, false)
    assert.equal(
      readProductGroupAnswer({ productGroups: [{ productGroup: 'A', alertTypes: [1] }] }, null).ok,
      false,
    )
    assert.equal(readProductGroupAnswer('nope', null).ok, false)
    assert.equal(
      readProductGroupAnswer(
        { data: { groups: [{ name: 'A', types: ['x'] }] } },
        { groupsPath: 'data.groups' },
      ).ok,
      false,
      'the mapping decides the field names',
    )
  })
})
