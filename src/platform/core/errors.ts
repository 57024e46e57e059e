// The closed set of machine-readable error codes and the HTTP status each one means.
// Adding a code without a status is a compile error (the switch is exhaustive); the list is the one source
// of the codes, also for the OpenAPI document's enum.

/** Every code, in one list: the failure schemas of the OpenAPI document enumerate it (src/http/openapi). */
export const errorCodes = [
  'INVALID_JSON',
  'VALIDATION_FAILED',
  'UNSUPPORTED_MEDIA_TYPE',
  'BODY_TOO_LARGE',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'INVALID_ALERT',
  'CORRELATION_ID_REQUIRED',
  'INVALID_CREDENTIALS',
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'INTEGRATION_NOT_FOUND',
  'ACCOUNT_UNKNOWN',
  'ACCOUNT_NOT_MAPPED',
  'NO_RULE',
  'RULES_DISABLED',
  'RULE_GONE',
  'TICKET_NOT_FOUND',
  'INTEGRATION_NOT_ACTIVE',
  'ALERTING_DISABLED',
  'TICKET_CLOSED',
  'INVALID_STATE',
  'CONFLICT',
  'RATE_LIMITED',
  'PSA_ERROR',
  'INTERNAL',
  'DATABASE_UNAVAILABLE',
  // The Redis of a scale-out installation does not answer (docs/decisions/scale-out/unreachable-redis.md).
  'REDIS_UNAVAILABLE',
  // The credentials are right, but the operator disabled their vendor or partner
  // (docs/decisions/credentials/disabled-tenants.md).
  'TENANT_DISABLED',
  // Idempotency keys (docs/vendor-api.md#idempotency-keys): the key was used with another request, or
  // its first request is still running.
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  // OAuth 2.0 (RFC 6749 §5.2) codes, used by the token endpoint only.
  'invalid_request',
  'invalid_client',
  'invalid_scope',
  'unsupported_grant_type',
] as const

export type ErrorCode = (typeof errorCodes)[number]

export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_JSON':
    case 'VALIDATION_FAILED':
    case 'INVALID_ALERT':
    case 'CORRELATION_ID_REQUIRED':
    case 'invalid_request':
    case 'invalid_scope':
    case 'unsupported_grant_type':
      return 400
    case 'INVALID_CREDENTIALS':
    case 'UNAUTHENTICATED':
    case 'TOKEN_EXPIRED':
    case 'invalid_client':
      return 401
    case 'FORBIDDEN':
    case 'TENANT_DISABLED':
      return 403
    case 'NOT_FOUND':
    case 'INTEGRATION_NOT_FOUND':
    case 'ACCOUNT_UNKNOWN':
    case 'ACCOUNT_NOT_MAPPED':
    case 'NO_RULE':
    case 'RULES_DISABLED':
    case 'RULE_GONE':
    case 'TICKET_NOT_FOUND':
      return 404
    case 'INTEGRATION_NOT_ACTIVE':
    case 'ALERTING_DISABLED':
    case 'TICKET_CLOSED':
    case 'INVALID_STATE':
    case 'CONFLICT':
    case 'IDEMPOTENCY_KEY_IN_USE':
      return 409
    case 'IDEMPOTENCY_KEY_REUSED':
      return 422
    case 'BODY_TOO_LARGE':
      return 413
    case 'HEADERS_TOO_LARGE':
      return 431
    case 'REQUEST_TIMEOUT':
      return 408
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415
    case 'RATE_LIMITED':
      return 429
    case 'INTERNAL':
      return 500
    case 'PSA_ERROR':
      return 502
    case 'DATABASE_UNAVAILABLE':
    case 'REDIS_UNAVAILABLE':
      return 503
  }
}
