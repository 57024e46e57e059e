// A webhook delivery (docs/architecture.md#the-data-model, docs/webhooks.md): one per event and endpoint,
// with its attempts.

export const deliveryStatuses = ['pending', 'delivered', 'dead'] as const

export type DeliveryStatus = (typeof deliveryStatuses)[number]

export type WebhookEventType = 'status_update' | 'state_snapshot'

export interface Delivery {
  id: string
  vendorId: string
  partnerId: string | null
  integrationId: string | null
  messageId: string | null
  eventType: WebhookEventType
  body: string
  status: DeliveryStatus
  failedAttempts: number
  attemptCount: number
  manual: boolean
  runAt: string
  lastStatus: number | null
  lastError: string | null
  createdAt: string
  updatedAt: string
  deliveredAt: string | null
  deadAt: string | null
}

export interface Attempt {
  number: number
  trigger: 'scheduled' | 'manual'
  url: string
  startedAt: string
  durationMs: number
  statusCode: number | null
  error: string | null
  responseBody: string | null
  nextAttemptAt: string | null
}

/** Why an attempt got no HTTP answer, as the partner reads it: the kind, never the vendor's address. */
const noAnswer: Readonly<Record<string, string>> = {
  timeout: 'timeout: the endpoint did not answer in time',
  aborted: 'aborted: the attempt was given up',
  dns: "dns: the endpoint's host name did not resolve",
  conn: 'conn: the connection to the endpoint failed',
  tls: 'tls: the TLS handshake with the endpoint failed',
  blocked: "blocked: the endpoint's address is not allowed",
  invalid_url: "invalid_url: the endpoint's URL cannot be used",
}

/**
 * An attempt's or a delivery's error as a partner may see it
 * (docs/decisions/bounded-growth/partner-delivery-view.md): the vendor's webhook URL and its answers are
 * the vendor's, not the partner's. An error with an HTTP status is our own sentence made of the status (and
 * Retry-After) alone, so it is shown as it is; an error without one begins with its kind
 * (`conn: connect ECONNREFUSED 203.0.113.7:443`), and only the kind is shown, since the rest names the
 * vendor's host or address. Our own sentences (an endpoint disabled or paused) carry no kind and are shown as they are.
 */
export function errorForPartner(error: string | null, statusCode: number | null): string | null {
  if (error === null || statusCode !== null) return error
  const kind = /^(?:replay failed: )?([a-z_]+): /.exec(error)?.[1]
  if (kind === undefined) return error
  return noAnswer[kind] ?? 'the attempt got no answer from the endpoint'
}
