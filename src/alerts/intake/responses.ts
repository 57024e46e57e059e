// The wire shapes of alert answers, exactly as docs/contract.md#sync-answers (sync) and
// docs/contract.md#webhook-answers (webhook strategy) record them, odd spellings included: `correlationID`
// in sync shapes, `correlationId` in webhook shapes, statusCode 201 for suppressed and updated, the string
// "200" for closed.
import type { FastifyReply } from 'fastify'
import type { Outcome, OutcomeMessage } from '../../platform/core/outcome.js'
import type { FailureRenderer } from '../../platform/http/error-handler.js'
import { type RateDecision, rateLimitHeaders } from './rate-limit.js'
import { SyncFailure, SynchronousSuccess } from './schema.js'

export interface AlertAnswer {
  message: OutcomeMessage
  httpStatus: number
  error: string | null
  detail: string | null
  correlationId: string | null
}

export type SynchronousBody =
  | {
      statusCode: number | string
      message: Exclude<OutcomeMessage, 'failed'>
      data: { messageId: string; correlationID: string | null }
      warnings?: string[]
    }
  | {
      statusCode: number
      message: 'failed'
      data: { messageId: string; correlationID: string | null }
      error: string
      detail: string
      requestId: string
      warnings?: string[]
    }

/** Every status a synchronous answer has, as its response schemas declare them. */
const synchronousFailureStatuses = [400, 401, 403, 404, 409, 413, 415, 429, 500, 502] as const
export type SynchronousStatus = 200 | 201 | (typeof synchronousFailureStatuses)[number]

/** The outcome's HTTP status among the declared ones (an undeclared one would be a defect: 500). */
export function synchronousStatus(status: number): SynchronousStatus {
  return isSynchronousStatus(status) ? status : 500
}

const declared: readonly number[] = [200, 201, ...synchronousFailureStatuses]
const isSynchronousStatus = (status: number): status is SynchronousStatus => declared.includes(status)

/** The `warnings` of an answer (misplaced.ts): none, or the field absent. */
const withWarnings = (warnings: readonly string[]) => (warnings.length > 0 ? { warnings: [...warnings] } : {})

export function synchronousBody(
  a: AlertAnswer,
  messageId: string,
  requestId: string,
  warnings: readonly string[] = [],
): SynchronousBody {
  const data = { messageId, correlationID: a.correlationId }
  switch (a.message) {
    case 'created':
    case 'suppressed':
    case 'updated':
      return { statusCode: 201, message: a.message, data, ...withWarnings(warnings) }
    case 'closed':
      return { statusCode: '200', message: 'closed', data, ...withWarnings(warnings) }
    case 'failed':
      return {
        statusCode: a.httpStatus,
        message: 'failed',
        data,
        error: a.error ?? 'INTERNAL',
        detail: a.detail ?? 'The alert failed.',
        requestId,
        ...withWarnings(warnings),
      }
  }
}

/** docs/contract.md#webhook-answers: `message` and `data` {messageId, correlationId}; no statusCode on an
 * accepted alert. A failure known at once (HTTP 200 in this strategy) adds `error` and `detail`. */
export type WebhookBody =
  | {
      message: OutcomeMessage
      data: { messageId: string; correlationId: string | null }
      warnings?: string[]
    }
  | {
      message: 'failed'
      data: { messageId: string; correlationId: string | null }
      error: string
      detail: string
      warnings?: string[]
    }

export function webhookBody(
  a: AlertAnswer,
  messageId: string,
  warnings: readonly string[] = [],
): WebhookBody {
  const data = { messageId, correlationId: a.correlationId }
  if (a.message !== 'failed') return { message: a.message, data, ...withWarnings(warnings) }
  return {
    message: 'failed',
    data,
    error: a.error ?? 'INTERNAL',
    detail: a.detail ?? 'The alert failed.',
    ...withWarnings(warnings),
  }
}

/** How the alert routes render a refusal (their `config.failureShape`): the strategy's `data` block added. */
export const alertFailureRenderers: Record<'sync' | 'webhook', FailureRenderer> = {
  sync: (f) =>
    synchronousBody(
      {
        message: 'failed',
        httpStatus: f.status,
        error: f.code,
        detail: f.detail,
        correlationId: f.correlationId,
      },
      f.messageId,
      f.requestId,
    ),
  webhook: (f) => ({
    statusCode: f.status,
    message: 'failed',
    data: { messageId: f.messageId, correlationId: f.correlationId },
    error: f.code,
    detail: f.detail,
    requestId: f.requestId,
  }),
}

/** The synchronous answer's statuses and bodies, as the OpenAPI document lists them. */
export const synchronousResponses = {
  200: SynchronousSuccess,
  201: SynchronousSuccess,
  400: SyncFailure,
  401: SyncFailure,
  403: SyncFailure,
  404: SyncFailure,
  409: SyncFailure,
  413: SyncFailure,
  415: SyncFailure,
  429: SyncFailure,
  500: SyncFailure,
  502: SyncFailure,
}

/**
 * Sends an alert's outcome as the synchronous strategy answers it (docs/contract.md#sync-answers): its
 * status and body, the rate-limit headers and, where the PSA asked to wait longer than the request
 * could, Retry-After saying when to send the alert again.
 */
export function sendSynchronousAnswer(
  reply: FastifyReply,
  outcome: Outcome,
  rate: RateDecision,
  messageId: string,
  requestId: string,
  warnings: readonly string[] = [],
): FastifyReply {
  if (outcome.retryAfterSeconds !== undefined) reply.header('retry-after', String(outcome.retryAfterSeconds))
  return reply
    .headers(rateLimitHeaders(rate))
    .code(synchronousStatus(outcome.httpStatus))
    .send(synchronousBody(outcome, messageId, requestId, warnings))
}
