import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type PsaSideTicket, psaChange, psaChangeDetail } from '../../src/psa-sync/psa-sync.js'

const ours = (status: 'open' | 'closed' | 'creating' | 'closing', over: { psaDeleted?: boolean } = {}) => ({
  status,
  psaTicketId: '501',
  psaDeleted: over.psaDeleted ?? false,
})
const read = (state: PsaSideTicket['state'], over: Partial<PsaSideTicket> = {}): PsaSideTicket => ({
  state,
  statusName: state === 'closed' ? 'Closed (resolved)' : state === 'open' ? 'New' : null,
  mergedInto: null,
  changedBy: 'jdoe',
  ...over,
})

describe('what changed in the PSA', () => {
  test('closed in the PSA while open here: closed, with the status name', () => {
    assert.deepEqual(psaChange(ours('open'), read('closed')), {
      kind: 'closed',
      statusName: 'Closed (resolved)',
    })
  })

  test('open in the PSA while closed here: reopened', () => {
    assert.deepEqual(psaChange(ours('closed'), read('open')), { kind: 'reopened', statusName: 'New' })
  })

  test('both agree (a repeated push, or alertbridge’s own write): nothing', () => {
    assert.equal(psaChange(ours('open'), read('open')), null)
    assert.equal(psaChange(ours('closed'), read('closed')), null)
  })

  test('merged into another ticket: follow it; merged "into itself" is nothing', () => {
    assert.deepEqual(psaChange(ours('open'), read('merged', { mergedInto: '777' })), {
      kind: 'merged',
      from: '501',
      into: '777',
    })
    assert.equal(psaChange(ours('open'), read('merged', { mergedInto: '501' })), null)
    assert.equal(psaChange(ours('open'), read('merged', { mergedInto: null })), null)
  })

  test('deleted: once, whether open or closed here', () => {
    assert.deepEqual(psaChange(ours('open'), read('deleted')), { kind: 'deleted' })
    assert.deepEqual(psaChange(ours('closed'), read('deleted')), { kind: 'deleted' })
    assert.equal(psaChange(ours('closed', { psaDeleted: true }), read('deleted')), null)
  })

  test('a ticket an alert is creating or closing is left to that alert', () => {
    assert.equal(psaChange(ours('creating'), read('closed')), null)
    assert.equal(psaChange(ours('closing'), read('closed')), null)
  })

  test('a ticket held for an alert’s retried close or reopen is left to that alert until the hold ends', () => {
    const held = { ...ours('open'), psaSyncHoldUntil: '2026-11-27T10:15:00.000Z' }
    assert.equal(psaChange(held, read('closed'), new Date('2026-11-27T10:00:00.000Z')), null)
    assert.deepEqual(psaChange(held, read('closed'), new Date('2026-11-27T10:16:00.000Z'))?.kind, 'closed')
  })

  test('the detail names the PSA, who and the status', () => {
    assert.equal(
      psaChangeDetail({ kind: 'closed', statusName: 'Completed' }, 'Autotask', 'Jane Doe'),
      "The ticket was closed in Autotask by Jane Doe (status 'Completed').",
    )
    assert.match(
      psaChangeDetail({ kind: 'merged', from: '1', into: '2' }, 'HaloPSA', null),
      /later alerts go to ticket 2/,
    )
  })
})
