// The one outbound HTTP client: webhooks, the vendor's catalogue endpoint and PSA APIs all call third
// parties through it (docs/webhooks.md#success, docs/webhooks.md#private-addresses). One request per call,
// any method, no redirects, a total time budget and the caller's AbortSignal, a capped response body, and
// private addresses refused at connect time (request-filtering-agent checks every resolved address, which
// also defeats DNS rebinding). It never throws: every failure is a typed value.
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { performance } from 'node:perf_hooks'
import { StringDecoder } from 'node:string_decoder'
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent'
import { isAllowedLoopback } from '../core/loopback.js'
import { blockedCode, isPublicAddress, loopbackOnlyLookup, publicOnlyLookup } from './address.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** One call, in full. */
export interface OutboundCall {
  method: HttpMethod
  url: string
  /** Added to the URL's query string; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>
  headers?: Record<string, string>
  /** Sent as is, with `contentType` (application/json unless said otherwise). */
  body?: string | null
  contentType?: string
  /** The whole call's budget: connect, send, answer and body. */
  timeoutMs: number
  /** Aborts the call from outside (a caller's own deadline or shutdown). */
  signal?: AbortSignal
  /** Keep at most this much of the body; more is cut off and `truncated` is set. */
  maxBodyBytes: number
}

/** A JSON POST (webhooks). */
export interface OutboundRequest {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

export interface OutboundGet {
  url: string
  headers: Record<string, string>
  timeoutMs: number
  maxBodyBytes: number
}

/** timeout: the budget ran out; aborted: the caller's signal fired; the rest: why no answer came. */
export type OutboundErrorKind = 'timeout' | 'aborted' | 'dns' | 'conn' | 'tls' | 'blocked' | 'invalid_url'

export type OutboundResult =
  | {
      kind: 'response'
      status: number
      retryAfter: string | null
      headers: Record<string, string | string[] | undefined>
      body: string
      /** The body was longer than the limit and was cut off. */
      truncated: boolean
      durationMs: number
    }
  | { kind: 'error'; error: OutboundErrorKind; message: string; durationMs: number }

export interface OutboundHttp {
  send(call: OutboundCall): Promise<OutboundResult>
  /** A JSON POST whose answer is kept to its first 20 KiB (the webhook attempt log). */
  post(req: OutboundRequest): Promise<OutboundResult>
  get(req: OutboundGet): Promise<OutboundResult>
}

/** How much of a response body is kept for the attempt log. */
export const maxResponseBodyBytes = 20 * 1024

/** Headers the client always sets itself; a caller's value for them is dropped. */
export const clientSetHeaders = ['content-type', 'content-length', 'user-agent', 'host'] as const
const ownHeaders = new Set<string>(clientSetHeaders)

export function createOutboundHttp(opts: {
  allowPrivateNetwork: boolean
  userAgent: string
  /** Loopback origins reachable although private addresses are refused (the demo's webhook URL). */
  loopbackOrigins?: readonly string[]
}): OutboundHttp {
  const filter = {
    keepAlive: true,
    allowPrivateIPAddress: opts.allowPrivateNetwork,
    allowMetaIPAddress: opts.allowPrivateNetwork,
  }
  const agents = {
    http: new RequestFilteringHttpAgent(filter),
    https: new RequestFilteringHttpsAgent(filter),
  }
  // request-filtering-agent refuses what ipaddr.js does not call unicast; isPublicAddress refuses more
  // (the IPv4-compatible forms of private addresses), for names (the lookup) and literals alike.
  const lookup = opts.allowPrivateNetwork ? undefined : publicOnlyLookup()
  // An allowed loopback origin goes through agents that filter nothing, with a lookup that accepts
  // loopback addresses only: that one origin on this machine, nothing else private.
  const loopbackOrigins = opts.allowPrivateNetwork ? [] : (opts.loopbackOrigins ?? [])
  const loopback = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
    lookup: loopbackOnlyLookup(),
  }

  const send = (call: OutboundCall): Promise<OutboundResult> => {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const failure = (error: OutboundErrorKind, message: string): OutboundResult => ({
      kind: 'error',
      error,
      message,
      durationMs: elapsed(),
    })

    const url = URL.canParse(call.url) ? new URL(call.url) : null
    if (url === null) return Promise.resolve(failure('invalid_url', 'the URL cannot be parsed'))
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.resolve(failure('invalid_url', `protocol ${url.protocol} is not http or https`))
    }
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value))
    }
    const onLoopback = isAllowedLoopback(url.href, loopbackOrigins)
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1')
    if (lookup && !onLoopback && isIP(literal) !== 0 && !isPublicAddress(literal)) {
      return Promise.resolve(failure('blocked', `${literal} is not a public address; the call was not made`))
    }

    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(call.headers ?? {})) {
      if (!ownHeaders.has(name.toLowerCase())) headers[name] = value
    }
    const body = call.body ?? null
    if (body !== null) {
      headers['content-type'] = call.contentType ?? 'application/json'
      headers['content-length'] = String(Buffer.byteLength(body))
    }
    headers['user-agent'] = opts.userAgent
    const deadline = AbortSignal.timeout(call.timeoutMs)
    const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline
    if (signal.aborted) return Promise.resolve(aborted(signal, call.timeoutMs, failure))

    return new Promise<OutboundResult>((resolve) => {
      let settled = false
      let request: http.ClientRequest | undefined
      const settle = (result: OutboundResult) => {
        if (settled) return
        settled = true
        signal.removeEventListener('abort', onAbort)
        resolve(result)
      }
      function onAbort() {
        settle(aborted(signal, call.timeoutMs, failure))
        request?.destroy()
      }
      signal.addEventListener('abort', onAbort)

      try {
        const transport = url.protocol === 'https:' ? https : http
        const pool = onLoopback ? loopback : agents
        const agent = url.protocol === 'https:' ? pool.https : pool.http
        const lookupFor = onLoopback ? loopback.lookup : lookup
        request = transport.request(
          url,
          { method: call.method, headers, agent, lookup: lookupFor },
          (res) => {
            const chunks: Buffer[] = []
            let size = 0
            let truncated = false
            const done = () => {
              const retryAfter = res.headers['retry-after'] ?? null
              // A decoder without end() drops a multi-byte character cut in half at the limit.
              const text = new StringDecoder('utf8').write(Buffer.concat(chunks))
              settle({
                kind: 'response',
                status: res.statusCode ?? 0,
                retryAfter,
                headers: res.headers,
                body: text,
                truncated,
                durationMs: elapsed(),
              })
            }
            res.on('data', (chunk: Buffer) => {
              const room = call.maxBodyBytes - size
              if (chunk.length <= room) {
                chunks.push(chunk)
                size += chunk.length
                return
              }
              // Only data beyond the limit cuts the body: one exactly at the limit is whole.
              if (room > 0) chunks.push(chunk.subarray(0, room))
              size = call.maxBodyBytes
              truncated = true
              done()
              res.destroy()
            })
            // The status decides the outcome; a body cut short by the receiver still counts as a response.
            res.on('end', done)
            res.on('close', done)
            res.on('error', done)
          },
        )
      } catch (err) {
        settle(failure(classify(err), messageOf(err)))
        return
      }
      request.on('error', (err) => settle(failure(classify(err), messageOf(err))))
      request.end(body ?? undefined)
    })
  }

  return {
    send,
    post: (req) =>
      send({
        method: 'POST',
        url: req.url,
        headers: req.headers,
        body: req.body,
        timeoutMs: req.timeoutMs,
        maxBodyBytes: maxResponseBodyBytes,
      }),
    get: (req) =>
      send({
        method: 'GET',
        url: req.url,
        headers: req.headers,
        timeoutMs: req.timeoutMs,
        maxBodyBytes: req.maxBodyBytes,
      }),
  }
}

/** The failure of a call whose signal fired: its own budget ran out, or the caller gave it up. */
function aborted(
  signal: AbortSignal,
  timeoutMs: number,
  failure: (error: OutboundErrorKind, message: string) => OutboundResult,
): OutboundResult {
  const reason: unknown = signal.reason
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError'
  return timedOut
    ? failure('timeout', `timeout after ${timeoutMs} ms`)
    : failure(
        'aborted',
        `the call was given up: ${reason instanceof Error ? reason.message : String(reason)}`,
      )
}

/** request-filtering-agent refuses an address with a plain Error (no code) worded like this. */
const blockedMessage = /^DNS lookup .* is not allowed\. Because/

function classify(err: unknown): OutboundErrorKind {
  const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : ''
  if (code === blockedCode || (code === '' && blockedMessage.test(messageOf(err)))) return 'blocked'
  if (code === 'ERR_INVALID_URL' || code === 'ERR_INVALID_PROTOCOL') return 'invalid_url'
  if (code === 'ENOTFOUND' || code.startsWith('EAI_')) return 'dns'
  // EPROTO is OpenSSL failing the handshake, e.g. https to a server that speaks plain HTTP.
  if (code === 'EPROTO' || /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code))
    return 'tls'
  return 'conn'
}

function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const code = 'code' in err && typeof err.code === 'string' ? `${err.code}: ` : ''
  return `${code}${err.message}`
}
