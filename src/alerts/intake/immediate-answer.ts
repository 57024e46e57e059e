// What the webhook strategy answers at once, before the queued job runs the decision for real
// (docs/decisions/webhook-strategy/immediate-answer-is-a-preview.md): the PSA is not called, so a
// create, append or close is answered as if it will work.

import type { Outcome } from '../../platform/core/outcome.js'
import type { Decision } from '../domain/decide.js'

export interface ImmediateAnswer {
  message: Outcome['message']
  httpStatus: 200 | 201
  correlationId: string | null
  error: Outcome['error']
  detail: string | null
}

export function immediateAnswer(decision: Decision): ImmediateAnswer {
  const answer = (message: Outcome['message'], correlationId: string | null): ImmediateAnswer => ({
    message,
    httpStatus: message === 'created' ? 201 : 200,
    correlationId,
    error: null,
    detail: null,
  })
  switch (decision.kind) {
    case 'create':
      return answer('created', decision.correlationId)
    case 'append':
    case 'reopen':
      return answer('updated', decision.ticket.correlationId)
    case 'close':
      return answer('closed', decision.ticket.correlationId)
    // Storm control: answered 200 updated with the storm ticket's correlationId (closed: the RESOLVED of
    // its last open incident, self-healing on); a new storm ticket's is the decision's (the webhook
    // strategy fixes it for the queued job).
    case 'storm':
      return answer(
        decision.step === 'follow-up' && decision.closes ? 'closed' : 'updated',
        decision.ticket?.correlationId ?? (decision.step === 'open' ? decision.correlationId : null),
      )
    case 'done': {
      const o = decision.outcome
      return { ...answer(o.message, o.correlationId), error: o.error, detail: o.detail }
    }
  }
}

/**
 * The preview of an UPDATE or RESOLVED whose ticket is not stored yet because the OPEN that will create
 * it is still queued (docs/decisions/webhook-strategy/immediate-answer-is-a-preview.md): once the OPEN
 * has run, the alert appends (UPDATE) or closes (RESOLVED; suppressed with self-healing off), so that is
 * what the preview says instead of TICKET_NOT_FOUND. Any other answer is kept.
 */
export function afterQueuedOpen(
  answer: ImmediateAnswer,
  alert: { incidentStatus: 'OPEN' | 'UPDATE' | 'RESOLVED'; correlationId: string },
  selfHealing: boolean,
): ImmediateAnswer {
  if (answer.error !== 'TICKET_NOT_FOUND' || alert.incidentStatus === 'OPEN') return answer
  const message = alert.incidentStatus === 'UPDATE' ? 'updated' : selfHealing ? 'closed' : 'suppressed'
  return { message, httpStatus: 200, correlationId: alert.correlationId, error: null, detail: null }
}
