// SuperOps' refusals as failures (src/psa/superops/errors.ts): each clientError code its kind and
// retryability, the fields named in the message, a null message, throttling recognised, and errors
// without a code (the server's own trouble retried, a refused document not).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  errorsFailure,
  isThrottled,
  retryHintMs,
  superOpsErrorText,
} from '../../../src/psa/superops/errors.js'

const err = (code: string, attributes?: string[]) => ({
  message: null,
  extensions: { clientError: [{ code, param: attributes ? { attributes } : {} }] },
})

describe('SuperOps errors', () => {
  test('each code: its failure kind, not retried', () => {
    const cases = [
      ['forbidden', 'forbidden'],
      ['subscription_paused', 'forbidden'],
      ['entity_does_not_exist', 'not-found'],
      ['mandatory_validation_failed', 'rejected'],
      ['value_length_exceeds_limit', 'rejected'],
      ['referred_value_does_not_exist', 'rejected'],
      ['unique_validation_failed', 'rejected'],
    ] as const
    for (const [code, kind] of cases) {
      const f = errorsFailure([err(code)])
      assert.deepEqual([f.kind, f.retryable], [kind, false], code)
    }
  })

  test('the message names the fields, even where SuperOps sends no message', () => {
    assert.match(
      errorsFailure([err('value_length_exceeds_limit', ['subject'])]).message,
      /subject.*longer than its limit/,
    )
    assert.match(
      errorsFailure([err('mandatory_validation_failed', ['category'])]).message,
      /requires category/,
    )
    assert.match(
      errorsFailure([err('referred_value_does_not_exist', ['techGroup'])]).message,
      /no such techGroup/,
    )
  })

  test('throttling is recognised, with a hint where the extensions give one', () => {
    assert.equal(isThrottled([err('rate_limit_exceeded')]), true)
    assert.equal(isThrottled([err('forbidden')]), false)
    assert.equal(retryHintMs([{ extensions: { retryAfter: 7 } }]), 7000)
    assert.equal(retryHintMs([err('rate_limit_exceeded')]), null)
  })

  test('without a code: the server’s own error is retried, a refused document is not', () => {
    const internal = errorsFailure([{ message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR' } }])
    assert.deepEqual([internal.kind, internal.retryable], ['unavailable', true])
    const invalid = errorsFailure([{ message: 'Cannot query field "nope" on type "Ticket".' }])
    assert.deepEqual(
      [invalid.kind, invalid.retryable, invalid.message],
      ['rejected', false, 'Cannot query field "nope" on type "Ticket".'],
    )
  })

  test('an HTTP error body: its message', () => {
    assert.equal(
      superOpsErrorText({ message: 'The API token used is invalid or deleted' }),
      'The API token used is invalid or deleted',
    )
    assert.equal(superOpsErrorText('<html>'), null)
  })
})
