// One Syncro connection on the wire (docs/psa/syncro.md): the account's root from baseUrl or
// subdomain, the API at {root}/api/v1, the API token in the Authorization header (never `?api_key=`,
// which Syncro still takes but which ends up in every access log on the way), lists read page after
// page (`page` is 1-based, 25 a page) until `meta.total_pages`, and Syncro's error bodies read in each
// of the shapes it answers with. Every call first asks whether a 429 paused calls to this Syncro
// (limits.ts), and a 429 it gets pauses them for every connection of the process.
import type { Static } from 'typebox'
import type { PsaCall, PsaResult } from '../adapter.js'
import type { PsaHttp, PsaResponse } from '../core/http.js'
import type { SyncroLimits } from './limits.js'
import type { SyncroSettings } from './settings.js'

type Settings = Static<typeof SyncroSettings>
type Query = Record<string, string | number | undefined>
type Method = 'GET' | 'POST' | 'PUT'

/** Syncro's documented page size. */
export const pageSize = 25
/** Pages read at most for one list (25 × 2,000 entries). */
const maxPages = 2000

/** The account's root: `baseUrl` as given (without a trailing /api/v1), else the subdomain's host. */
export function rootOf(s: Settings): string {
  if (s.baseUrl) return s.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/i, '')
  return s.subdomain ? `https://${s.subdomain.toLowerCase()}.syncromsp.com` : ''
}

/**
 * How the token goes in the Authorization header: `Bearer {token}` as Syncro's API docs say, or the raw
 * token, which older accounts and public clients use. A 401 tries the other way once; the one that
 * worked is kept for the connection's next calls.
 */
type Scheme = 'bearer' | 'raw'

export class SyncroClient {
  readonly root: string
  private scheme: Scheme = 'bearer'

  constructor(
    private readonly http: PsaHttp,
    private readonly s: Settings,
    private readonly limits: SyncroLimits,
  ) {
    this.root = rootOf(s)
  }

  /** One call to {root}/api/v1{path}. */
  async api(
    method: Method,
    path: string,
    call: PsaCall,
    o: { query?: Query; body?: unknown } = {},
  ): Promise<PsaResult<PsaResponse>> {
    const scheme = this.scheme
    const first = await this.send(method, path, call, o, scheme)
    if (first.ok || first.failure.kind !== 'auth') return first
    // A refused request changed nothing: sending it again the other way is safe, even a POST.
    const other: Scheme = scheme === 'bearer' ? 'raw' : 'bearer'
    const again = await this.send(method, path, call, o, other)
    if (again.ok || again.failure.kind !== 'auth') {
      this.scheme = other
      return again
    }
    return first
  }

  /**
   * Every item of a list under `key`, page after page: until `meta.total_pages` where Syncro gives it,
   * else until a page is empty, shorter than the ones before, or only repeats what was read.
   */
  async all<T>(
    path: string,
    key: string,
    call: PsaCall,
    query: Query = {},
    pages = maxPages,
  ): Promise<PsaResult<T[]>> {
    const items: T[] = []
    const seen = new Set<string>()
    let longest = 0
    for (let page = 1; page <= pages; page++) {
      const res = await this.api('GET', path, call, { query: { ...query, page } })
      if (!res.ok) return res
      const batch = listOf<T>(res.value.body, key)
      const fresh = batch.filter((item) => {
        const id = (item as { id?: unknown } | null)?.id
        if (id === undefined || id === null) return true
        if (seen.has(String(id))) return false
        seen.add(String(id))
        return true
      })
      items.push(...fresh)
      const total = totalPages(res.value.body)
      if (total !== null) {
        if (page >= total || batch.length === 0) break
        continue
      }
      // No meta: a server that ignores `page` answers the first page again; an empty or short page is the last.
      if (batch.length === 0 || fresh.length === 0 || batch.length < longest) break
      longest = Math.max(longest, batch.length)
    }
    return { ok: true, value: items }
  }

  private async send(
    method: Method,
    path: string,
    call: PsaCall,
    o: { query?: Query; body?: unknown },
    scheme: Scheme,
  ): Promise<PsaResult<PsaResponse>> {
    const paused = this.limits.refusal(this.root)
    if (paused) return { ok: false, failure: paused }
    const res = await this.http.request(
      {
        method,
        url: `${this.root}/api/v1${path}`,
        query: o.query,
        body: o.body,
        headers: {
          authorization: scheme === 'bearer' ? `Bearer ${this.s.apiToken}` : this.s.apiToken,
          ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        endpoint: 'all',
      },
      call,
    )
    // Syncro itself refused for the address (429), or asked to wait (503 with Retry-After): every
    // connection to it waits. Our own limits' refusals carry no status and are not Syncro's.
    const f = res.ok ? null : res.failure
    if (f?.status !== undefined && f.retryAfterMs && (f.status === 429 || f.throttled))
      this.limits.refused(this.root, f.retryAfterMs, f.throttled === true)
    return res
  }
}

/** The list under `key` of a page (or the page itself, where a server answers a bare array). */
export function listOf<T>(body: unknown, key: string): T[] {
  if (Array.isArray(body)) return body as T[]
  const list = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined
  return Array.isArray(list) ? (list as T[]) : []
}

/** `meta.total_pages`, or null when the page carries none. */
export function totalPages(body: unknown): number | null {
  if (!body || typeof body !== 'object') return null
  const meta = (body as { meta?: unknown }).meta
  if (!meta || typeof meta !== 'object') return null
  const total = Number((meta as { total_pages?: unknown }).total_pages)
  return Number.isFinite(total) ? total : null
}

/** The object under `key` (`{ticket: {...}}`), or the body itself where a server answers it bare. */
export function itemOf<T extends object>(body: unknown, key: string): T | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null
  const inner = (body as Record<string, unknown>)[key]
  if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner as T
  return 'id' in body ? (body as T) : null
}

/**
 * Syncro's error text, in each shape it answers with: Rails' `{errors: {field: [messages]}}` (a field
 * named `base` says the whole record), `{errors: [..]}`, `{message: [..] | ".."}` or `{error: ".."}`.
 */
export function syncroErrorText(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null
  const b = body as { errors?: unknown; message?: unknown; error?: unknown }
  const parts: string[] = []
  const add = (v: unknown, field?: string) => {
    if (typeof v === 'string' && v.trim() !== '') {
      // Full messages name their field already ("Subject can't be blank"); short ones do not.
      const text = v.trim()
      const named = !field || text.toLowerCase().startsWith(field.toLowerCase())
      parts.push(named ? text : `${field} ${text}`)
    } else if (Array.isArray(v)) for (const m of v) add(m, field)
    else if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string')
      add((v as { message: string }).message, field)
  }
  if (Array.isArray(b.errors) || typeof b.errors === 'string') add(b.errors)
  else if (b.errors && typeof b.errors === 'object') {
    for (const [field, messages] of Object.entries(b.errors))
      add(messages, field === 'base' ? undefined : humanize(field))
  }
  add(b.message)
  add(b.error)
  return parts.length > 0 ? parts.join('; ') : null
}

/** `problem_type` → `Problem type`, as Rails words a field in its full messages. */
const humanize = (field: string) => {
  const words = field.replace(/_id$/, '').replace(/_/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
