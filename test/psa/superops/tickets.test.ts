// Which SuperOps statuses count as closed (src/psa/superops/tickets.ts): learned from the tenant's own
// tickets — a status closes when every listed ticket with it has a resolution time — never from a
// status's name; and a ticket is closed by its resolution time or a status of the closed set.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { closedStatusesOf, isClosed } from '../../../src/psa/superops/tickets.js'

const t = (status: string, resolved: boolean) => ({
  ticketId: '1',
  status,
  resolutionTime: resolved ? '2026-12-01T10:00:00' : null,
})

describe('SuperOps closed statuses', () => {
  test('a status closes when every ticket with it has a resolution time, the most used first', () => {
    const tickets = [
      t('Resolved', true),
      t('Closed', true),
      t('Closed', true),
      t('Closure Requested', false),
      t('Abandoned', true),
      t('Abandoned', false),
      t('Open', false),
    ]
    assert.deepEqual(closedStatusesOf(tickets), ['Closed', 'Resolved'])
  })

  test('names never decide: a tenant whose "Closed" is open and whose "Done" closes', () => {
    assert.deepEqual(closedStatusesOf([t('Closed', false), t('Done', true)]), ['Done'])
    assert.deepEqual(closedStatusesOf([]), [])
  })

  test('closed: a resolution time, or a status of the set (case and spacing aside)', () => {
    assert.equal(isClosed(t('Whatever', true), []), true)
    assert.equal(isClosed(t('closed ', false), ['Closed']), true)
    assert.equal(isClosed(t('Closure Requested', false), ['Closed']), false)
  })
})
