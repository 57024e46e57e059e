import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type EffectRow, outcomeOfEffect, retryOf } from '../../src/domain/psa-effect.js'

describe('PSA effects', () => {
  test('an effect stands for the outcome its own attempt would have recorded', () => {
    const expected: Record<EffectRow, [string, number, string]> = {
      '11': ['created', 201, 'Ticket Created'],
      '9': ['updated', 200, 'Ticket Updated'],
      '14': ['updated', 200, 'Ticket Updated'],
      '18': ['closed', 200, 'Ticket Closed'],
      '17': ['failed', 409, 'Ticket Already Closed'],
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
    assert.deepEqual(retryOf('OPEN'), { bySameRequest: ['11', '9'], byCorrelationId: ['11'] })
    // An UPDATE with other text is a new note: only the same request is a retry.
    assert.deepEqual(retryOf('UPDATE'), { bySameRequest: ['14'], byCorrelationId: [] })
    // Any RESOLVED of a ticket whose close was not recorded is that close again.
    assert.deepEqual(retryOf('RESOLVED'), { bySameRequest: ['18', '17'], byCorrelationId: ['18', '17'] })
  })
})
