// The fields of an alert body found in the wrong place (src/alerts/intake/misplaced.ts), as a pure function.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { type KnownFields, misplacedFields } from '../../../src/alerts/intake/misplaced.js'
import { knownAlertFields } from '../../../src/alerts/intake/schema.js'

const known: KnownFields = knownAlertFields

describe('misplacedFields', () => {
  test('a top-level field sent inside data names where it belongs', () => {
    assert.deepEqual(misplacedFields({ data: { correlationId: 'edr-1' } }, known), [
      { found: 'body/data/correlationId', belongs: 'body/correlationId' },
    ])
  })

  test('the contract’s other spelling inside data is named as itself, not as a case difference', () => {
    assert.deepEqual(misplacedFields({ data: { correlationID: 'edr-1' } }, known), [
      { found: 'body/data/correlationID', belongs: 'body/correlationID' },
    ])
  })

  test('a data field sent at the top level names where it belongs', () => {
    assert.deepEqual(misplacedFields({ accountId: 'acme', data: {} }, known), [
      { found: 'body/accountId', belongs: 'body/data/accountId' },
    ])
  })

  test('a case-only difference names the contract’s spelling, at either level', () => {
    assert.deepEqual(
      misplacedFields({ ClientId: 'x', data: { AccountID: 'a', incidentstatus: 'OPEN' } }, known),
      [
        { found: 'body/ClientId', belongs: 'body/clientId' },
        { found: 'body/data/AccountID', belongs: 'body/data/accountId' },
        { found: 'body/data/incidentstatus', belongs: 'body/data/incidentStatus' },
      ],
    )
  })

  test('a case difference of the other level names the other level', () => {
    assert.deepEqual(misplacedFields({ data: { CorrelationId: 'edr-1' } }, known), [
      { found: 'body/data/CorrelationId', belongs: 'body/correlationId' },
    ])
  })

  test('both correlationId spellings at the top level are exact names, not hints', () => {
    assert.deepEqual(
      misplacedFields({ correlationId: 'a', correlationID: 'a', data: { title: 't' } }, known),
      [],
    )
  })

  test('unknown fields of neither level are no hint (the contract ignores them)', () => {
    assert.deepEqual(misplacedFields({ vendorNote: 1, data: { severity: 'high', host: 'ws-42' } }, known), [])
  })

  test('a body that is not an object, or a data that is not, gives no hint', () => {
    for (const body of [null, 'x', 3, [1, 2], { data: 'x' }, { data: [{ correlationId: 'a' }] }])
      assert.deepEqual(misplacedFields(body, known), [])
  })

  test('only the first keys are looked at, and few hints are given', () => {
    const data: Record<string, unknown> = {}
    for (let i = 0; i < 50; i++) data[`extra${i}`] = i
    data.correlationId = 'late'
    assert.deepEqual(misplacedFields({ data }, known, 50), [], 'the 51st key is past the bound')
    assert.equal(misplacedFields({ data }, known, 51).length, 1)
    const many = { clientID: 1, ClientSecret: 1, GrantType: 1, Scope: 1, IntegrationID: 1, Data: 1 }
    assert.equal(misplacedFields(many, known, 200, 3).length, 3)
  })

  test('every hint names a field the body has and a place the schema reads', () => {
    const names = [...known.top, ...known.data]
    const key = fc.oneof(
      fc.constantFrom(...names),
      fc.constantFrom(...names).map((n) => n.toUpperCase()),
      fc.string({ maxLength: 12 }),
    )
    const readable = new Set([
      ...known.top.map((n) => `body/${n}`),
      ...known.data.map((n) => `body/data/${n}`),
    ])
    fc.assert(
      fc.property(fc.dictionary(key, fc.string()), fc.dictionary(key, fc.string()), (top, data) => {
        const body = { ...top, data }
        for (const h of misplacedFields(body, known, 200, 100)) {
          assert.ok(readable.has(h.belongs), h.belongs)
          assert.ok(!readable.has(h.found), `${h.found} is read where it is`)
          const [, first, second] = h.found.split('/')
          const present = second === undefined ? Object.hasOwn(body, first!) : Object.hasOwn(data, second)
          assert.ok(present, h.found)
        }
      }),
    )
  })
})
