// The calls every PSA operation takes and what each answers (docs/psa/README.md, "Adapters answer
// with values"): a signal that gives the call up, the alert's correlationId, and a result that is a
// value or the PSA's failure. adapter.ts declares the operations with them; psa-sync-port.ts too.
import type { Kysely } from 'kysely'
import type { Database } from '../platform/db/schema.js'
import type { JobResult } from '../platform/queue/port.js'

/** Every call may be given up: the executor's PSA time budget aborts it rather than racing it. */
export interface PsaCall {
  signal: AbortSignal
  /**
   * Two-way sync's reads, which spend only what alerts leave of the connection's budgets
   * (docs/psa/sync.md#the-poll-and-the-budget): `sync` is refused once the fullest budget is half used;
   * `sync-due` (the poll's first read when it has not heard the PSA for an interval) only where a note
   * would wait (95%). An alert's calls carry none: they go until the budget itself refuses.
   */
  spend?: SyncSpend
}

export type SyncSpend = 'sync' | 'sync-due'

/** A call on behalf of one alert: its correlationId lets an adapter find a ticket a lost answer made. */
export interface TicketCall extends PsaCall {
  correlationId: string
  /**
   * For a kind that answers in this process (the sandbox): the transaction the alert's outcome is
   * being written in. Its rows go in it, so they commit with the outcome, or not at all. A PSA
   * elsewhere never gets one.
   */
  within?: Kysely<Database>
}

/**
 * A note: its text carries `marker` (the alert's messageId), and when an earlier attempt may have
 * written it (a retry after a lost answer), the adapter first looks on the ticket for a note that
 * carries the marker and, finding one, writes nothing.
 */
export interface NoteCall extends TicketCall {
  marker: string
  adopt: boolean
}

/**
 * timeout: no answer in time; unreachable: no connection (DNS, refused, TLS); unavailable: the PSA
 * answered 5xx (or keeps failing); rate-limited: 429 or our own limits; auth: credentials refused (401);
 * forbidden: the API user lacks a permission (403); not-found: 404; rejected: any other refusal;
 * needs-input: the request lacks something only the caller can give (a board for board-scoped lists).
 */
export type PsaFailureKind =
  | 'timeout'
  | 'unreachable'
  | 'unavailable'
  | 'rate-limited'
  | 'rejected'
  | 'auth'
  | 'forbidden'
  | 'not-found'
  | 'needs-input'

export interface PsaFailure {
  kind: PsaFailureKind
  message: string
  /** Worth trying again later (network trouble, 429, 5xx). */
  retryable: boolean
  retryAfterMs?: number
  /**
   * Not a failure but a wait: the PSA asked for `retryAfterMs` (a 429 or 503 with Retry-After), or the
   * connection's own limits hold calls back that long. A queued alert waits without spending one of
   * its attempts; the synchronous strategy waits when the wait fits its budget.
   */
  throttled?: boolean
  status?: number
}

export type PsaResult<T> = { ok: true; value: T } | { ok: false; failure: PsaFailure }

/** What a failed PSA call makes of a job that made it: wait where the PSA asked, retry where it may help. */
export function afterFailure(failure: PsaFailure, what: string): JobResult {
  const reason = `${what}: ${failure.message}`
  if (failure.throttled && failure.retryAfterMs !== undefined)
    return { kind: 'wait', reason, notBeforeMs: failure.retryAfterMs }
  return failure.retryable ? { kind: 'retry', reason } : { kind: 'done' }
}

/**
 * The requests one ticket operation makes at most once a connection's discovery and lists are known
 * (a retried create: the search for its tag and the create; a close: read, note, status). Its budget
 * is that many requests' worth, each request having PSA_TIMEOUT_MS of its own.
 */
export const requestsPerOperation = 3
export const operationBudgetMs = (requestTimeoutMs: number) => requestsPerOperation * requestTimeoutMs
