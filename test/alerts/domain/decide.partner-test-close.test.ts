// The partner's test close (docs/decision-table.md#partner-test-close): a partner's test RESOLVED closes
// the test ticket whatever self-healing and the rule's suppressed statuses say; every other alert, the
// vendor's test alerts and a partner's test UPDATE among them, is decided as before.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { decide } from '../../../src/alerts/domain/decide.js'
import type { AlertFacts } from '../../../src/platform/core/types.js'
import { ctx, rule, settings, ticket } from '../../support/decision.js'

const resolved: Partial<AlertFacts> = { incidentStatus: 'RESOLVED', correlationId: 'cid-1', test: true }
const partnerTest: Partial<AlertFacts> = { ...resolved, partnerTest: true }

describe('partner-test-close', () => {
  test('self-healing off: a partner test RESOLVED still closes; a vendor test one is suppressed', () => {
    const over = { ticket: ticket(), integration: settings({ selfHealing: false }) }
    const d = decide(ctx(partnerTest, over))
    assert.equal(d.kind, 'close')
    const vendor = decide(ctx(resolved, over))
    assert.equal(vendor.kind === 'done' && vendor.outcome.row, 'self-healing-off')
  })

  test('the rule suppresses RESOLVED: a partner test RESOLVED still closes; others are suppressed', () => {
    const over = { ticket: ticket(), rules: [rule({ suppressStatuses: ['RESOLVED', 'UPDATE'] })] }
    assert.equal(decide(ctx(partnerTest, over)).kind, 'close')
    const vendor = decide(ctx(resolved, over))
    assert.equal(vendor.kind === 'done' && vendor.outcome.row, 'status-suppressed')
    const update = decide(ctx({ ...partnerTest, incidentStatus: 'UPDATE' }, over))
    assert.equal(update.kind === 'done' && update.outcome.row, 'status-suppressed')
  })

  test('a closed test ticket is already closed (409); an inactive integration still refuses first', () => {
    const closed = decide(ctx(partnerTest, { ticket: ticket({ status: 'closed' }) }))
    assert.equal(closed.kind === 'done' && closed.outcome.row, 'already-closed')
    const off = decide(
      ctx(partnerTest, { ticket: ticket(), integration: settings({ alertsEnabled: false }) }),
    )
    assert.equal(off.kind === 'done' && off.outcome.row, 'integration-not-active')
  })
})
