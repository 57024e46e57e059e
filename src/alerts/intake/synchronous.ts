// The synchronous strategy, the counterpart of the webhook strategy's AlertAcceptor (accept.ts): the
// same intake (the request's own checks, credentials, rate limit, integration), then the executor
// inside one time budget for the whole request (PSA_TIMEOUT_MS × the requests of one operation), with
// the PSA's hiccups tried again inside it where they fit (docs/psa/README.md):
// - a wait the PSA asked for (429 or 503 with Retry-After) is waited when it ends early enough to leave
//   the next try time of its own; otherwise the answer is 502 with a Retry-After saying when to come back;
// - a lost answer (the connection dropped, no answer in time) is tried again at once, twice at most,
//   and that try first looks for what the lost one may have done (a ticket, a note, a close);
// - any other failure (a 5xx, a refusal) is answered as it is (docs/decision-table.md#psa-failed).
// It answers the outcome, or the intake's refusal, as a value; the route maps either to HTTP.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Outcome } from '../../platform/core/outcome.js'
import { ok, type Result } from '../../platform/core/result.js'
import type { PsaFailure } from '../../psa/index.js'
import { operationBudgetMs } from '../../psa/index.js'
import { internalError } from '../domain/outcome.js'
import type { AlertJob, ExecutionPolicy } from '../executor/execution.js'
import type { AlertExecutor } from '../executor/executor.js'
import { type AlertIntake, alertFacts, redactedRequest } from './intake.js'
import type { RateDecision } from './rate-limit.js'
import type { AlertRequest } from './schema.js'

/** A lost answer is tried again this soon, at most this often. */
const lostAnswerPauseMs = 200
const lostAnswerTries = 2

export class SynchronousAlerts {
  constructor(
    private readonly intake: Pick<AlertIntake, 'admit'>,
    private readonly executor: Pick<AlertExecutor, 'run'>,
    /** PSA_TIMEOUT_MS: one PSA request's budget. */
    private readonly requestTimeoutMs: number,
  ) {}

  /** The alert's outcome, recorded, with the vendor's rate decision; or the intake's refusal. */
  async handle(
    body: AlertRequest,
    messageId: string,
  ): Promise<Result<{ outcome: Outcome; rate: RateDecision }>> {
    const facts = alertFacts(body, messageId)
    if (!facts.ok) return facts
    const admitted = await this.intake.admit(body, messageId, facts.value.correlationId ?? null)
    if (!admitted.ok) return admitted
    const { vendor, integration, rate } = admitted.value
    const outcome = await this.run({
      messageId,
      vendorId: vendor.id,
      partnerId: integration.partnerId,
      integrationId: integration.id,
      facts: facts.value,
      request: redactedRequest(body),
    })
    return ok({ outcome, rate })
  }

  /** The alert's outcome, recorded; never a deferral. A test alert (test-alert.ts) runs here too. */
  async run(job: Omit<AlertJob, 'attempt' | 'strategy'>): Promise<Outcome> {
    const execution = await this.executor.run(
      { ...job, strategy: 'sync', attempt: 1 },
      withinBudget({
        deadline: Date.now() + operationBudgetMs(this.requestTimeoutMs),
        requestTimeoutMs: this.requestTimeoutMs,
      }),
    )
    switch (execution.kind) {
      case 'recorded':
      case 'unrecorded':
        return execution.outcome
      // A new messageId has no earlier attempt, and this policy defers nothing; should either happen
      // after all, the vendor is told to try again rather than left without an answer.
      case 'adopted':
      case 'deferred':
        return internalError(job.facts.correlationId ?? null)
    }
  }
}

/**
 * The policy of one synchronous request: retryable failures tried again while they fit before
 * `deadline`, each next try keeping up to one request's time (or half what is left) for itself.
 */
export function withinBudget(o: {
  deadline: number
  requestTimeoutMs: number
  now?: () => number
  sleep?: (ms: number) => Promise<unknown>
}): ExecutionPolicy {
  const now = o.now ?? Date.now
  const wait = o.sleep ?? sleep
  let lost = 0
  return {
    deferRetryable: false,
    adoptRecorded: false,
    deadline: o.deadline,
    again: async (f: PsaFailure) => {
      let waitMs: number
      if (f.throttled) waitMs = Math.max(1000, f.retryAfterMs ?? 0)
      else if ((f.kind === 'unreachable' || f.kind === 'timeout') && lost++ < lostAnswerTries)
        waitMs = lostAnswerPauseMs
      else return false
      const left = o.deadline - now()
      if (waitMs + Math.min(o.requestTimeoutMs, left / 2) > left) return false
      await wait(waitMs)
      return true
    },
  }
}
