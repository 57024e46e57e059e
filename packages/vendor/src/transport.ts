// The fetch every call of the client goes through: the bearer token on the calls that take one, an
// Idempotency-Key on every write (one per logical call, the same on each of its retries), and the
// retries themselves (retry.ts). The alert calls carry their credentials in the body and no token;
// the token request carries neither a token nor a key (docs/contract.md#authentication).
import { randomUUID } from 'node:crypto'
import { type RetryOptions, withRetries } from './retry.js'
import type { TokenSource } from './token.js'

export type Fetch = (request: Request) => Promise<Response>

export interface TransportOptions {
  baseUrl: string
  tokens: TokenSource
  fetch?: Fetch
  retry?: RetryOptions
  /** A new Idempotency-Key (default: a random UUID). */
  idempotencyKey?: () => string
  userAgent?: string
}

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const tokenPath = '/api/oauth/token'
/** The alert calls: body credentials, no bearer token. */
const alertPost = /^\/api\/oem-alerts-api\/alerts?(\/sync)?\/?$/

/** How a call authenticates, by its path under the base URL. */
export function authOf(method: string, path: string): 'none' | 'body' | 'bearer' {
  if (path === tokenPath) return 'none'
  if (method === 'POST' && alertPost.test(path)) return 'body'
  return 'bearer'
}

/** The path of `url` under `baseUrl` (`/api/…`). */
function pathUnder(baseUrl: string, url: string): string {
  const base = new URL(baseUrl)
  const path = new URL(url).pathname
  const prefix = base.pathname.replace(/\/+$/, '')
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path
}

export function transport(o: TransportOptions): Fetch {
  const send: Fetch = o.fetch ?? ((request) => globalThis.fetch(request))
  const newKey = o.idempotencyKey ?? randomUUID
  return async (input: Request) => {
    const auth = authOf(input.method, pathUnder(o.baseUrl, input.url))
    const headers = new Headers(input.headers)
    if (o.userAgent && !headers.has('user-agent')) headers.set('user-agent', o.userAgent)
    if (writes.has(input.method) && auth !== 'none' && !headers.has('idempotency-key'))
      headers.set('idempotency-key', newKey())
    const request = new Request(input, { headers })
    if (auth !== 'bearer') return withRetries(request, send, o.retry)

    // A token refused (revoked, its secret rotated out, expired early) is replaced once.
    let renewed = false
    for (;;) {
      let used = ''
      const response = await withRetries(
        request,
        async (attempt) => {
          used = await o.tokens.get()
          attempt.headers.set('authorization', `Bearer ${used}`)
          return send(attempt)
        },
        o.retry,
      )
      if (response.status !== 401 || renewed) return response
      renewed = true
      o.tokens.invalidate(used)
      await response.body?.cancel().catch(() => {})
    }
  }
}
