// The verdict after each webhook delivery attempt: success, retry (with jitter and Retry-After), dead, disable.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { OutboundErrorKind, OutboundResult } from '../../src/platform/outbound/http.js'
import { parseRetryAfter } from '../../src/platform/outbound/retry-after.js'
import {
  type AttemptVerdict,
  defaultRetryScheduleSeconds,
  jitter,
  judgeAttempt,
} from '../../src/webhooks/retry-policy.js'

const now = new Date('2026-03-01T12:00:00.000Z')
const middle = () => 0.5 // no jitter

const response = (status: number, retryAfter: string | null = null): OutboundResult => ({
  kind: 'response',
  status,
  truncated: false,
  retryAfter,
  headers: {},
  body: '',
  durationMs: 12,
})
const error = (kind: OutboundErrorKind): OutboundResult => ({
  kind: 'error',
  error: kind,
  message: `${kind} happened`,
  durationMs: 15000,
})

const judge = (
  result: OutboundResult,
  failedAttempts = 0,
  over: { scheduleSeconds?: readonly number[]; random?: () => number } = {},
): AttemptVerdict =>
  judgeAttempt({
    result,
    failedAttempts,
    scheduleSeconds: over.scheduleSeconds ?? defaultRetryScheduleSeconds,
    random: over.random ?? middle,
    now,
  })

function retry(v: AttemptVerdict): { delayMs: number; spendsAttempt: boolean; reason: string } {
  assert.equal(v.kind, 'retry', `expected a retry, got ${JSON.stringify(v)}`)
  return v as Extract<AttemptVerdict, { kind: 'retry' }>
}

describe('judgeAttempt', () => {
  test('the default schedule is the published one', () => {
    assert.deepEqual(defaultRetryScheduleSeconds, [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400])
  })

  test('every 2xx is delivered, 199 and 300 are not', () => {
    for (const status of [200, 201, 202, 204, 299])
      assert.deepEqual(judge(response(status)), { kind: 'delivered' })
    assert.equal(judge(response(199)).kind, 'retry')
    assert.equal(judge(response(300)).kind, 'retry')
  })

  test('410 disables the endpoint, even with the schedule exhausted', () => {
    assert.equal(judge(response(410)).kind, 'disable-endpoint')
    assert.equal(judge(response(410), 9).kind, 'disable-endpoint')
  })

  test('a blocked address or an invalid URL is dead at once', () => {
    for (const kind of ['blocked', 'invalid_url'] as const) {
      const v = judge(error(kind))
      assert.equal(v.kind, 'dead')
      assert.match((v as { reason: string }).reason, new RegExp(kind))
    }
  })

  test('an ordinary failure waits the scheduled delay for its attempt and spends it', () => {
    defaultRetryScheduleSeconds.forEach((s, i) => {
      const r = retry(judge(response(500), i))
      assert.equal(r.delayMs, s * 1000)
      assert.equal(r.spendsAttempt, true)
      assert.equal(r.reason, 'HTTP 500')
    })
  })

  test('a failed manual replay is dead at once, with the reason it would have been retried for', () => {
    const manual = (result: OutboundResult) =>
      judgeAttempt({ result, failedAttempts: 0, scheduleSeconds: [5], random: middle, now, manual: true })
    assert.deepEqual(manual(response(500)), { kind: 'dead', reason: 'replay failed: HTTP 500' })
    const deferred = manual(response(503, '120'))
    assert.equal(deferred.kind, 'dead')
    assert.match((deferred as { reason: string }).reason, /^replay failed: HTTP 503, Retry-After 120 s/)
    assert.deepEqual(manual(response(204)), { kind: 'delivered' })
    assert.equal(manual(response(410)).kind, 'disable-endpoint')
  })

  test('other statuses and every network error are ordinary failures', () => {
    for (const status of [301, 400, 401, 404, 500, 502, 504]) {
      const r = retry(judge(response(status), 1))
      assert.deepEqual([r.delayMs, r.spendsAttempt], [300_000, true], `HTTP ${status}`)
      assert.match(r.reason, new RegExp(`HTTP ${status}`))
    }
    for (const kind of ['timeout', 'dns', 'conn', 'tls'] as const) {
      const r = retry(judge(error(kind), 1))
      assert.deepEqual([r.delayMs, r.spendsAttempt], [300_000, true], kind)
    }
    assert.equal(retry(judge(error('timeout'))).reason, 'timeout after 15000 ms')
  })

  test('429 and 503 without Retry-After are ordinary failures', () => {
    for (const status of [429, 503]) {
      const r = retry(judge(response(status), 2))
      assert.deepEqual([r.delayMs, r.spendsAttempt], [1_800_000, true])
    }
  })

  test('an unparsable Retry-After is ignored', () => {
    const r = retry(judge(response(429, 'soon'), 2))
    assert.deepEqual([r.delayMs, r.spendsAttempt], [1_800_000, true])
  })

  test('Retry-After within [scheduled, 2x scheduled] is honoured exactly, without spending an attempt', () => {
    for (const status of [429, 503]) {
      const r = retry(judge(response(status, '400'), 1, { random: () => 0 }))
      assert.deepEqual([r.delayMs, r.spendsAttempt], [400_000, false])
      assert.match(r.reason, /Retry-After 400 s honoured/)
    }
  })

  test('Retry-After shorter than the scheduled delay is raised to it', () => {
    assert.equal(retry(judge(response(429, '120'), 1)).delayMs, 300_000)
  })

  test('Retry-After longer than twice the scheduled delay is cut to twice', () => {
    assert.equal(retry(judge(response(503, '100000'), 1)).delayMs, 600_000)
  })

  test('an honoured Retry-After is never under 60 s', () => {
    // scheduled 5 s, so the clamp gives at most 10 s; the floor lifts it.
    const r = retry(judge(response(429, '0'), 0))
    assert.deepEqual([r.delayMs, r.spendsAttempt], [60_000, false])
    assert.equal(retry(judge(response(429, '30'), 0)).delayMs, 60_000)
  })

  test('Retry-After as an HTTP-date counts from now', () => {
    const in45min = new Date(now.getTime() + 45 * 60_000).toUTCString()
    assert.equal(retry(judge(response(503, in45min), 2)).delayMs, 2_700_000)
  })

  test('after the last scheduled retry a failure is dead', () => {
    const n = defaultRetryScheduleSeconds.length
    const v = judge(response(500), n)
    assert.equal(v.kind, 'dead')
    assert.match((v as { reason: string }).reason, /^HTTP 500; gave up after 10 attempts$/)
    assert.equal(judge(error('timeout'), n).kind, 'dead')
  })

  test('a rate-limit deferral does not keep an exhausted delivery alive', () => {
    assert.equal(judge(response(429, '120'), defaultRetryScheduleSeconds.length).kind, 'dead')
  })

  test('a short test schedule [1, 2] retries twice, then gives up', () => {
    const scheduleSeconds = [1, 2]
    assert.equal(retry(judge(response(500), 0, { scheduleSeconds })).delayMs, 1000)
    assert.equal(retry(judge(response(500), 1, { scheduleSeconds })).delayMs, 2000)
    const v = judge(response(500), 2, { scheduleSeconds })
    assert.deepEqual(v, { kind: 'dead', reason: 'HTTP 500; gave up after 3 attempts' })
  })

  test('an empty schedule gives up after the first failure', () => {
    assert.equal(judge(response(500), 0, { scheduleSeconds: [] }).kind, 'dead')
  })

  test('the scheduled delay carries jitter', () => {
    assert.equal(retry(judge(response(500), 1, { random: () => 0 })).delayMs, 240_000)
    assert.equal(retry(judge(response(500), 1, { random: () => 0.999999 })).delayMs, 360_000)
  })
})

describe('jitter', () => {
  test('random 0 is -20 %, 0.5 is none, random towards 1 approaches +20 %', () => {
    const fixed = (r: number) => () => r
    assert.equal(jitter(10_000, fixed(0)), 8_000)
    assert.equal(jitter(10_000, fixed(0.5)), 10_000)
    assert.equal(jitter(10_000, fixed(0.99999)), 12_000)
  })

  test('always stays within ±20 %', () => {
    for (let i = 0; i < 1000; i++) {
      const d = jitter(300_000, Math.random)
      assert.ok(d >= 240_000 && d <= 360_000, String(d))
    }
  })
})

describe('parseRetryAfter', () => {
  test('delta-seconds', () => {
    assert.equal(parseRetryAfter('120', now), 120_000)
    assert.equal(parseRetryAfter(' 0 ', now), 0)
  })

  test('the three HTTP-date forms', () => {
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 12:02:00 GMT', now), 120_000)
    assert.equal(parseRetryAfter('Sunday, 01-Mar-26 12:02:00 GMT', now), 120_000)
    assert.equal(parseRetryAfter('Sun Mar  1 12:02:00 2026', now), 120_000)
  })

  test('a date in the past is 0, never negative', () => {
    assert.equal(parseRetryAfter('Sat, 28 Feb 2026 12:00:00 GMT', now), 0)
  })

  test('absent or invalid is null', () => {
    for (const v of [null, '', 'soon', '-5', '1.5', '12abc', 'Sun, 99 Foo 2026 nonsense']) {
      assert.equal(parseRetryAfter(v, now), null, String(v))
    }
  })
})
