// Near a PSA's request limit (docs/psa/README.md, "Near the limit"): from 80% of the fullest budget an
// ordinary ticket's notes are batched, from 95% a batched note waits; the answer says why.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  batchedNote,
  batchedUpdate,
  batchesNote,
  noteWaits,
} from '../../../src/alerts/domain/note-batching.js'

test('notes are batched from 80% of the budget and wait from 95%', () => {
  assert.deepEqual(
    [0, 0.79, 0.8, 0.94, 0.95, 1].map((share) => [batchesNote(share), noteWaits(share)]),
    [
      [false, false],
      [false, false],
      [true, false],
      [true, false],
      [true, true],
      [true, true],
    ],
  )
})

test('a batched UPDATE is answered updated, and the audit trail says why the note waits', () => {
  const o = batchedUpdate('update', 'inc-1')
  assert.deepEqual([o.httpStatus, o.message, o.row, o.correlationId], [200, 'updated', 'update', 'inc-1'])
  assert.deepEqual(o.event, { name: 'Ticket Updated', status: 'success' })
  assert.match(o.detail ?? '', /request budget is nearly spent/)
})

test('a batched note lists the notes oldest first, and counts them', () => {
  assert.match(batchedNote(['one']), /^1 update arrived/)
  const text = batchedNote(['first', 'second'])
  assert.match(text, /^2 updates arrived[\s\S]*first[\s\S]*second$/)
})
