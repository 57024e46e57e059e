// The ingress checks as a pure function: any request part without a NUL and no deeper than the limit
// passes; a NUL anywhere (value or field name) or one level too many is named with its place.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { inputProblem, maxInputDepth, nulProblem } from '../../../src/platform/http/ingress.js'

const noNul = fc.jsonValue({ maxDepth: 6 }).filter((v) => !JSON.stringify(v).includes('\\u0000'))

/** A value nested `levels` deep: objects and arrays alternating, the innermost holding `leaf`. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let v = leaf
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v }
  return v
}

describe('ingress checks', () => {
  test('any JSON value without a NUL and within the depth limit passes', () => {
    fc.assert(
      fc.property(noNul, (v) => inputProblem('body', v) === null),
      { seed: 10, numRuns: 300 },
    )
  })

  test('a NUL in any string, anywhere, is named with its place', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), noNul, { minKeys: 1, maxKeys: 4 }),
        fc.nat(),
        fc.string({ maxLength: 4 }),
        (record, pick, prefix) => {
          const keys = Object.keys(record)
          const key = keys[pick % keys.length]!
          const value = { ...record, [key]: { inner: [`${prefix}\u0000`] } }
          assert.equal(
            inputProblem('body', value),
            `body/${key}/inner/0 must not contain the NUL character (U+0000).`,
          )
        },
      ),
      { seed: 11, numRuns: 200 },
    )
  })

  test('a NUL in a field name is refused, and so is one in a parameter', () => {
    assert.equal(
      inputProblem('body', { data: { 'k\u0000': 1 } }),
      'body/data has a field name that contains the NUL character (U+0000); it must not.',
    )
    assert.equal(
      inputProblem('params', { id: 'a\u0000' }),
      'params/id must not contain the NUL character (U+0000).',
    )
    assert.equal(
      inputProblem('querystring', { status: ['open', '\u0000'] }),
      'querystring/status/1 must not contain the NUL character (U+0000).',
    )
    assert.equal(nulProblem('client_id', 'ok'), null)
  })

  test('the body is level 1: 32 levels pass, 33 are named where they go too deep', () => {
    assert.equal(inputProblem('body', nested(maxInputDepth)), null)
    const problem = inputProblem('body', nested(maxInputDepth + 1))
    assert.match(problem ?? '', /^body\/a\/0\/a\/.* nests deeper than 32 levels of objects and arrays/)
  })

  test('a value nested 100,000 levels is refused without walking it all (no stack overflow)', () => {
    assert.match(inputProblem('body', nested(100_000)) ?? '', /deeper than 32 levels/)
  })

  test('field names with / and ~ are escaped as in a JSON Pointer', () => {
    assert.equal(
      inputProblem('body', { 'a/b': { '~c': '\u0000' } }),
      'body/a~1b/~0c must not contain the NUL character (U+0000).',
    )
  })
})
