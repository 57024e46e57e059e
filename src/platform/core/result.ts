// Outcomes as values: a service that may refuse answers a Result, the value or the refusal with its
// error code and the sentence for the caller. Only the HTTP edge turns a refusal into a status code
// (orRefuse in src/platform/http/errors.ts); docs/architecture.md, "Refusals".
import type { ErrorCode } from './errors.js'

/** What the failure envelope carries beside the code and the sentence. */
export interface RefusalExtra {
  correlationId?: string | null
  messageId?: string
  headers?: Record<string, string>
}

export interface Refusal {
  code: ErrorCode
  detail: string
  extra?: RefusalExtra
}

export type Refused = { ok: false; refusal: Refusal }
export type Result<T> = { ok: true; value: T } | Refused

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })

/** The answer of a service that has nothing to give back but may still refuse. */
export const done: Result<void> = { ok: true, value: undefined }

export const refuse = (code: ErrorCode, detail: string, extra?: RefusalExtra): Refused => ({
  ok: false,
  refusal: extra ? { code, detail, extra } : { code, detail },
})

export const notFound = (what: string): Refused => refuse('NOT_FOUND', `${what} was not found.`)

/** 429 with Retry-After: `what` ("Dry runs of this user") may be done `perMinute` times a minute. */
export const rateLimited = (what: string, perMinute: number, waitSeconds: number): Refused =>
  refuse(
    'RATE_LIMITED',
    `${what}: at most ${perMinute} a minute; try again in ${waitSeconds} second${waitSeconds === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(waitSeconds) } },
  )

/**
 * The value, for a caller to whom a refusal is a bug (the demo set-up, tests): it throws a plain
 * Error naming the refusal, never an HTTP error.
 */
export function must<T>(result: Result<T>): T {
  if (result.ok) return result.value
  throw new Error(`${result.refusal.code}: ${result.refusal.detail}`)
}
