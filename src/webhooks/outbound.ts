// The outbound HTTP sender (DESIGN §4, reference/webhooks.md §7.4 and §7.10): webhook POSTs and the
// vendor catalogue's GET. One request, no redirects, a total timeout, a capped response body, and
// private addresses refused at connect time.
import { lookup as dnsLookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { performance } from 'node:perf_hooks'
import { StringDecoder } from 'node:string_decoder'
import ipaddr from 'ipaddr.js'
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent'

export interface OutboundRequest {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

export type OutboundErrorKind = 'timeout' | 'dns' | 'conn' | 'tls' | 'blocked' | 'invalid_url'

export interface OutboundGet {
  url: string
  headers: Record<string, string>
  timeoutMs: number
  /** Keep at most this much of the body; more is cut off and `truncated` is set. */
  maxBodyBytes: number
}

export type OutboundResult =
  | {
      kind: 'response'
      status: number
      retryAfter: string | null
      body: string
      /** The body was longer than the limit and was cut off. */
      truncated: boolean
      durationMs: number
    }
  | { kind: 'error'; error: OutboundErrorKind; message: string; durationMs: number }

export interface OutboundHttp {
  /** A JSON POST (webhooks); the first 20 KiB of the answer are kept. */
  post(req: OutboundRequest): Promise<OutboundResult>
  get(req: OutboundGet): Promise<OutboundResult>
}

/** How much of a response body is kept for the attempt log. */
export const maxResponseBodyBytes = 20 * 1024

/** Headers the sender always sets itself; a caller's value for them is dropped. */
const ownHeaders = new Set(['content-type', 'content-length', 'user-agent', 'host'])

export function createOutboundHttp(opts: { allowPrivateNetwork: boolean; userAgent: string }): OutboundHttp {
  const filter = {
    keepAlive: true,
    allowPrivateIPAddress: opts.allowPrivateNetwork,
    allowMetaIPAddress: opts.allowPrivateNetwork,
  }
  const agents = {
    http: new RequestFilteringHttpAgent(filter),
    https: new RequestFilteringHttpsAgent(filter),
  }

  const send = (
    method: 'GET' | 'POST',
    target: string,
    given: Record<string, string>,
    body: string | null,
    timeoutMs: number,
    maxBodyBytes: number,
  ): Promise<OutboundResult> => {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const failure = (error: OutboundErrorKind, message: string): OutboundResult => ({
      kind: 'error',
      error,
      message,
      durationMs: elapsed(),
    })

    const url = URL.canParse(target) ? new URL(target) : null
    if (url === null) return Promise.resolve(failure('invalid_url', 'the URL cannot be parsed'))
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.resolve(failure('invalid_url', `protocol ${url.protocol} is not http or https`))
    }

    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(given)) {
      if (!ownHeaders.has(name.toLowerCase())) headers[name] = value
    }
    if (body !== null) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = String(Buffer.byteLength(body))
    }
    headers['user-agent'] = opts.userAgent

    return new Promise<OutboundResult>((resolve) => {
      let settled = false
      let timer: NodeJS.Timeout | undefined
      const settle = (result: OutboundResult) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(result)
      }

      let request: http.ClientRequest
      try {
        const transport = url.protocol === 'https:' ? https : http
        const agent = url.protocol === 'https:' ? agents.https : agents.http
        request = transport.request(url, { method, headers, agent }, (res) => {
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
              body: text,
              truncated,
              durationMs: elapsed(),
            })
          }
          res.on('data', (chunk: Buffer) => {
            const room = maxBodyBytes - size
            if (chunk.length <= room) {
              chunks.push(chunk)
              size += chunk.length
              return
            }
            // Only data beyond the limit cuts the body: one exactly at the limit is whole.
            if (room > 0) chunks.push(chunk.subarray(0, room))
            size = maxBodyBytes
            truncated = true
            done()
            res.destroy()
          })
          // The status decides the outcome; a body cut short by the receiver still counts as a response.
          res.on('end', done)
          res.on('close', done)
          res.on('error', done)
        })
      } catch (err) {
        settle(failure(classify(err), messageOf(err)))
        return
      }

      timer = setTimeout(() => {
        settle(failure('timeout', `timeout after ${timeoutMs} ms`))
        request.destroy()
      }, timeoutMs)
      request.on('error', (err) => settle(failure(classify(err), messageOf(err))))
      request.end(body ?? undefined)
    })
  }

  return {
    post: (req) => send('POST', req.url, req.headers, req.body, req.timeoutMs, maxResponseBodyBytes),
    get: (req) => send('GET', req.url, req.headers, null, req.timeoutMs, req.maxBodyBytes),
  }
}

/** request-filtering-agent refuses an address with a plain Error (no code) worded like this. */
const blockedMessage = /^DNS lookup .* is not allowed\. Because/

function classify(err: unknown): OutboundErrorKind {
  const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : ''
  if (code === '' && blockedMessage.test(messageOf(err))) return 'blocked'
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

/**
 * Checked when a URL is configured: http(s) only, https required unless allowPrivateNetwork, no userinfo, the
 * host (resolved with dns.lookup all:true, or an IP literal) must be public unicast unless allowPrivateNetwork.
 */
export async function checkOutboundUrl(
  url: string,
  opts: { allowPrivateNetwork: boolean; lookup?: (host: string) => Promise<string[]> },
): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!URL.canParse(url)) return { ok: false, reason: 'the URL cannot be parsed' }
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { ok: false, reason: `protocol ${parsed.protocol} is not allowed; use https` }
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'the URL must not carry a user name or password' }
  }
  if (opts.allowPrivateNetwork) return { ok: true }
  if (parsed.protocol !== 'https:') return { ok: false, reason: 'https is required' }

  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: string[]
  if (isIP(host) !== 0) {
    addresses = [host]
  } else {
    try {
      addresses = await (opts.lookup ?? lookupAll)(host)
    } catch {
      // A name that does not resolve yet is no threat: every connection checks the address again.
      addresses = []
    }
  }
  const refused = addresses.find((a) => !isPublicAddress(a))
  if (refused !== undefined) {
    const via = refused === host ? '' : ` (${host} resolves to it)`
    return { ok: false, reason: `${refused} is not a public address${via}` }
  }
  return { ok: true }
}

async function lookupAll(host: string): Promise<string[]> {
  const found = await dnsLookup(host, { all: true })
  return found.map((a) => a.address)
}

/**
 * Pure: whether an IP address (v4 or v6, incl. IPv4-mapped v6) is public unicast. Uses ipaddr.js range(): only
 * 'unicast' is public, so IPv4-mapped IPv6 addresses are never public (as at connect time).
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false
  return ipaddr.parse(ip).range() === 'unicast'
}
