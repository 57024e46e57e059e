// SuperOps' refusals as failures (docs/psa/superops.md, "Errors"). SuperOps answers HTTP 200 with
// `errors[]` for what it refuses, each error's `extensions.clientError[]` holding `{code, param}`
// (`message` may be null, `param.attributes` names the fields); throttling is one of those codes,
// `rate_limit_exceeded`. Only a bad token (401) and a bad subdomain (400) come as HTTP statuses.
import type { PsaFailure } from '../adapter.js'

export interface ClientError {
  code?: unknown
  param?: unknown
}

export interface GraphQlError {
  message?: unknown
  extensions?: { clientError?: unknown; code?: unknown; retryAfter?: unknown } | null
}

/** The clientError entries of every error. */
export function clientErrors(errors: readonly GraphQlError[]): ClientError[] {
  return errors.flatMap((e) => {
    const list = e?.extensions?.clientError
    return Array.isArray(list) ? (list as ClientError[]) : []
  })
}

export const throttledCode = 'rate_limit_exceeded'

/** Whether SuperOps said it is throttling the token. */
export const isThrottled = (errors: readonly GraphQlError[]) =>
  clientErrors(errors).some((c) => c.code === throttledCode)

const fieldsOf = (c: ClientError): string => {
  const p = c.param && typeof c.param === 'object' ? (c.param as Record<string, unknown>) : {}
  const attrs = Array.isArray(p.attributes) ? p.attributes.map(String) : []
  return attrs.length > 0 ? attrs.join(', ') : 'a field'
}

/** One clientError in words. */
function sentence(c: ClientError): string {
  const fields = fieldsOf(c)
  switch (c.code) {
    case 'mandatory_validation_failed':
      return `SuperOps requires ${fields} (a field your SuperOps marks mandatory: set it in the ticket defaults or a rule, or make it optional in SuperOps)`
    case 'value_length_exceeds_limit':
      return `SuperOps refused ${fields} as longer than its limit`
    case 'referred_value_does_not_exist':
      return `SuperOps has no such ${fields} (check the ticket defaults and the account mapping against SuperOps' lists)`
    case 'entity_does_not_exist':
      return 'SuperOps has no such ticket or record'
    case 'forbidden':
      return "SuperOps' role of the API token's technician does not allow this"
    case 'subscription_trial_expired':
    case 'subscription_paused':
    case 'subscription_cancelled':
      return `SuperOps refused: the MSP's subscription is ${String(c.code).replace('subscription_', '').replace('_', ' ')}`
    default:
      return `SuperOps refused (${String(c.code)}) ${fields}`
  }
}

/** The text of an error body (a GraphQL error list, or `{message}`), or null. */
export function superOpsErrorText(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null
  const b = body as { errors?: unknown; message?: unknown }
  if (Array.isArray(b.errors)) {
    const errors = b.errors as GraphQlError[]
    const codes = clientErrors(errors)
    const parts =
      codes.length > 0
        ? codes.map(sentence)
        : errors.map((e) => (typeof e?.message === 'string' ? e.message : '')).filter(Boolean)
    if (parts.length > 0) return [...new Set(parts)].join('; ')
  }
  return typeof b.message === 'string' && b.message.trim() !== '' ? b.message.trim() : null
}

/** The failure an HTTP 200 with `errors[]` and no data stands for. */
export function errorsFailure(errors: readonly GraphQlError[]): PsaFailure {
  const message = superOpsErrorText({ errors }) ?? 'SuperOps answered an error without a message'
  const codes = clientErrors(errors).map((c) => c.code)
  if (codes.includes('forbidden') || codes.some((c) => String(c).startsWith('subscription_')))
    return { kind: 'forbidden', retryable: false, message }
  if (codes.includes('entity_does_not_exist')) return { kind: 'not-found', retryable: false, message }
  if (codes.length > 0) return { kind: 'rejected', retryable: false, message }
  // No clientError: the server's own trouble (graphql's INTERNAL_SERVER_ERROR) may pass; anything else
  // (a document the schema refused) will not.
  const internal = errors.some(
    (e) =>
      e?.extensions?.code === 'INTERNAL_SERVER_ERROR' || /internal server error/i.test(String(e?.message)),
  )
  return internal
    ? { kind: 'unavailable', retryable: true, message }
    : { kind: 'rejected', retryable: false, message }
}

/** A hint of when to come back, in an error's extensions (none is documented; read where given). */
export function retryHintMs(errors: readonly GraphQlError[]): number | null {
  for (const e of errors) {
    const n = Number(e?.extensions?.retryAfter)
    if (Number.isFinite(n) && n > 0) return n * 1000
  }
  return null
}
