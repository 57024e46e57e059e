// Verifying a webhook alertbridge sent (docs/vendor-api.md#webhooks-received): the Standard Webhooks
// signature over the raw body, with the `standardwebhooks` package's verifier and its 5-minute
// tolerance for the timestamp. The body must be the bytes as they arrived, not re-serialised JSON.
import { timingSafeEqual } from 'node:crypto'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'

export { WebhookVerificationError }

/** What every event carries beside the contract's fields (docs/contract.md#webhook-events). */
export interface EventMeta {
  /** Grows with every event of an integration: a snapshot with a lower number than one seen is stale. */
  sequence: number
  /** The time the event describes (ISO 8601). */
  occurredAt: string
  /** A test event, or the outcome of a test alert. */
  test?: boolean
}

/** `status_update`: an alert's outcome, or a change made in the PSA. */
export interface StatusUpdateEvent {
  module: 'alerts'
  eventType: 'status_update'
  payload: EventMeta & {
    /** `Ticket Created`, `Ticket Updated`, `Ticket Closed In PSA`, … (the list is open). */
    event: string
    messageId: string
    messageID: string
    correlationId: string
    vendorOrganizationId: string
    vendorUserOrganizationId: string
    integrationId: string
    payload: { status: 'success' | 'suppressed' | 'failed' | (string & {}); message: string }
    /** The failure's stable code (e.g. TICKET_NOT_FOUND); null on success. */
    error?: string | null
  }
}

/** `state_snapshot`: the integration's state as the vendor should see it. */
export interface StateSnapshotEvent {
  module: 'integrations'
  eventType: 'state_snapshot'
  payload: EventMeta & {
    isIntegrationActive: boolean
    isAlertsEnabled: boolean
    productGroups: Record<string, string[]>
    accounts: string[]
    vendorOrganizationId: string
    vendorUserId: string
    integrationId: string
  }
}

export type WebhookEvent = StatusUpdateEvent | StateSnapshotEvent

/** Headers as a fetch `Headers`, a Node request's `req.headers`, or a plain object. */
export type HeadersLike =
  | Headers
  | Record<string, string | readonly string[] | undefined>
  | Iterable<readonly [string, string]>

export interface VerifyOptions {
  /**
   * How far the `webhook-timestamp` may be from now, in seconds (default 300, the Standard Webhooks
   * tolerance). `null` skips the timestamp check: only for a webhook saved earlier, never for one
   * just received (a replayed request would pass).
   */
  toleranceSeconds?: number | null
  /** The clock, in epoch ms (tests replace it). */
  now?: () => number
}

const standardTolerance = 300

/** The headers with lower-case names, each once (a repeated header joined as Node joins them). */
export function normaliseHeaders(headers: HeadersLike): Record<string, string> {
  const out: Record<string, string> = {}
  const entries: Iterable<readonly [string, unknown]> =
    headers instanceof Headers
      ? headers.entries()
      : Symbol.iterator in headers
        ? (headers as Iterable<readonly [string, string]>)
        : Object.entries(headers)
  for (const [name, value] of entries) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return out
}

function bodyText(rawBody: string | Uint8Array): string {
  return typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')
}

/**
 * Checks a webhook's signature with `secret` (`whsec_…`; during a rotation, a list of the secrets in
 * use: any one that matches will do) and answers its parsed body. Throws WebhookVerificationError
 * when the headers are missing, the timestamp is outside the tolerance, or no signature matches.
 */
export function verifyWebhook<T = WebhookEvent>(
  rawBody: string | Uint8Array,
  headers: HeadersLike,
  secret: string | readonly string[],
  o: VerifyOptions = {},
): T {
  const secrets = typeof secret === 'string' ? [secret] : [...secret]
  if (secrets.length === 0) throw new Error('verifyWebhook: no secret given')
  const h = normaliseHeaders(headers)
  const body = bodyText(rawBody)
  const tolerance = o.toleranceSeconds === undefined ? standardTolerance : o.toleranceSeconds
  let failure: unknown
  for (const s of secrets) {
    try {
      const wh = new Webhook(s)
      if (tolerance === standardTolerance && !o.now) return wh.verify(body, h) as T
      return verifyAt(wh, body, h, tolerance, (o.now ?? Date.now)()) as T
    } catch (err) {
      failure = err
      if (!(err instanceof WebhookVerificationError)) throw err
    }
  }
  throw failure
}

export { verifyWebhook as verify }

/**
 * The check with another tolerance or clock: the timestamp checked here, the signature the library
 * computes for this id, time and body compared (in constant time) with each `v1` one of the header.
 */
function verifyAt(
  wh: Webhook,
  body: string,
  h: Record<string, string>,
  toleranceSeconds: number | null,
  nowMs: number,
): unknown {
  const id = h['webhook-id']
  const timestamp = h['webhook-timestamp']
  const signature = h['webhook-signature']
  if (!id || !timestamp || !signature) throw new WebhookVerificationError('Missing required headers')
  const seconds = Number.parseInt(timestamp, 10)
  if (Number.isNaN(seconds)) throw new WebhookVerificationError('Invalid Signature Headers')
  const now = Math.floor(nowMs / 1000)
  if (toleranceSeconds !== null) {
    if (now - seconds > toleranceSeconds) throw new WebhookVerificationError('Message timestamp too old')
    if (seconds > now + toleranceSeconds) throw new WebhookVerificationError('Message timestamp too new')
  }
  const expected = Buffer.from(wh.sign(id, new Date(seconds * 1000), body).split(',')[1] ?? '')
  for (const versioned of signature.split(' ')) {
    const [version, value] = versioned.split(',')
    if (version !== 'v1' || value === undefined) continue
    const given = Buffer.from(value)
    if (given.length === expected.length && timingSafeEqual(given, expected))
      return body === '' ? undefined : JSON.parse(body)
  }
  throw new WebhookVerificationError('No matching signature found')
}
