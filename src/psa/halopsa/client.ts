// One HaloPSA connection on the wire (docs/psa/halopsa.md): the authorisation server found from
// {baseUrl}/api/authinfo (kept six hours; {baseUrl}/auth when the answer names none), OAuth2 client
// credentials posted as a form to {auth}/token (with ?tenant= where the instance needs one), the bearer
// token kept by the shared TokenCache (renewed before it expires, fetched again after a 401), and
// lists read page by page with pageinate/page_size/page_no until record_count is reached.
import type { Static } from 'typebox'
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import { sameOrigin } from '../core/explain.js'
import type { PsaHttp, PsaResponse } from '../core/http.js'
import { type Token, TokenCache } from '../core/token.js'
import type { HaloPsaSettings } from './settings.js'

type Settings = Static<typeof HaloPsaSettings>
type Query = Record<string, string | number | boolean | undefined>
export type HaloItem = Record<string, unknown>

export const psaName = 'HaloPSA'
/**
 * Halo documents no lengths (its swagger gives none for Faults.summary, Faults.details or Actions.note,
 * while it does for other schemas' fields). The summary is kept to 250 characters: it is a one-line
 * subject shown in lists and e-mail subjects, and 255 is the width such short texts are believed to
 * have (a guess). Details and notes are capped at 100,000 characters (a guess as well: enough for any
 * alert, and a bounded request).
 */
export const limits = { title: 250, description: 100_000, note: 100_000 }
/** Halo pages hold at most 100 records (its Tickets documentation says so; other lists follow it). */
export const pageSize = 100
/** Where a token's life is not said: Halo's tokens last an hour. */
const defaultTokenLifeSeconds = 3600
/** Every call of a connection shares one bulkhead: Halo counts requests per instance, not per endpoint. */
const endpoint = 'halo'

export interface AuthServer {
  /** The authorisation server's root, e.g. https://acme.halopsa.com/auth (on baseUrl's host). */
  url: string
  tenant: string | null
}

export class HaloClient {
  readonly root: string
  private readonly auth = new CachedResult<AuthServer>(6 * 60 * 60 * 1000)
  private readonly tokens: TokenCache

  constructor(
    private readonly http: PsaHttp,
    s: Settings,
  ) {
    this.root = s.baseUrl.replace(/\/+$/, '')
    this.tokens = new TokenCache({ fetch: (call) => this.fetchToken(call, s) })
  }

  /** The authorisation server, as /api/authinfo names it; `fresh` asks again. */
  authServer(call: PsaCall, fresh = false): Promise<PsaResult<AuthServer>> {
    return this.auth.get(
      async (own) => {
        const res = await this.http.request(
          { method: 'GET', url: `${this.root}/api/authinfo`, headers: {}, endpoint },
          own,
        )
        // Trouble reaching the instance is passed on; any other answer without a usable auth_url
        // (a 404 on older versions, an HTML page, odd keys) means Halo's default, {baseUrl}/auth.
        if (!res.ok && ['unreachable', 'timeout', 'rate-limited'].includes(res.failure.kind)) return res
        const info = res.ok ? res.value.body : null
        const named = stringAt(info, ['auth_url', 'authurl', 'authorisation_server', 'authorization_server'])
        const tenant = stringAt(info, ['tenant_id', 'tenant'])
        // The instance's host always: baseUrl replaces discovered hosts (simulators, on premise; see
        // docs/decisions/psa/psa-tokens.md), and the client secret never goes to a host the partner did not
        // name.
        const url = named && URL.canParse(named) ? sameOrigin(named, this.root) : `${this.root}/auth`
        return { ok: true, value: { url: url.replace(/\/+$/, ''), tenant } }
      },
      call,
      fresh,
    )
  }

  /** A token now (fetched unless one is held); the connection test's check of the credentials. */
  token(call: PsaCall): Promise<PsaResult<string>> {
    return this.tokens.get(call)
  }

  /** One call under {baseUrl}/api with the bearer token (a refused token is renewed once). */
  api(
    method: 'GET' | 'POST',
    path: string,
    call: PsaCall,
    o: { query?: Query; body?: unknown } = {},
  ): Promise<PsaResult<PsaResponse>> {
    return this.tokens.send(call, (token) =>
      this.http.request(
        {
          method,
          url: `${this.root}/api${path}`,
          query: o.query,
          body: o.body,
          headers: { authorization: `Bearer ${token}` },
          endpoint,
        },
        call,
      ),
    )
  }

  /** Every record of a list, page after page (1-based), until record_count or a short page. */
  async all(path: string, key: string, call: PsaCall, query: Query = {}): Promise<PsaResult<HaloItem[]>> {
    const items: HaloItem[] = []
    const seen = new Set<string>()
    for (let page = 1; page <= 10_000; page++) {
      const res = await this.api('GET', path, call, {
        query: { ...query, pageinate: true, page_size: pageSize, page_no: page },
      })
      if (!res.ok) return res
      const { list, total } = listOf(res.value.body, key)
      let added = 0
      for (const item of list) {
        // A server that ignores the paging answers the same records again: they end the list.
        const id = item.id === undefined ? null : String(item.id)
        if (id !== null && seen.has(id)) continue
        if (id !== null) seen.add(id)
        items.push(item)
        added++
      }
      if (added === 0 || list.length < pageSize || (total !== null && items.length >= total)) break
    }
    return { ok: true, value: items }
  }

  private async fetchToken(call: PsaCall, s: Settings): Promise<PsaResult<Token>> {
    const auth = await this.authServer(call)
    if (!auth.ok) return auth
    const tenant = s.tenant ?? auth.value.tenant
    // A form, as OAuth2's token endpoint takes it.
    const res = await this.http.request(
      {
        method: 'POST',
        url: `${auth.value.url}/token`,
        query: tenant ? { tenant } : undefined,
        headers: {},
        form: {
          grant_type: 'client_credentials',
          client_id: s.clientId,
          client_secret: s.clientSecret,
          scope: 'all',
        },
        endpoint,
      },
      call,
    )
    if (!res.ok) return { ok: false, failure: tokenFailure(res.failure, auth.value.url) }
    const body = res.value.body as { access_token?: unknown; expires_in?: unknown } | null
    if (typeof body?.access_token !== 'string' || body.access_token === '') {
      return {
        ok: false,
        failure: {
          kind: 'rejected',
          retryable: false,
          message: `the authorisation server at ${auth.value.url} answered no access_token`,
        },
      }
    }
    const life = Number(body.expires_in)
    const seconds = Number.isFinite(life) && life > 0 ? life : defaultTokenLifeSeconds
    return { ok: true, value: { value: body.access_token, expiresAt: Date.now() + seconds * 1000 } }
  }
}

/** The token endpoint refuses a client with 400 or 401 (OAuth2's invalid_client): the credentials. */
function tokenFailure(f: PsaFailure, authUrl: string): PsaFailure {
  if (f.status === 400 || f.status === 401) return { ...f, kind: 'auth', retryable: false }
  if (f.kind === 'not-found')
    return { ...f, message: `the authorisation server at ${authUrl} has no token endpoint (${f.message})` }
  return f
}

/** A list answer: `{record_count, <key>: [...]}`, another wrapper, or a bare array. */
export function listOf(body: unknown, key: string): { list: HaloItem[]; total: number | null } {
  if (Array.isArray(body)) return { list: body.filter(isItem), total: null }
  if (!isItem(body)) return { list: [], total: null }
  const entries = Object.entries(body)
  const named = entries.find(([k, v]) => k.toLowerCase() === key && Array.isArray(v))
  const any = named ?? entries.find(([, v]) => Array.isArray(v))
  const total = entries.find(([k]) => k.toLowerCase() === 'record_count')?.[1]
  return {
    list: Array.isArray(any?.[1]) ? (any[1] as unknown[]).filter(isItem) : [],
    total: typeof total === 'number' ? total : null,
  }
}

/** One record of an answer that may be the record, an array holding it, or a wrapper of such an array. */
export function firstOf(body: unknown, key: string): HaloItem | null {
  if (Array.isArray(body)) return body.find(isItem) ?? null
  if (!isItem(body)) return null
  if (body.id !== undefined) return body
  return listOf(body, key).list[0] ?? null
}

export const isItem = (v: unknown): v is HaloItem => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The first of `keys` (any case) holding a non-empty string. */
function stringAt(body: unknown, keys: string[]): string | null {
  if (!isItem(body)) return null
  for (const [k, v] of Object.entries(body))
    if (keys.includes(k.toLowerCase()) && typeof v === 'string' && v.trim() !== '') return v.trim()
  return null
}

/**
 * Halo's error text. Its API documents none: answers seen are plain text (which the core reads), a JSON
 * string, `{message}` / `{Message}`, OAuth2's `{error, error_description}`, and ASP.NET validation
 * `{title, errors: {field: [..]}}` or `{errors: [..]}`. Null when the body has none of them.
 */
export function haloErrorText(body: unknown): string | null {
  if (!isItem(body)) return null
  const lower = Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]))
  const parts: string[] = []
  for (const key of ['error', 'message', 'error_description', 'title', 'detail']) {
    const v = lower[key]
    if (typeof v === 'string' && v.trim() !== '' && !parts.includes(v.trim())) parts.push(v.trim())
  }
  const errors = lower.errors
  const listed = Array.isArray(errors) ? errors : isItem(errors) ? Object.values(errors).flat() : []
  for (const e of listed) {
    const text = typeof e === 'string' ? e : isItem(e) ? e.message : null
    if (typeof text === 'string' && text !== '') parts.push(text)
  }
  return parts.length > 0 ? parts.join(': ') : null
}
