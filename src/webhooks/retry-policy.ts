// What happens after a webhook delivery attempt: docs/webhooks.md#success, docs/webhooks.md#retry-schedule,
// docs/webhooks.md#retry-after, docs/webhooks.md#gone and docs/webhooks.md#dead. Pure.
import type { OutboundResult } from '../platform/outbound/http.js'
import { parseRetryAfter } from '../platform/outbound/retry-after.js'

/** Delays in seconds after the 1st, 2nd, … failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const defaultRetryScheduleSeconds: readonly number[] = [
  5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
]

/** A Retry-After on 429/503 is never honoured with less than this. */
const retryAfterFloorMs = 60_000

export type AttemptVerdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; delayMs: number; spendsAttempt: boolean; reason: string }
  | { kind: 'dead'; reason: string }
  | { kind: 'disable-endpoint'; reason: string }

export function judgeAttempt(input: {
  result: OutboundResult
  /** failed attempts that counted before this one (0 on the first attempt) */
  failedAttempts: number
  scheduleSeconds: readonly number[]
  /** [0,1) for jitter, injectable */
  random: () => number
  /** for an HTTP-date Retry-After */
  now: Date
  /** A manual replay is one attempt: a failure does not start the schedule again. */
  manual?: boolean
}): AttemptVerdict {
  const { result, failedAttempts, scheduleSeconds } = input
  if (result.kind === 'response') {
    if (result.status >= 200 && result.status < 300) return { kind: 'delivered' }
    if (result.status === 410) return { kind: 'disable-endpoint', reason: 'HTTP 410: the endpoint is gone' }
  } else if (result.error === 'blocked' || result.error === 'invalid_url') {
    return { kind: 'dead', reason: `${describe(result)} (permanent)` }
  }

  const failure = describe(result)
  const scheduledSeconds = scheduleSeconds[failedAttempts]
  if (scheduledSeconds === undefined) {
    return { kind: 'dead', reason: `${failure}; gave up after ${failedAttempts + 1} attempts` }
  }
  const retry = retryVerdict(result, failure, scheduledSeconds * 1000, input)
  return input.manual ? { kind: 'dead', reason: `replay failed: ${retry.reason}` } : retry
}

function retryVerdict(
  result: OutboundResult,
  failure: string,
  scheduledMs: number,
  input: { random: () => number; now: Date },
): Extract<AttemptVerdict, { kind: 'retry' }> {
  if (result.kind === 'response' && (result.status === 429 || result.status === 503)) {
    const retryAfterMs = parseRetryAfter(result.retryAfter, input.now)
    if (retryAfterMs !== null) {
      const clamped = Math.min(Math.max(retryAfterMs, scheduledMs), 2 * scheduledMs)
      const delayMs = Math.max(clamped, retryAfterFloorMs)
      return {
        kind: 'retry',
        delayMs,
        spendsAttempt: false,
        reason: `${failure}, Retry-After ${seconds(retryAfterMs)} s honoured as ${seconds(delayMs)} s`,
      }
    }
  }
  return { kind: 'retry', delayMs: jitter(scheduledMs, input.random), spendsAttempt: true, reason: failure }
}

/** The delay spread by ±20 %: random 0 gives -20 %, random close to 1 gives close to +20 %. */
export function jitter(ms: number, random: () => number): number {
  return Math.round(ms * (1 + (random() * 2 - 1) * 0.2))
}

function describe(result: OutboundResult): string {
  if (result.kind === 'error') {
    return result.error === 'timeout'
      ? `timeout after ${result.durationMs} ms`
      : `${result.error}: ${result.message}`
  }
  if (result.status >= 300 && result.status < 400) return `HTTP ${result.status} (redirects are not followed)`
  return `HTTP ${result.status}`
}

function seconds(ms: number): number {
  return Math.round(ms / 1000)
}
