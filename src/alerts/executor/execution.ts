// What the executor is given and what it answers. The executor carries one alert through the decision
// table and the PSA and records the outcome; the caller (the synchronous route, or the queued alert's
// job) decides what its strategy does with the answer: an HTTP response, or done / try again later.

import type { Outcome } from '../../platform/core/outcome.js'
import type { AlertFacts } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { PsaFailure, PsaResult } from '../../psa/index.js'
import type { Strategy } from '../../webhooks/index.js'

export interface AlertJob {
  messageId: string
  strategy: Strategy
  vendorId: string
  partnerId: string
  integrationId: string
  facts: AlertFacts
  /** This attempt's number, from 1 (the synchronous strategy has one). */
  attempt: number
  /** The request as received, credentials removed, for the audit log. */
  request: unknown
  /** The correlationId a new ticket gets if the vendor sent none; the webhook strategy fixes it when it
   * answers, so the ticket gets the id the vendor was told. A fresh one otherwise. */
  newCorrelationId?: string
  /**
   * A queued alert's job removes itself in the transaction that records the outcome: one commit for
   * both (docs/performance.md#statements-per-alert). Absent for the synchronous strategy.
   */
  finishIn?: (tx: Store) => Promise<void>
}

export interface ExecutionPolicy {
  /** A retryable PSA failure (timeout, 429, 5xx) is handed back as `deferred` instead of recorded. */
  deferRetryable: boolean
  /** A wait the PSA asked for (PsaFailure.throttled) is handed back as `deferred` even where
   * deferRetryable is off: waiting spends none of a queued alert's attempts. */
  deferThrottled?: boolean
  /** An earlier attempt of this message may have recorded its outcome: look before doing anything. */
  adoptRecorded: boolean
  /**
   * Tries a retryable failure again inside this execution (the synchronous strategy): answers true
   * once it has waited what the failure asks, false when the wait does not fit. The next call then
   * adopts what a lost answer may have done.
   */
  again?: (failure: PsaFailure) => Promise<boolean>
  /** No PSA call runs past this time (ms since the epoch): the synchronous strategy's budget. */
  deadline?: number
}

/**
 * recorded: the outcome and its event are stored (`notified`: a status_update was put in the outbox
 * with them; `finished`: the job's finishIn ran in the same transaction); adopted: an earlier attempt of this messageId had already recorded it, nothing was done;
 * deferred: a retryable PSA failure, nothing recorded; unrecorded: something failed unexpectedly and
 * not even that could be recorded (`outcome` is the internal error to answer with).
 */
export type Execution =
  | { kind: 'recorded'; outcome: Outcome; notified: boolean; finished: boolean }
  | { kind: 'adopted' }
  | { kind: 'deferred'; failure: PsaFailure }
  | { kind: 'unrecorded'; outcome: Outcome }

/** A retryable PSA failure the policy hands back to the caller instead of recording it; else null. */
export function deferral(result: PsaResult<unknown>, policy: ExecutionPolicy): Execution | null {
  if (result.ok || !result.failure.retryable) return null
  const defer = policy.deferRetryable || (policy.deferThrottled === true && result.failure.throttled === true)
  return defer ? { kind: 'deferred', failure: result.failure } : null
}
