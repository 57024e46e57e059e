// Exact wire shapes of the contract (docs/contract.md#sync-answers), asserted key by key.
import assert from 'node:assert/strict'
import type { Response } from './service.js'

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function expectSyncSuccess(
  res: Response,
  expected: {
    status: number
    message: 'created' | 'suppressed' | 'updated' | 'closed'
    correlationId?: string
  },
): { messageId: string; correlationId: string } {
  assert.equal(res.status, expected.status, res.text)
  assert.deepEqual(Object.keys(res.body), ['statusCode', 'message', 'data'], res.text)
  if (expected.message === 'closed') assert.strictEqual(res.body.statusCode, '200')
  else assert.strictEqual(res.body.statusCode, 201)
  assert.equal(res.body.message, expected.message)
  assert.deepEqual(Object.keys(res.body.data), ['messageId', 'correlationID'])
  assert.match(res.body.data.messageId, uuid)
  assert.equal(typeof res.body.data.correlationID, 'string')
  if (expected.correlationId) assert.equal(res.body.data.correlationID, expected.correlationId)
  return { messageId: res.body.data.messageId, correlationId: res.body.data.correlationID }
}

export function expectSyncFailure(
  res: Response,
  expected: { status: number; error: string; correlationId?: string | null },
): { messageId: string } {
  assert.equal(res.status, expected.status, res.text)
  assert.deepEqual(
    Object.keys(res.body),
    ['statusCode', 'message', 'data', 'error', 'detail', 'requestId'],
    res.text,
  )
  assert.strictEqual(res.body.statusCode, expected.status)
  assert.equal(res.body.message, 'failed')
  assert.equal(res.body.error, expected.error, res.text)
  assert.equal(typeof res.body.detail, 'string')
  assert.ok(res.body.detail.length > 10, 'detail says what to fix')
  assert.deepEqual(Object.keys(res.body.data), ['messageId', 'correlationID'])
  assert.match(res.body.data.messageId, uuid)
  if (expected.correlationId !== undefined) assert.equal(res.body.data.correlationID, expected.correlationId)
  assert.equal(res.headers.get('x-request-id'), res.body.requestId)
  return { messageId: res.body.data.messageId }
}

/** The generic error envelope of the non-alert APIs. */
export function expectFailure(res: Response, status: number, error: string): void {
  assert.equal(res.status, status, res.text)
  assert.equal(res.body.statusCode, status)
  assert.equal(res.body.message, 'failed')
  assert.equal(res.body.error, error, res.text)
  assert.equal(typeof res.body.detail, 'string')
  assert.equal(typeof res.body.requestId, 'string')
}
