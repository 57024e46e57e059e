// One NinjaOne connection on the wire (docs/psa/ninjaone.md): the Public API v2 under {baseUrl}/v2 with
// a user's bearer token (renewed from the rotating refresh token, shared across processes:
// core/shared-tokens.ts), organizations read in pages with `after` + `pageSize`, comments sent as
// multipart, and NinjaOne's throttling heard both as a 429 and as an HTML "rate limit" page (a wait).
import { randomUUID } from 'node:crypto'
import type { Static } from 'typebox'
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import type { PsaHttp, PsaResponse } from '../core/http.js'
import { digestOf, type Renewed, SharedTokens } from '../core/shared-tokens.js'
import type { TokenStore } from '../core/token-store.js'
import type { NinjaOneSettings } from './settings.js'

type Settings = Static<typeof NinjaOneSettings>
type Query = Record<string, string | number | boolean | undefined>
export type NinjaItem = Record<string, unknown>

export const psaName = 'NinjaOne'
/** The subject's limit is NinjaOne's own (NewTicket.subject, 200); the bodies' are ours (a guess). */
export const limits = { title: 200, description: 60_000, note: 60_000 }
/** Organizations per page (NinjaOne's pageSize). */
export const pageSize = 200
/** Pages read at most for one list (200,000 organizations). */
const maxPages = 1000
/** A token's life where the answer does not say: NinjaOne's are an hour. */
const defaultTokenLifeSeconds = 3600
/** How long an HTML "rate limit" page, or a 429 without Retry-After, waits. */
export const defaultRetryAfterMs = 10_000
const endpoint = 'ninjaone'

export class NinjaClient {
  readonly root: string
  readonly tokens: SharedTokens

  constructor(
    private readonly http: PsaHttp,
    private readonly s: Settings,
    store: TokenStore,
    partnerId: string,
    /** Pauses the connection (its limiter): an HTML rate-limit page is a wait like a 429's. */
    private readonly pause: (ms: number) => void = () => {},
  ) {
    this.root = s.baseUrl.replace(/\/+$/, '')
    this.tokens = new SharedTokens({
      store,
      key: { partnerId, kind: 'ninjaone' },
      seed: s.refreshToken
        ? {
            refreshToken: s.refreshToken,
            grant: digestOf(this.root, s.clientId, s.refreshToken),
            client: digestOf(s.clientSecret),
          }
        : null,
      refresh: (call, token) => this.refresh(call, token),
      notConnected: {
        kind: 'auth',
        retryable: false,
        message:
          'NinjaOne is not connected to a user yet: use "Connect NinjaOne" in the portal (or give a refreshToken)',
      },
    })
  }

  /** One call under {baseUrl}/v2 with the bearer token (a refused token is renewed once). */
  api(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    call: PsaCall,
    o: { query?: Query; body?: unknown; multipart?: Record<string, string> } = {},
  ): Promise<PsaResult<PsaResponse>> {
    const raw = o.multipart ? multipart(o.multipart) : undefined
    return this.tokens.send(call, async (token) => {
      const res = await this.http.request(
        {
          method,
          url: `${this.root}/v2${path}`,
          query: o.query,
          body: o.body,
          raw,
          headers: { authorization: `Bearer ${token}` },
          endpoint,
        },
        call,
      )
      const page = res.ok ? rateLimitPage(res.value.body) : res.failure.message === rateLimitText
      if (!page) return res
      this.pause(defaultRetryAfterMs)
      return { ok: false, failure: rateLimited() }
    })
  }

  /** A list's items: a bare array, or the array inside a wrapper. */
  async list(path: string, call: PsaCall, query: Query = {}): Promise<PsaResult<NinjaItem[]>> {
    const res = await this.api('GET', path, call, { query })
    return res.ok ? { ok: true, value: itemsOf(res.value.body) } : res
  }

  /** Every item of a list paged with `after` (the last id of the page before) and `pageSize`. */
  async allAfter(path: string, call: PsaCall): Promise<PsaResult<NinjaItem[]>> {
    const items: NinjaItem[] = []
    const seen = new Set<string>()
    let after: string | undefined
    for (let page = 0; page < maxPages; page++) {
      const res = await this.list(path, call, { pageSize, after })
      if (!res.ok) return res
      let added = 0
      for (const item of res.value) {
        const id = idText(item.id)
        if (id === null || seen.has(id)) continue
        seen.add(id)
        items.push(item)
        added++
        after = id
      }
      if (added === 0 || res.value.length < pageSize) break
    }
    return { ok: true, value: items }
  }

  /** Spends the refresh token at {baseUrl}/ws/oauth/token; NinjaOne may answer a new one. */
  private async refresh(call: PsaCall, refreshToken: string): Promise<PsaResult<Renewed>> {
    const res = await this.http.request(
      {
        method: 'POST',
        url: `${this.root}/ws/oauth/token`,
        headers: {},
        form: {
          grant_type: 'refresh_token',
          client_id: this.s.clientId,
          client_secret: this.s.clientSecret,
          refresh_token: refreshToken,
        },
        endpoint,
      },
      call,
    )
    if (!res.ok) return { ok: false, failure: tokenFailure(res.failure) }
    return tokensOf(res.value.body)
  }
}

/** The tokens of a token endpoint's answer. */
export function tokensOf(body: unknown): PsaResult<Renewed> {
  const b = isItem(body) ? body : {}
  if (typeof b.access_token !== 'string' || b.access_token === '')
    return {
      ok: false,
      failure: { kind: 'rejected', retryable: false, message: 'NinjaOne answered no access_token' },
    }
  const life = Number(b.expires_in)
  const seconds = Number.isFinite(life) && life > 0 ? life : defaultTokenLifeSeconds
  return {
    ok: true,
    value: {
      accessToken: b.access_token,
      expiresAt: Date.now() + seconds * 1000,
      refreshToken: typeof b.refresh_token === 'string' && b.refresh_token !== '' ? b.refresh_token : null,
    },
  }
}

/** The token endpoint refuses a grant or a client with 400/401 (OAuth2), an unknown client with 404. */
export function tokenFailure(f: PsaFailure): PsaFailure {
  if (f.status === 400 || f.status === 401)
    return {
      ...f,
      kind: 'auth',
      retryable: false,
      message: `NinjaOne refused the sign-in (${f.message}); connect NinjaOne again in the portal`,
    }
  if (f.status === 404)
    return {
      ...f,
      kind: 'auth',
      retryable: false,
      message: `NinjaOne does not know this client id (${f.message}): check the region's host in baseUrl`,
    }
  return f
}

/** A multipart/form-data body of text parts, each sent as JSON where it is. */
export function multipart(parts: Record<string, string>): { body: string; contentType: string } {
  const boundary = `alertbridge-${randomUUID()}`
  const body = Object.entries(parts)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json\r\n\r\n${value}\r\n`,
    )
    .join('')
  return { body: `${body}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` }
}

const rateLimitText = 'NinjaOne answered a rate-limit page'

/** An HTML page that speaks of a rate limit: NinjaOne's throttling without a 429. */
export function rateLimitPage(body: unknown): boolean {
  return typeof body === 'string' && /^\s*</.test(body) && /rate[\s-]?limit/i.test(body)
}

const rateLimited = (): PsaFailure => ({
  kind: 'rate-limited',
  retryable: true,
  throttled: true,
  retryAfterMs: defaultRetryAfterMs,
  message: rateLimitText,
})

export const isItem = (v: unknown): v is NinjaItem => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The items of a list answer: a bare array, or the first array of a wrapper (`data`, `items`). */
export function itemsOf(body: unknown): NinjaItem[] {
  if (Array.isArray(body)) return body.filter(isItem)
  if (!isItem(body)) return []
  const list = Object.values(body).find(Array.isArray)
  return Array.isArray(list) ? list.filter(isItem) : []
}

/** An id as text: a number or a non-empty string. */
export function idText(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v === 'string' && v.trim() !== '') return v.trim()
  return null
}

/**
 * NinjaOne's error text, in its three shapes: the auth layer's `{error, error_description}`, the
 * application's `{resultCode, errorMessage, incidentId}` (the incident id kept for NinjaOne's
 * support), and billing's `{errorCode, message}`; an HTML rate-limit page is named as such.
 */
export function ninjaErrorText(body: unknown): string | null {
  if (rateLimitPage(body)) return rateLimitText
  if (!isItem(body)) return null
  const parts: string[] = []
  for (const key of ['error_description', 'errorMessage', 'message', 'resultCode', 'error', 'errorCode']) {
    const v = body[key]
    if (typeof v === 'string' && v.trim() !== '' && !parts.includes(v.trim())) parts.push(v.trim())
  }
  if (parts.length === 0) return null
  const incident = typeof body.incidentId === 'string' ? ` (incident ${body.incidentId})` : ''
  return `${parts.join(': ')}${incident}`
}

/** A NinjaOne time as ms since the epoch: its API answers epoch seconds (a double); some clients see
 * milliseconds, told apart by size (seconds reach 1e12 only in the year 33658). */
export function epochMs(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return null
  return n >= 1e12 ? n : n * 1000
}
