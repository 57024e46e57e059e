// What every response of the OpenAPI document says (docs/vendor-api.md#openapi-document): a description
// per status, naming the error codes that status carries (src/platform/core/errors.ts, the one list), and the
// headers: x-request-id on every answer, Retry-After where a retry is asked for, Idempotent-Replayed
// where an Idempotency-Key is taken, the rate-limit headers on the alert calls.
import { errorCodes, httpStatusOf } from '../../core/errors.js'
import { kept } from '../idempotency.js'
import type { Json } from './schema-walk.js'

/** components.headers */
export const headers: Record<string, Json> = {
  RequestId: {
    description:
      "This request's id: the same as `requestId` in an error body and in the service's logs; quote it when asking about a request.",
    schema: { type: 'string', format: 'uuid' },
  },
  RetryAfter: {
    description:
      'Seconds to wait before sending the same request again (RFC 9110). Send it again no sooner; with an Idempotency-Key, the same key.',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description:
      '`true` when this is the stored answer of an earlier request with the same Idempotency-Key and the same request: nothing was done again.',
    schema: { type: 'string', enum: ['true'] },
  },
  RateLimitPolicy: {
    description: 'The alert rate limit of the vendor: `"alerts";q=<alerts a minute>;w=60`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of it: `"alerts";r=<remaining>;t=<seconds until the minute starts again>`.',
    schema: { type: 'string' },
  },
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` })

const oauthCode = (code: string) => code === code.toLowerCase()

/**
 * The codes a status carries: the token endpoint answers its 400 and 401 with RFC 6749 codes only (a
 * malformed request of any kind is invalid_request there); every other status and route with ours.
 */
export function codesOf(status: number, oauth: boolean): string[] {
  const rfc = oauth && (status === 400 || status === 401)
  return errorCodes.filter((c) => httpStatusOf(c) === status && oauthCode(c) === rfc)
}

const statusText: Record<string, string> = {
  '200': 'Success.',
  '201': 'Created.',
  '202': 'Accepted: the work is queued and runs in the background.',
  '204': 'Done; no body.',
  '400':
    'Bad input: the body, a path parameter or the query does not fit the schema, or a value is refused; `detail` names it. Nothing was done.',
  '401': 'Not authenticated: the credentials or token are missing, wrong, expired or revoked.',
  '403': 'Not allowed: the tenant is disabled, or the caller may not do this.',
  '404': 'Not found, or not yours.',
  '408': 'The request took too long to arrive.',
  '409': 'Conflicts with the current state; `detail` says which.',
  '413': 'The body is larger than 256 KiB.',
  '415': 'The body is not JSON (or form-encoded, where that is accepted).',
  '422': 'The Idempotency-Key was used in the last 24 hours with another request. Nothing was done.',
  '429': 'Too many requests: wait Retry-After seconds.',
  '500': 'An unexpected error of the service; the request id finds it in the logs.',
  '502': 'The PSA failed or timed out; a Retry-After says when to send the alert again.',
  '503': 'A dependency (the database, Redis) cannot be used now; send the request again later.',
}

/** The description of a response: the status's meaning and the error codes it carries. */
export function describeStatus(code: string, oauth: boolean): string {
  const text = statusText[code] ?? `HTTP ${code}.`
  const codes = /^\d+$/.test(code) ? codesOf(Number(code), oauth) : []
  return codes.length ? `${text} Error codes: ${codes.join(', ')}.` : text
}

export interface ResponseContext {
  /** The operation takes an Idempotency-Key. */
  idempotent: boolean
  /** An alert call: the rate-limit headers. */
  alert: boolean
}

/** The headers a response documents. */
export function responseHeaders(code: string, c: ResponseContext): Json {
  const h: Json = { 'x-request-id': header('RequestId') }
  const retry =
    code === '429' || code === '503' || (code === '409' && c.idempotent) || (code === '502' && c.alert)
  if (retry) h['Retry-After'] = header('RetryAfter')
  // The answers a key keeps, and so may replay (src/platform/http/idempotency.ts); its own 422 is never kept.
  if (c.idempotent && /^\d+$/.test(code) && kept(Number(code), false) && code !== '422')
    h['Idempotent-Replayed'] = header('IdempotentReplayed')
  // Alert answers past the credential check (docs/vendor-api.md#sending-alerts).
  if (c.alert && /^(2..|404|409|429|502)$/.test(code)) {
    h['RateLimit-Policy'] = header('RateLimitPolicy')
    h.RateLimit = header('RateLimit')
  }
  return h
}
