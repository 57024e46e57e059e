// The decision at start, from the facts boot gathers: which key situations start, which are refused
// and with what sentence.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { judgeKeys, type KeyFacts, missingKeyFileRefusal } from '../../../src/platform/security/key-check.js'

const facts = (f: Partial<KeyFacts>): KeyFacts => ({
  source: { kind: 'env' },
  previousConfigured: false,
  currentRetired: false,
  check: 'current',
  sample: 'none',
  foreign: 0,
  ...f,
})

const refusal = (f: Partial<KeyFacts>): string => {
  const verdict = judgeKeys(facts(f))
  assert.equal(verdict.ok, false)
  return verdict.ok ? '' : verdict.refusal
}

describe('judging the keys at start', () => {
  test('the database on the current key starts and keeps its check', () => {
    assert.deepEqual(judgeKeys(facts({})), { ok: true, check: 'keep' })
  })

  test('a database without a check value gets one, if its sealed data opens (or it has none)', () => {
    assert.deepEqual(judgeKeys(facts({ check: 'none', sample: 'none' })), { ok: true, check: 'write' })
    assert.deepEqual(judgeKeys(facts({ check: 'none', sample: 'opens' })), { ok: true, check: 'write' })
    assert.match(refusal({ check: 'none', sample: 'unopenable' }), /^SECRET_KEY does not open the data/)
  })

  test('a check sealed with SECRET_KEY_PREVIOUS starts a rotation', () => {
    assert.deepEqual(judgeKeys(facts({ check: 'previous', previousConfigured: true })), {
      ok: true,
      check: 'advance',
    })
  })

  test('a key that does not open the check is refused, naming where the key came from', () => {
    assert.match(refusal({ check: 'unopenable' }), /^SECRET_KEY does not open the data this database holds/)
    const fromFile = refusal({ check: 'unopenable', source: { kind: 'file', path: 'data/secret.key' } })
    assert.match(fromFile, /^The key in data\/secret\.key does not open the data/)
    assert.match(fromFile, /restore the key file/)
  })

  test('a retired key is refused even if it could open the check', () => {
    assert.match(
      refusal({ currentRetired: true, check: 'previous', previousConfigured: true }),
      /^SECRET_KEY is a key this database has been rotated away from/,
    )
  })

  test('values sealed with neither key are refused, saying a rotation has not finished', () => {
    assert.match(refusal({ foreign: 3 }), /^3 sealed values in this database do not open with SECRET_KEY/)
    assert.match(
      refusal({ foreign: 1, previousConfigured: true }),
      /^1 sealed value in this database opens with neither SECRET_KEY nor SECRET_KEY_PREVIOUS/,
    )
  })

  test('every refusal is one sentence', () => {
    const all = [
      refusal({ check: 'unopenable' }),
      refusal({ currentRetired: true }),
      refusal({ foreign: 2 }),
      missingKeyFileRefusal('data/secret.key'),
    ]
    for (const r of all) {
      assert.doesNotMatch(r, /\n/)
      assert.match(r, /\.$/)
      assert.equal(r.split(/\.\s+[A-Z]/).length, 1, r)
    }
  })
})
