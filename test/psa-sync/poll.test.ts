// When the reconciliation poll's next round comes (src/psa-sync/poll.ts nextRoundInMs): pure, by case.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { nextRoundInMs } from '../../src/psa-sync/poll.js'

const intervalMs = 60_000
const now = 1_000_000
const reason = 'two-way sync leaves the rest of the budget to alerts (50% used)'

describe('the poll: when the next round comes', () => {
  test('every due ticket read: one interval on; a full page: a tenth of it', () => {
    assert.equal(nextRoundInMs({ kind: 'read', full: false }, { intervalMs, lastHeard: now, now }), 60_000)
    assert.equal(nextRoundInMs({ kind: 'read', full: true }, { intervalMs, lastHeard: now, now }), 6_000)
  })

  test('held back by the budget: when it frees room, but never later than an interval after last heard', () => {
    assert.equal(
      nextRoundInMs({ kind: 'held', waitMs: 20_000, reason }, { intervalMs, lastHeard: now, now }),
      20_000,
    )
    // An hourly budget frees room in 50 minutes: the round comes when the poll is due to be heard.
    const heardAgo = 45_000
    assert.equal(
      nextRoundInMs(
        { kind: 'held', waitMs: 3_000_000, reason },
        { intervalMs, lastHeard: now - heardAgo, now },
      ),
      15_000,
    )
  })

  test('a failure that may pass: its Retry-After, else 30 s; one that will not: an interval; never sooner than 1 s', () => {
    const failure = { kind: 'unavailable' as const, retryable: true, message: '503' }
    assert.equal(nextRoundInMs({ kind: 'failed', failure }, { intervalMs, lastHeard: now, now }), 30_000)
    assert.equal(
      nextRoundInMs(
        { kind: 'failed', failure: { ...failure, retryAfterMs: 5_000 } },
        { intervalMs, lastHeard: now, now },
      ),
      5_000,
    )
    const refused = { kind: 'auth' as const, retryable: false, message: '401' }
    assert.equal(
      nextRoundInMs({ kind: 'failed', failure: refused }, { intervalMs, lastHeard: now, now }),
      60_000,
    )
    // A failing PSA is not asked again sooner for having been silent.
    assert.equal(
      nextRoundInMs({ kind: 'failed', failure: refused }, { intervalMs, lastHeard: now - 120_000, now }),
      60_000,
    )
  })

  test('overdue (the budget left no room for the due read): a round every tenth of the interval', () => {
    assert.equal(
      nextRoundInMs({ kind: 'held', waitMs: 40_000, reason }, { intervalMs, lastHeard: now - 120_000, now }),
      6_000,
    )
    assert.equal(
      nextRoundInMs({ kind: 'read', full: false }, { intervalMs, lastHeard: now - 120_000, now }),
      6_000,
    )
  })
})
