// The vendor's client: the typed calls generated from the service's OpenAPI document (`api`, an
// openapi-fetch client over openapi.d.ts) and a few hand-written helpers for what every vendor does
// — send alerts, manage its webhook endpoint, send itself a test event, long-poll its events.
// Every call goes through transport.ts: tokens, idempotency keys, retries.
import { randomUUID } from 'node:crypto'
import createClient, { type Client } from 'openapi-fetch'
import { AlertbridgeError } from './errors.js'
import type { paths } from './openapi.js'
import type { RetryOptions } from './retry.js'
import { type TokenAnswer, TokenSource } from './token.js'
import { type Fetch, transport } from './transport.js'

export interface VendorClientOptions {
  /** The service's address, e.g. `https://alertbridge.example.com`. */
  baseUrl: string
  clientId: string
  clientSecret: string
  /** The partner's organization token: the alert calls need it; with it, tokens are bound to that integration. */
  organizationOemToken?: string
  /** The integration the alerts go to. */
  integrationId?: string
  /** Retries of 429/5xx/network failures (retry.ts); `{maxAttempts: 1}` turns them off. */
  retry?: RetryOptions
  /** Ask for a new token this many seconds before the current one expires (default 60). */
  refreshBeforeSeconds?: number
  /** A new Idempotency-Key for each logical write (default: a random UUID). */
  idempotencyKey?: () => string
  /** The fetch to send with (default: the global fetch). */
  fetch?: Fetch
  userAgent?: string
}

type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } }
}
  ? B
  : never

type SyncAlert = Body<'/api/oem-alerts-api/alert/sync', 'post'>
/** The alert's `data` (docs/contract.md#alert-request); fields beyond the contract's are kept with the alert. */
export type AlertData = SyncAlert['data'] & Record<string, unknown>
/**
 * An alert's `data` without its incidentStatus, which the helpers set. Omitted from the contract's
 * fields before the open record is added: Omit over AlertData itself would see only `string` keys
 * and take any object.
 */
export type AlertFields = Omit<SyncAlert['data'], 'incidentStatus'> & Record<string, unknown>

export interface AlertInput {
  data: AlertData
  /** Required for UPDATE and RESOLVED: the correlationId an OPEN was answered with. */
  correlationId?: string
  /** Defaults to the client's. */
  integrationId?: string
  organizationOemToken?: string
}

export interface AlertOptions {
  /** `sync` (default): the answer is the outcome; `webhook`: answered at once, the outcome arrives as a status_update. */
  strategy?: 'sync' | 'webhook'
  /** The key of this logical call (default: a new one, kept across its retries). */
  idempotencyKey?: string
  signal?: AbortSignal
}

/** An alert call's answer, whichever strategy; `ok` is false for `message: "failed"` whatever the status. */
export interface AlertResult {
  ok: boolean
  status: number
  message: 'created' | 'updated' | 'closed' | 'suppressed' | 'failed'
  /** The ticket's correlation id (the answer's correlationID or correlationId). */
  correlationId: string | null
  messageId: string | null
  /** On a failure: the stable code and the sentence saying what to fix. */
  error?: string
  detail?: string
  requestId?: string
  /** The Idempotency-Key sent. */
  idempotencyKey: string
  /** The service answered a stored first answer to this key (`Idempotent-Replayed: true`). */
  replayed: boolean
  body: unknown
}

type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer A } } }
}
  ? A
  : never

/** A page of the long-poll (GET /api/vendor-api/events); `nextCursor` is the next call's `after`. */
export type EventsPage = Answer<'/api/vendor-api/events', 'get'>
/**
 * One event of the long-poll: its `body` exactly as signed and its `headers` (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`) signed just now with the vendor's current secret(s):
 * forward both unchanged and the endpoint verifies them as a delivery.
 */
export type ListenedEvent = EventsPage['data'][number]
/** The event names `sendTestEvent` takes. */
export type TestEventName = NonNullable<Body<'/api/vendor-api/webhook/test', 'post'>['event']>

export class VendorClient {
  /** Every call of the vendor API, typed from the OpenAPI document (bearer token, retries, keys added). */
  readonly api: Client<paths>
  readonly tokens: TokenSource
  readonly #o: VendorClientOptions

  constructor(o: VendorClientOptions) {
    this.#o = o
    const baseUrl = o.baseUrl.replace(/\/+$/, '')
    this.tokens = new TokenSource(() => this.#requestToken(), {
      refreshBeforeSeconds: o.refreshBeforeSeconds,
    })
    const fetch = transport({ ...o, baseUrl, tokens: this.tokens })
    this.api = createClient<paths>({ baseUrl, fetch })
  }

  /** A bearer token for the vendor calls: the one held, or a new one shortly before it expires. */
  accessToken(): Promise<string> {
    return this.tokens.get()
  }

  async #requestToken(): Promise<TokenAnswer> {
    const { data, error, response } = await this.api.POST('/api/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: this.#o.clientId,
        client_secret: this.#o.clientSecret,
        scope: 'vendor_manage',
        ...(this.#o.organizationOemToken ? { organization_oem_token: this.#o.organizationOemToken } : {}),
      },
    })
    if (!data) throw failure(response, error, 'POST /api/oauth/token')
    return data as TokenAnswer
  }

  /** Sends one alert with the client's credentials in the body (docs/contract.md#alert-request). */
  async sendAlert(input: AlertInput, o: AlertOptions = {}): Promise<AlertResult> {
    const integrationId = input.integrationId ?? this.#o.integrationId
    const organizationOemToken = input.organizationOemToken ?? this.#o.organizationOemToken
    if (!integrationId || !organizationOemToken)
      throw new TypeError('sendAlert: integrationId and organizationOemToken are needed (options or input)')
    const body: SyncAlert = {
      clientId: this.#o.clientId,
      clientSecret: this.#o.clientSecret,
      grantType: 'client_credentials',
      scope: 'vendor_manage',
      organizationOemToken,
      integrationId,
      ...(input.correlationId ? { correlationId: input.correlationId } : {}),
      data: input.data,
    }
    const key = o.idempotencyKey ?? (this.#o.idempotencyKey ?? randomUUID)()
    const init = { body, headers: { 'idempotency-key': key }, signal: o.signal }
    const { data, error, response } =
      o.strategy === 'webhook'
        ? await this.api.POST('/api/oem-alerts-api/alert', init)
        : await this.api.POST('/api/oem-alerts-api/alert/sync', init)
    return alertResult(response, data ?? error, key)
  }

  /** OPEN: creates a ticket (or de-duplicates onto an open one). */
  open(data: AlertFields, o?: AlertOptions): Promise<AlertResult> {
    return this.sendAlert({ data: { ...data, incidentStatus: 'OPEN' } as AlertData }, o)
  }

  /** UPDATE: appends to the ticket of `correlationId`. */
  update(correlationId: string, data: AlertFields, o?: AlertOptions) {
    return this.sendAlert({ correlationId, data: { ...data, incidentStatus: 'UPDATE' } as AlertData }, o)
  }

  /** RESOLVED: closes the ticket of `correlationId`. */
  resolve(correlationId: string, data: AlertFields, o?: AlertOptions) {
    return this.sendAlert({ correlationId, data: { ...data, incidentStatus: 'RESOLVED' } as AlertData }, o)
  }

  /** The vendor's webhook endpoint: URL, state, secret rotation. */
  async getWebhook() {
    const { data, error, response } = await this.api.GET('/api/vendor-api/webhook')
    if (!data) throw failure(response, error, 'GET /api/vendor-api/webhook')
    return data
  }

  /** Sets the webhook URL (null: none) and, optionally, the auth header sent with every delivery. */
  async setWebhook(body: Body<'/api/vendor-api/webhook', 'put'>) {
    const { data, error, response } = await this.api.PUT('/api/vendor-api/webhook', { body })
    if (!data) throw failure(response, error, 'PUT /api/vendor-api/webhook')
    return data
  }

  /** Sends the vendor a sample event marked `test: true` (default `Ticket Created`) through the normal delivery. */
  async sendTestEvent(body: Body<'/api/vendor-api/webhook/test', 'post'> = {}) {
    const { data, error, response } = await this.api.POST('/api/vendor-api/webhook/test', { body })
    if (!data) throw failure(response, error, 'POST /api/vendor-api/webhook/test')
    return data
  }

  /** One long-poll: the events after `after`, waiting up to `waitSeconds` (0–25) for one. */
  async events(
    o: { after?: string | null; waitSeconds?: number; signal?: AbortSignal } = {},
  ): Promise<EventsPage> {
    const query = {
      ...(o.after ? { after: o.after } : {}),
      ...(o.waitSeconds !== undefined ? { waitSeconds: o.waitSeconds } : {}),
    }
    const { data, error, response } = await this.api.GET('/api/vendor-api/events', {
      params: { query },
      signal: o.signal,
    })
    if (!data) throw failure(response, error, 'GET /api/vendor-api/events')
    return data
  }

  /**
   * The vendor's events as they come, by long-polling (`stripe listen`'s way): each one once, in the
   * service's order, until `signal` aborts. Meanwhile the service counts the vendor as listening and
   * records its events even without a webhook URL.
   */
  async *listen(
    o: { after?: string | null; waitSeconds?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<ListenedEvent> {
    let after = o.after ?? null
    const waitSeconds = o.waitSeconds ?? 25
    while (!o.signal?.aborted) {
      let page: EventsPage
      try {
        page = await this.events({ after, waitSeconds, signal: o.signal })
      } catch (err) {
        if (o.signal?.aborted) return
        throw err
      }
      for (const event of page.data) yield event
      if (page.nextCursor) after = page.nextCursor
    }
  }
}

function failure(response: Response, body: unknown, what: string): AlertbridgeError {
  return new AlertbridgeError(response.status, body, response.headers.get('x-request-id'), what)
}

function alertResult(response: Response, body: unknown, idempotencyKey: string): AlertResult {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
  const d = (b.data && typeof b.data === 'object' ? b.data : {}) as Record<string, unknown>
  const message = (typeof b.message === 'string' ? b.message : 'failed') as AlertResult['message']
  const correlationId = d.correlationID ?? d.correlationId ?? null
  return {
    ok: response.ok && message !== 'failed',
    status: response.status,
    message,
    correlationId: typeof correlationId === 'string' ? correlationId : null,
    messageId: typeof d.messageId === 'string' ? d.messageId : null,
    ...(typeof b.error === 'string' ? { error: b.error } : {}),
    ...(typeof b.detail === 'string' ? { detail: b.detail } : {}),
    ...(typeof b.requestId === 'string' ? { requestId: b.requestId } : {}),
    idempotencyKey,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    body,
  }
}
