// What an alert call ends in: the row of docs/decision-table.md that applied, the contract's message, the
// HTTP status of the synchronous strategy and the audit event to record. Pure constructors only.
import { type ErrorCode, httpStatusOf } from '../../platform/core/errors.js'
import type { EventName, Outcome, OutcomeMessage, RowId } from '../../platform/core/outcome.js'

export function rejected(
  row: RowId,
  error: ErrorCode,
  detail: string,
  eventName: EventName | null,
  correlationId: string | null,
): Outcome {
  return {
    row,
    message: 'failed',
    httpStatus: httpStatusOf(error),
    event: eventName ? { name: eventName, status: 'failed' } : null,
    error,
    detail,
    correlationId,
  }
}

export function suppressed(
  row: RowId,
  eventName: EventName,
  detail: string,
  correlationId: string | null,
): Outcome {
  return {
    row,
    message: 'suppressed',
    httpStatus: 200,
    event: { name: eventName, status: 'suppressed' },
    error: null,
    detail,
    correlationId,
  }
}

const success = (
  row: RowId,
  message: OutcomeMessage,
  httpStatus: number,
  name: EventName,
  correlationId: string,
): Outcome => ({
  row,
  message,
  httpStatus,
  event: { name, status: 'success' },
  error: null,
  detail: null,
  correlationId,
})

export const created = (correlationId: string): Outcome =>
  success('create', 'created', 201, 'Ticket Created', correlationId)
export const updated = (row: 'repeat' | 'update', correlationId: string): Outcome =>
  success(row, 'updated', 200, 'Ticket Updated', correlationId)
export const closed = (correlationId: string): Outcome =>
  success('close', 'closed', 200, 'Ticket Closed', correlationId)

/** Closed-ticket policy `reopen`: the closed ticket is open again with the alert as a note. */
export const reopened = (correlationId: string): Outcome => ({
  ...success('reopen-closed', 'updated', 200, 'Ticket Reopened', correlationId),
  detail: 'The ticket was closed; the closed-ticket policy reopened it with the alert as a note.',
})

/** Closed-ticket policy `new`: a new ticket (its own correlationId) that links the closed one. */
export const replaced = (correlationId: string, closedCorrelationId: string): Outcome => ({
  ...success('replace-closed', 'created', 201, 'Ticket Created', correlationId),
  detail: `The ticket of correlationId '${closedCorrelationId}' is closed; the closed-ticket policy opened this new ticket, which links it.`,
})

/** closeOnlyUntouched: a technician has worked the ticket, so RESOLVED adds a note and leaves it open. */
export const leftOpen = (correlationId: string): Outcome => ({
  ...success('close-left-open', 'updated', 200, 'Ticket Left Open', correlationId),
  detail:
    'A technician has worked this ticket, so it was left open with a note that the vendor reports the problem resolved (closeOnlyUntouched).',
})

export function alreadyClosed(correlationId: string, where: 'here' | 'psa'): Outcome {
  const detail =
    where === 'psa'
      ? 'The ticket was already closed in the PSA; it is now marked closed here too.'
      : 'The ticket is already closed.'
  return rejected('already-closed', 'TICKET_CLOSED', detail, 'Ticket Already Closed', correlationId)
}

export type PsaOperation = 'create' | 'update' | 'close'

const failureEvent: Record<PsaOperation, EventName> = {
  create: 'Failed To Create Ticket',
  update: 'Failed To Update Ticket',
  close: 'Failed To Close Ticket',
}

/** Row 19; `retryAfterMs`: the PSA asked to wait that long, which the vendor is told (Retry-After). */
export function psaFailed(
  operation: PsaOperation,
  detail: string,
  correlationId: string | null,
  retryAfterMs?: number,
): Outcome {
  const outcome = rejected('psa-failed', 'PSA_ERROR', detail, failureEvent[operation], correlationId)
  return retryAfterMs === undefined
    ? outcome
    : { ...outcome, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
}

export function internalError(correlationId: string | null): Outcome {
  return rejected(
    'internal-error',
    'INTERNAL',
    'An unexpected error occurred; quote the messageId to support.',
    'Internal Error',
    correlationId,
  )
}
