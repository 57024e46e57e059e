// The HTTP core every PSA adapter calls through: one request through the connection's limiter and the
// service's outbound client (its private-address guard, time budget and body cap), answered as a typed
// PsaResult. Statuses become failures the same way for every PSA: 401 auth, 403 forbidden, 404
// not-found, 429 rate-limited (Retry-After honoured, and the connection paused), 5xx and network
// trouble unavailable (retryable), other 4xx rejected. The failure's message is the PSA's own error
// text, which each adapter knows how to read. Nothing here logs a header or a body.
import type { HttpMethod, OutboundHttp, OutboundResult } from '../../platform/outbound/http.js'
import { parseRetryAfter } from '../../platform/outbound/retry-after.js'
import type { LimiterFactory } from '../../platform/redis/limiters.js'
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import type { ConnectionLimiter } from './limiter.js'

export interface PsaRequest {
  method: HttpMethod
  url: string
  query?: Record<string, string | number | boolean | undefined>
  headers: Record<string, string>
  /** JSON-encoded as the body. */
  body?: unknown
  /** Sent form-encoded instead of `body` (a token endpoint that reads a form: Kaseya BMS, OAuth2). */
  form?: Record<string, string>
  /** Sent as is instead of `body` or `form`, with its content type (a multipart body: NinjaOne's comments). */
  raw?: { body: string; contentType: string }
  /** The limiter's endpoint: calls to one endpoint share its in-flight limit. */
  endpoint: string
}

export interface PsaResponse {
  status: number
  body: unknown
  headers: Record<string, string | string[] | undefined>
}

export interface PsaHttpOptions {
  http: Pick<OutboundHttp, 'send'>
  limiter: ConnectionLimiter
  /** The PSA's name, for messages that have no text of the PSA's own. */
  name: string
  /** The PSA's own error text in an error body, or null. */
  errorText(body: unknown): string | null
  /** A 500 that carries the PSA's own error text is a refusal (Autotask answers business rules so),
   * not the PSA failing: it is not retried and does not count toward the breaker. */
  textual500IsRefusal?: boolean
  /** Where each call is logged at debug: method, host and path, status, time; never a header, query or body. */
  log?: { debug(fields: Record<string, unknown>, message: string): void }
  /** One request's time budget (PSA_TIMEOUT_MS): a request the PSA does not answer by then is given up. */
  requestTimeoutMs?: number
  /** How long a 429 without Retry-After waits (the PSA's error text may tell which limit it was). */
  defaultRetryAfterMs: number | ((text: string) => number)
}

/** What the service gives every real PSA kind: its outbound client, its log and one request's budget. */
export interface PsaKindOptions {
  http: Pick<OutboundHttp, 'send'>
  log?: PsaHttpOptions['log']
  /** PSA_TIMEOUT_MS. */
  requestTimeoutMs?: number
  /** Where limits shared beyond one connection are counted: this process, or Redis for all of them. */
  limiters?: LimiterFactory
  /** The outbound address this process calls PSAs from (EGRESS_NAME): PSAs that limit per client
   * address (Syncro) share one budget among every process with the same name. */
  egress?: string
}

/** The longest one PSA request may take where no budget is given. */
const hardLimitMs = 120_000
/** A PSA answer bigger than this is not one we read (a page of 1,000 companies is far smaller). */
const maxBodyBytes = 32 * 1024 * 1024

export class PsaHttp {
  constructor(private readonly o: PsaHttpOptions) {}

  /** One request within the connection's limits; a sync read (`call.spend`) spends only what alerts leave. */
  request(req: PsaRequest, call: PsaCall): Promise<PsaResult<PsaResponse>> {
    return this.o.limiter.run(req.endpoint, call.signal, () => this.send(req, call), call.spend)
  }

  private async send(req: PsaRequest, call: PsaCall): Promise<PsaResult<PsaResponse>> {
    const result = await this.o.http.send({
      method: req.method,
      url: req.url,
      query: req.query,
      headers: { accept: 'application/json', ...req.headers },
      body: req.raw
        ? req.raw.body
        : req.form
          ? new URLSearchParams(req.form).toString()
          : req.body === undefined
            ? null
            : JSON.stringify(req.body),
      ...(req.raw
        ? { contentType: req.raw.contentType }
        : req.form
          ? { contentType: 'application/x-www-form-urlencoded' }
          : {}),
      timeoutMs: this.o.requestTimeoutMs ?? hardLimitMs,
      signal: call.signal,
      maxBodyBytes,
    })
    if (this.o.log) {
      const u = URL.canParse(req.url) ? new URL(req.url) : null
      this.o.log.debug(
        {
          psa: this.o.name,
          method: req.method,
          url: u ? `${u.origin}${u.pathname}` : '(invalid)',
          status: result.kind === 'response' ? result.status : result.error,
          durationMs: result.durationMs,
        },
        'PSA call',
      )
    }
    return this.answer(result)
  }

  private defaultWait(text: string): number {
    const wait = this.o.defaultRetryAfterMs
    return typeof wait === 'number' ? wait : wait(text)
  }

  private answer(result: OutboundResult): PsaResult<PsaResponse> {
    if (result.kind === 'error') return { ok: false, failure: networkFailure(this.o.name, result) }
    let body: unknown = null
    if (result.body.trim() !== '') {
      try {
        body = JSON.parse(result.body)
      } catch {
        body = result.body
      }
    }
    const { status } = result
    if (status >= 200 && status < 300) return { ok: true, value: { status, body, headers: result.headers } }
    // A short plain-text body is the PSA's own words; an HTML page (a proxy's, a 404 page) is not.
    const plain = typeof body === 'string' && body.length < 300 && !/^\s*</.test(body) ? body.trim() : null
    const text = this.o.errorText(body) ?? plain
    const message = text ?? `${this.o.name} answered HTTP ${status}`
    if (status === 500 && this.o.textual500IsRefusal && this.o.errorText(body) !== null)
      return { ok: false, failure: { kind: 'rejected', retryable: false, status, message } }
    return {
      ok: false,
      failure: statusFailure(status, message, result.retryAfter, this.defaultWait(message)),
    }
  }
}

export function statusFailure(
  status: number,
  message: string,
  retryAfter: string | null,
  defaultRetryAfterMs: number,
): PsaFailure {
  if (status === 401) return { kind: 'auth', retryable: false, status, message }
  if (status === 403) return { kind: 'forbidden', retryable: false, status, message }
  if (status === 404) return { kind: 'not-found', retryable: false, status, message }
  // A 429 or 503 that says when to come back is the PSA asking to wait, not failing; a 429 without the
  // header waits the PSA's usual time and counts as a failure (the retry schedule applies).
  const asked = status === 429 || status === 503 ? parseRetryAfter(retryAfter, new Date()) : null
  if (asked !== null) {
    const kind = status === 429 ? 'rate-limited' : 'unavailable'
    return { kind, retryable: true, status, retryAfterMs: asked, throttled: true, message }
  }
  if (status === 429) {
    return { kind: 'rate-limited', retryable: true, status, retryAfterMs: defaultRetryAfterMs, message }
  }
  if (status >= 500) return { kind: 'unavailable', retryable: true, status, message }
  return { kind: 'rejected', retryable: false, status, message }
}

function networkFailure(name: string, e: Extract<OutboundResult, { kind: 'error' }>): PsaFailure {
  switch (e.error) {
    case 'timeout':
    case 'aborted':
      return { kind: 'timeout', retryable: true, message: `${name} did not answer in time` }
    case 'blocked':
      return {
        kind: 'rejected',
        retryable: false,
        message: `${name}'s address is private or loopback, which this service does not call (ALLOW_PRIVATE_NETWORK)`,
      }
    case 'invalid_url':
      return { kind: 'rejected', retryable: false, message: `the ${name} URL is not valid: ${e.message}` }
    default:
      return { kind: 'unreachable', retryable: true, message: `${name} cannot be reached: ${e.message}` }
  }
}

/** `text` cut to `max` characters, marked with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
