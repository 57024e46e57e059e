// The alert request (docs/contract.md#alert-request) and its answers. The single source of validation,
// types and OpenAPI.
import Type, { type Static } from 'typebox'
import { incidentStatuses } from '../../platform/core/types.js'
import { hintText, type KnownFields, misplacedFields } from './misplaced.js'

/**
 * Identifiers are bounded; free text (title, summary) is not, beyond the 256 KiB body limit: a vendor's
 * alert is never refused for its length, and each PSA adapter fits the text to its own fields
 * (src/psa/core/text.ts).
 */
export const limits = {
  name: 128,
  correlationId: 128,
  integrationId: 64,
  credential: 256,
} as const

const Text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description })
/** Free text must say something: a title of only whitespace is refused (the pattern the error handler
 * names as "must not be empty or only whitespace"). */
const FreeText = (description: string) => Type.String({ minLength: 1, pattern: '\\S', description })

export const CorrelationId = Type.String({
  pattern: `^[A-Za-z0-9._:@+=~-]{1,${limits.correlationId}}$`,
  description: 'Unique for the lifecycle of a ticket: 1–128 letters, digits and . _ : @ + = ~ -',
})

export const AlertData = Type.Object({
  title: FreeText('Alert headline; any length (each PSA gets it fitted to its own title field)'),
  summary: Type.Optional(
    Type.String({ description: 'Descriptive summary; any length (cut with a note where a PSA holds less)' }),
  ),
  alertType: Text(limits.name, 'An alert type of the product group'),
  accountId: Text(limits.name, "The vendor's identifier of the partner's company"),
  productGroup: Text(limits.name, 'A product group of the catalogue'),
  incidentStatus: Type.Enum(incidentStatuses, {
    description: 'OPEN creates, UPDATE appends, RESOLVED closes',
  }),
})

/**
 * Fields of `data` beyond the contract's are kept with the alert's event (the vendor may send its
 * own), up to this size as JSON; their nesting is bounded for every request (platform/http/ingress.ts).
 */
export const extrasLimitBytes = 64 * 1024

export const contractFields: ReadonlySet<string> = new Set(Object.keys(AlertData.properties))

/** Why the unknown fields of an alert's `data` cannot be kept, or null. */
export function extrasProblem(data: object): string | null {
  const extras = Object.entries(data).filter(([name]) => !contractFields.has(name))
  if (extras.length === 0) return null
  const bytes = Buffer.byteLength(JSON.stringify(Object.fromEntries(extras)), 'utf8')
  if (bytes <= extrasLimitBytes) return null
  const names = extras.slice(0, 5).map(([name]) => name)
  return `body/data carries ${bytes} bytes of fields beyond the contract's (${names.join(', ')}${extras.length > 5 ? ', …' : ''}) as JSON; at most ${extrasLimitBytes} bytes of them are kept.`
}

export const AlertRequest = Type.Object(
  {
    clientId: Text(limits.credential, 'Credential identifier'),
    clientSecret: Text(limits.credential, 'Credential secret'),
    grantType: Type.String({ maxLength: 64, description: "Constant 'client_credentials'" }),
    scope: Type.String({ maxLength: 64, description: "Constant 'vendor_manage'" }),
    organizationOemToken: Text(limits.credential, 'Token identifying the partner organisation'),
    integrationId: Text(limits.integrationId, 'The integration'),
    correlationId: Type.Optional(CorrelationId),
    correlationID: Type.Optional({ ...CorrelationId, description: 'Accepted spelling of correlationId' }),
    data: AlertData,
  },
  { description: 'Unknown fields are ignored.' },
)
export type AlertRequest = Static<typeof AlertRequest>

/** The request's field names exactly as the schema spells them, both correlationId spellings included. */
export const knownAlertFields: KnownFields = {
  top: Object.keys(AlertRequest.properties),
  data: Object.keys(AlertData.properties),
}

/** The fields of an alert body sent in the wrong place, as sentences (misplaced.ts); [] for none. */
export const alertHints = (body: unknown): string[] => misplacedFields(body, knownAlertFields).map(hintText)

/** Where an answer carries the hints (docs/contract.md#alert-request): only when there is one. */
const Warnings = Type.Optional(
  Type.Array(Type.String(), {
    description:
      'Fields sent where the contract does not read them, each naming where it belongs; absent when there is none',
    examples: [['body/data/correlationId is read nowhere; send it as body/correlationId']],
  }),
)

/** The alert as received, credentials removed: what the audit trail keeps and a queued job carries. */
export const RedactedRequest = Type.Object({
  integrationId: Type.String(),
  correlationId: Type.Union([Type.String(), Type.Null()]),
  data: AlertData,
})
export type RedactedRequest = Static<typeof RedactedRequest>

const SynchronousData = Type.Object({
  messageId: Type.String({ description: 'Unique per transaction' }),
  correlationID: Type.Union([Type.String(), Type.Null()], {
    description: 'Unique for the lifecycle of the ticket',
  }),
})

export const SynchronousSuccess = Type.Object({
  statusCode: Type.Union([Type.Integer(), Type.String()], {
    description: '201, or the string "200" for closed',
  }),
  message: Type.Enum(['created', 'suppressed', 'updated', 'closed']),
  data: SynchronousData,
  warnings: Warnings,
})

export const SyncFailure = Type.Object({
  statusCode: Type.Integer({ description: 'The HTTP status' }),
  message: Type.Literal('failed'),
  data: SynchronousData,
  error: Type.String({ description: 'Stable machine code, e.g. ACCOUNT_NOT_MAPPED' }),
  detail: Type.String({ description: 'What went wrong and what to do' }),
  requestId: Type.String(),
  warnings: Warnings,
})

const WebhookData = Type.Object({
  messageId: Type.String({ description: 'Unique per transaction; the status_update event carries it' }),
  correlationId: Type.Union([Type.String(), Type.Null()], {
    description: 'Unique for the lifecycle of the ticket',
  }),
})

export const WebhookAnswer = Type.Object({
  message: Type.Enum(['created', 'suppressed', 'updated', 'closed', 'failed'], {
    description: 'What is expected to happen; the status_update event reports what did',
  }),
  data: WebhookData,
  error: Type.Optional(Type.String({ description: 'With message "failed": stable machine code' })),
  detail: Type.Optional(Type.String({ description: 'With message "failed": what went wrong' })),
  warnings: Warnings,
})

export const WebhookFailure = Type.Object({
  statusCode: Type.Integer({ description: 'The HTTP status' }),
  message: Type.Literal('failed'),
  data: WebhookData,
  error: Type.String({ description: 'Stable machine code, e.g. INVALID_CREDENTIALS' }),
  detail: Type.String({ description: 'What went wrong and what to do' }),
  requestId: Type.String(),
})
