// The one error type thrown at the HTTP edge. Domain code returns values; handlers turn refusals
// into ApiError; the error handler renders every ApiError in the contract's failure shape.
import { type ErrorCode, httpStatusOf } from '../domain/errors.js'

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
