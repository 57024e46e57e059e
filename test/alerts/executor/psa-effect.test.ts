import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type EffectRow, outcomeOfEffect, retryOf } from '../../../src/alerts/executor/psa-effect.js'

describe('PSA effects', () => {
  test('an effect stands for the outcome its own attempt would have recorded', () => {
    const expected: Record<EffectRow, [string, number, string]> = {
      create: ['created', 201, 'Ticket Created'],
      repeat: ['updated', 200, 'Ticket Updated'],
      update: ['updated', 200, 'Ticket Updated'],
      close: ['closed', 200, 'Ticket Closed'],
      'already-closed': ['failed', 409, 'Ticket Already Closed'],
      'reopen-closed': ['updated', 200, 'Ticket Reopened'],
      'close-left-open': ['updated', 200, 'Ticket Left Open'],
    }
    for (const [row, [message, httpStatus, event]] of Object.entries(expected)) {
      const o = outcomeOfEffect({ row: row as EffectRow, correlationId: 'c-1' })
      assert.equal(o.row, row)
      assert.equal(o.message, message)
      assert.equal(o.httpStatus, httpStatus)
      assert.equal(o.event?.name, event)
      assert.equal(o.correlationId, 'c-1')
    }
  })

  test('which earlier effects an alert may be another attempt of', () => {
    // An OPEN repeats a create or a de-duplicated note; by correlationId only a create.
    assert.deepEqual(retryOf('OPEN'), {
      bySameRequest: ['create', 'repeat', 'reopen-closed'],
      byCorrelationId: ['create'],
    })
    // An UPDATE with other text is a new note: only the same request is a retry (of a note, or of the
    // reopen or new ticket a closed-ticket policy made for it).
    assert.deepEqual(retryOf('UPDATE'), {
      bySameRequest: ['update', 'create', 'reopen-closed'],
      byCorrelationId: [],
    })
    // Any RESOLVED of a ticket whose close was not recorded is that close again.
    assert.deepEqual(retryOf('RESOLVED'), {
      bySameRequest: ['close', 'already-closed', 'close-left-open'],
      byCorrelationId: ['close', 'already-closed'],
    })
  })
})
