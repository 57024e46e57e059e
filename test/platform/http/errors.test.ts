// The one place a service's refusal becomes HTTP: orRefuse hands the value on, or throws the ApiError
// with the refusal's code (and so its status), sentence, ids and headers, unchanged.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { encodeCursor, readCursor } from '../../../src/platform/core/cursor.js'
import { notFound, ok, refuse } from '../../../src/platform/core/result.js'
import { ApiError, orRefuse } from '../../../src/platform/http/errors.js'
import { decodeCursor } from '../../../src/platform/http/pagination.js'

test('orRefuse answers the value of an ok result', () => {
  assert.deepEqual(orRefuse(ok({ id: 'x' })), { id: 'x' })
})

test('orRefuse throws the refusal as the ApiError the error handler renders', () => {
  const limited = refuse('RATE_LIMITED', 'Too many failed sign-ins; try again in 5 seconds.', {
    headers: { 'retry-after': '5' },
  })
  assert.throws(
    () => orRefuse(limited),
    (err: unknown) => {
      assert.ok(err instanceof ApiError)
      assert.equal(err.status, 429)
      assert.equal(err.code, 'RATE_LIMITED')
      assert.equal(err.detail, 'Too many failed sign-ins; try again in 5 seconds.')
      assert.deepEqual(err.extra, { headers: { 'retry-after': '5' } })
      return true
    },
  )
  assert.throws(
    () => orRefuse(notFound("Rule 'r-1'")),
    (err: unknown) =>
      err instanceof ApiError && err.status === 404 && err.detail === "Rule 'r-1' was not found.",
  )
})

test('a cursor is read below the edge as a value, and refused as 400 at it', () => {
  assert.deepEqual(readCursor(encodeCursor('id-7')), { ok: true, value: 'id-7' })
  assert.deepEqual(readCursor(undefined), { ok: true, value: undefined })
  const bad = readCursor('not-a-cursor')
  assert.equal(bad.ok, false)
  assert.throws(
    () => decodeCursor('not-a-cursor'),
    (err: unknown) =>
      err instanceof ApiError &&
      err.status === 400 &&
      err.code === 'VALIDATION_FAILED' &&
      err.detail === 'cursor is not a cursor this API returned; start again without it.',
  )
})
