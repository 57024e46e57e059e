// SuperOps' refusals as the simulator gives them (docs/psa/superops.md, "Errors"): HTTP 200 with
// `errors[]`, each carrying `extensions.clientError[] = {code, param}` — a bad token and a bad
// subdomain are the only HTTP refusals (401, 400), besides what the shared harness's faults make.
import { GraphQLError } from 'graphql'

export type ClientErrorCode =
  | 'mandatory_validation_failed'
  | 'value_length_exceeds_limit'
  | 'referred_value_does_not_exist'
  | 'entity_does_not_exist'
  | 'forbidden'
  | 'type_validation_failed'
  | 'rate_limit_exceeded'

export function clientError(
  code: ClientErrorCode,
  param: Record<string, unknown>,
  message: string | null = null,
) {
  return new GraphQLError(message ?? code, { extensions: { clientError: [{ code, param }] } })
}

/** The body of a refusal made before the schema runs (the rate limit, the harness's faults). */
export function errorBody(code: string | null, message: string) {
  return {
    data: null,
    errors: [{ message, ...(code ? { extensions: { clientError: [{ code, param: {} }] } } : {}) }],
  }
}
