// A refusal of the service, in its failure envelope (docs/contract.md#failure-envelope):
// `{statusCode, message: "failed", error, detail, requestId}`; the token endpoint adds
// `error_description` and answers RFC 6749 codes as `error`.

export class AlertbridgeError extends Error {
  override readonly name = 'AlertbridgeError'
  /** The HTTP status. */
  readonly status: number
  /** The stable code (`VALIDATION_FAILED`, `TOKEN_EXPIRED`, `invalid_client`, …), or `HTTP_<status>`. */
  readonly code: string
  /** The sentence saying what to fix. */
  readonly detail: string
  /** The id the service logged the request under (also its `x-request-id`): quote it to support. */
  readonly requestId: string | null
  /** The answer's body, parsed when it is JSON. */
  readonly body: unknown

  constructor(status: number, body: unknown, requestId: string | null, what: string) {
    const envelope = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
    const code = typeof envelope.error === 'string' ? envelope.error : `HTTP_${status}`
    const detail =
      typeof envelope.detail === 'string'
        ? envelope.detail
        : typeof envelope.error_description === 'string'
          ? envelope.error_description
          : typeof body === 'string' && body
            ? body.slice(0, 500)
            : `answered ${status}`
    super(`${what}: ${status} ${code}: ${detail}`)
    this.status = status
    this.code = code
    this.detail = detail
    this.requestId = typeof envelope.requestId === 'string' ? envelope.requestId : requestId
    this.body = body
  }
}
