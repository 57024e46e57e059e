// Schema pieces shared by many routes. Each route file owns its own request and response schemas.
import Type, { type TSchema } from 'typebox'
import Format from 'typebox/format'

// The `date-time` format of every schema: RFC 3339 as TypeBox checks it, and only instants a Date can
// hold. RFC 3339 allows a leap second (`2016-12-31T23:59:60Z`), which no Date represents: such a value
// passed the schema and then made `new Date(value).toISOString()` throw. Validators capture a format
// when they are compiled; this module is imported before any route is built, so they capture this one.
const rfc3339 = Format.Get('date-time')
Format.Set('date-time', (value) => (rfc3339?.(value) ?? false) && Number.isFinite(Date.parse(value)))

/** A point in time given by a caller (a filter or a body field): RFC 3339 that a Date holds exactly. */
export const Instant = (description: string) =>
  Type.String({
    format: 'date-time',
    maxLength: 64,
    description: `${description} (RFC 3339, e.g. 2026-01-31T12:00:00Z)`,
  })

/** An Instant as this service stores and compares times: UTC ISO 8601 with milliseconds. */
export const isoInstant = (value: string): string => new Date(value).toISOString()

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

/**
 * Lists that were answered whole before every list was paged (accounts, services, latest usage, tenants): a
 * page as large as the lists callers had then, so that they see no change, and no larger than a bound
 * (docs/decisions/bounded-growth/every-list-paged.md).
 */
export const LongLimit = Type.Integer({
  minimum: 1,
  maximum: 1000,
  default: 500,
  description: 'items per page (default 500); nextCursor names the next page',
})
/** The nextCursor of an ascending keyset list (its key may be two ids of up to 128 characters). */
export const KeyCursor = Type.String({ maxLength: 4096, description: 'nextCursor of the previous page' })
