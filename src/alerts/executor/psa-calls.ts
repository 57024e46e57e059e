// The executor's way to a partner's PSA: the partner's connection bound to its kind's adapter, and
// every call given the PSA time budget as an AbortSignal, so a call that runs out of time is aborted,
// not left running behind a timer (a create that went on after we gave up could make a ticket that a
// retry then makes again). A connection that cannot be used answers every call with its failure.

import type { Outcome } from '../../platform/core/outcome.js'
import type { Store } from '../../platform/db/store.js'
import type { PsaKind, PsaRegistry, TicketDefaultsValue } from '../../psa/index.js'
import {
  givenUp,
  operationBudgetMs,
  type PsaFailure,
  type PsaOperations,
  type PsaResult,
  type TicketCall,
} from '../../psa/index.js'
import { type PsaOperation, psaFailed } from '../domain/outcome.js'
import type { ExecutionPolicy } from './execution.js'

/** One partner's PSA, ready for the calls of one alert. */
export interface OpenPsa {
  kind: PsaKind
  defaults: TicketDefaultsValue
  /** One operation within its budget; `deadline` (ms since the epoch) shortens it where it comes first. */
  call<T>(
    correlationId: string,
    op: (client: PsaOperations, call: TicketCall) => Promise<PsaResult<T>>,
    deadline?: number,
  ): Promise<PsaResult<T>>
  /** How full the connection's fullest request budget is, 0 to 1 (0 where the PSA counts nothing). */
  share(): Promise<number>
}

/** How long after its budget an adapter that ignores the abort is waited for. */
const abandonAfterMs = 1000

export class PsaCalls {
  constructor(
    private readonly deps: {
      store: Store
      psa: PsaRegistry
      /** The budget of one PSA request (PSA_TIMEOUT_MS); one operation gets `requestsPerOperation` of them. */
      timeoutMs: number
    },
  ) {}

  async open(partnerId: string): Promise<OpenPsa> {
    const partner = await this.deps.store.partners.findById(partnerId)
    if (!partner) throw new Error(`partner ${partnerId} has no PSA connection`)
    const connected = this.deps.psa.connect(partner.id, partner.psa)
    const budgetMs = operationBudgetMs(this.deps.timeoutMs)
    return {
      kind: partner.psa.kind,
      defaults: connected.ok ? connected.defaults : {},
      share: async () => (connected.ok ? ((await connected.client.budgetShare?.()) ?? 0) : 0),
      async call(correlationId, op, deadline) {
        if (!connected.ok) return { ok: false, failure: connected.failure }
        const timeoutMs = Math.max(0, Math.min(budgetMs, (deadline ?? Number.POSITIVE_INFINITY) - Date.now()))
        // Timers of our own (not AbortSignal.timeout, whose timer does not keep the process alive).
        // The budget aborts the call; an adapter that does not stop within the grace after that is
        // answered for, so the caller's wait is bounded (and a job never outlives its lease).
        const budget = new AbortController()
        let grace: NodeJS.Timeout | undefined
        const timer = setTimeout(() => {
          budget.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'))
        }, timeoutMs)
        const abandoned = new Promise<PsaResult<never>>((resolve) => {
          grace = setTimeout(
            () => resolve({ ok: false, failure: givenUp(budget.signal) }),
            timeoutMs + abandonAfterMs,
          )
        })
        try {
          return await Promise.race([
            op(connected.client, { signal: budget.signal, correlationId }),
            abandoned,
          ])
        } finally {
          clearTimeout(timer)
          clearTimeout(grace)
        }
      },
    }
  }
}

/**
 * One PSA operation, tried again inside the execution while the policy says so (the synchronous
 * strategy, when a wait or a lost answer fits its budget). `again` is set on those later tries: the
 * operation then looks for what an earlier try may have done before doing it.
 */
export async function callPsa<T>(
  psa: OpenPsa,
  correlationId: string,
  policy: ExecutionPolicy,
  op: (client: PsaOperations, call: TicketCall, again: boolean) => Promise<PsaResult<T>>,
): Promise<PsaResult<T>> {
  let result = await psa.call(correlationId, (client, call) => op(client, call, false), policy.deadline)
  while (!result.ok && result.failure.retryable && policy.again && (await policy.again(result.failure)))
    result = await psa.call(correlationId, (client, call) => op(client, call, true), policy.deadline)
  return result
}

/** The psa-failed outcome of a failure; a wait the PSA asked for becomes the answer's Retry-After. */
export function failedCall(op: PsaOperation, failure: PsaFailure, correlationId: string | null): Outcome {
  const wait = failure.throttled ? failure.retryAfterMs : undefined
  return psaFailed(op, describe(op, failure), correlationId, wait)
}

/** The sentence a PSA failure becomes in the answer and the event. */
export function describe(op: PsaOperation, f: PsaFailure): string {
  const verb = { create: 'create the ticket', update: 'update the ticket', close: 'close the ticket' }[op]
  return `The PSA failed to ${verb}: ${f.message}${f.status ? ` (HTTP ${f.status})` : ''}.`
}
