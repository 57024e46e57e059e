// The one error type thrown at the HTTP edge. Domain code and services return values (a Result, whose
// refusal names an error code: src/platform/core/result.ts); route handlers turn refusals into ApiError with
// orRefuse; the error handler renders every ApiError in the contract's failure shape.
import { type ErrorCode, httpStatusOf } from '../core/errors.js'
import type { Refusal, Result } from '../core/result.js'

export class ApiError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: {
      correlationId?: string | null
      messageId?: string
      headers?: Record<string, string>
      /** More fields of the default envelope, beside its own (which win): /readyz's `checks`. */
      fields?: Record<string, unknown>
    } = {},
  ) {
    super(detail)
    this.status = httpStatusOf(code)
  }
}

export const notFound = (what: string): ApiError => new ApiError('NOT_FOUND', `${what} was not found.`)

/** The ApiError of a service's refusal: the same code, sentence, ids and headers. */
export const refusalError = (r: Refusal): ApiError => new ApiError(r.code, r.detail, r.extra)

/** The value of a service's answer, or its refusal thrown as the ApiError the error handler renders. */
export function orRefuse<T>(result: Result<T>): T {
  if (!result.ok) throw refusalError(result.refusal)
  return result.value
}
