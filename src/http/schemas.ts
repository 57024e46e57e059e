// Schema pieces shared by many routes. Each route file owns its own request and response schemas.
import Type, { type TSchema } from 'typebox'

export const FailureBody = Type.Object(
  {
    statusCode: Type.Integer({ description: 'the HTTP status' }),
    message: Type.Literal('failed'),
    error: Type.String({ description: 'stable machine-readable code, e.g. ACCOUNT_NOT_MAPPED' }),
    detail: Type.String({ description: 'what went wrong and what to do about it' }),
    requestId: Type.String(),
  },
  { $id: 'Failure', description: 'Every error of the non-alert APIs.', additionalProperties: true },
)

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

export const Limit = Type.Integer({ minimum: 1, maximum: 200, default: 50 })
export const Cursor = Type.String({ maxLength: 512, description: 'nextCursor of the previous page' })

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  })

/** Error responses a route may give, for the OpenAPI document. */
export const failures = (...codes: number[]): Record<number, typeof FailureBody> =>
  Object.fromEntries(codes.map((c) => [c, FailureBody]))

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

/** `?integrationId=` of the vendor's calls: names the integration when the token is not bound to one. */
export const VendorIntegrationId = Type.String({
  maxLength: 64,
  description: 'needed only with an unbound token',
})
