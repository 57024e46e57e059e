// One ConnectWise connection on the wire (docs/psa/connectwise.md): the codebase discovered from
// /login/companyinfo/{companyId} (and found again after a 404: cloud codebases move on upgrades; a
// server without company info, as some on-premise ones, gets the default v4_6_release/), Basic auth
// with "{companyId}+{publicKey}:{privateKey}" and the clientId header on every call, and lists read
// through every page (pageSize 1000, following the Link header's rel="next" on our own host).
import type { Static } from 'typebox'
import { uriComponent } from '../../platform/core/text.js'
import type { PsaCall, PsaResult } from '../adapter.js'
import { CachedResult } from '../core/connections.js'
import { sameOrigin } from '../core/explain.js'
import type { PsaHttp, PsaResponse } from '../core/http.js'
import type { ConnectWiseSettings } from './settings.js'

type Settings = Static<typeof ConnectWiseSettings>
type Query = Record<string, string | number | undefined>
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** Responses in a known model version, whatever the server's current one. */
const accept = 'application/vnd.connectwise.com+json; version=2022.1'
const pageSize = 1000
const defaultCodebase = 'v4_6_release/'
/** ConnectWise cloud sites and their API hosts (the web host names a region; the API has its own). */
const cloudApiHost = /^(na|eu|au|aus|za)\.myconnectwise\.net$/i

/** The site's root URL: `baseUrl` as given, else the site's API host over https. */
export function rootOf(s: Settings): string {
  if (s.baseUrl) return s.baseUrl.replace(/\/+$/, '')
  if (!s.site) return ''
  return `https://${cloudApiHost.test(s.site) ? `api-${s.site.toLowerCase()}` : s.site}`
}

/**
 * The origins that are the connection's own ConnectWise: the root's, and for a cloud site's API host
 * (api-na.myconnectwise.net) its web host (na.myconnectwise.net) over https.
 */
export function ownOrigins(root: string): string[] {
  if (!URL.canParse(root)) return []
  const r = new URL(root)
  const cloud = /^api-([a-z]+)\.myconnectwise\.net$/i.exec(r.hostname)
  const web =
    cloud && r.protocol === 'https:' && r.port === ''
      ? [`https://${cloud[1]?.toLowerCase()}.myconnectwise.net`]
      : []
  return [r.origin, ...web]
}

export class ConnectWiseClient {
  private readonly codebase = new CachedResult<string>(6 * 60 * 60 * 1000)
  readonly root: string

  constructor(
    private readonly http: PsaHttp,
    private readonly s: Settings,
  ) {
    this.root = rootOf(s)
  }

  /** The codebase discovered so far, if any (no call). */
  knownCodebase(): string | null {
    return this.codebase.peek()
  }

  /** The codebase (e.g. `v4_6_release/`): the setting, else the site's company info; `fresh` asks again. */
  discover(call: PsaCall, fresh = false): Promise<PsaResult<string>> {
    if (this.s.codebase) return Promise.resolve({ ok: true, value: withSlash(this.s.codebase) })
    return this.codebase.get(
      async (own) => {
        const res = await this.http.request(
          {
            method: 'GET',
            url: `${this.root}/login/companyinfo/${uriComponent(this.s.companyId)}`,
            headers: { clientId: this.s.clientId },
            endpoint: 'all',
          },
          own,
        )
        // No company-info page (some on-premise servers): the default codebase.
        if (!res.ok) return res.failure.kind === 'not-found' ? { ok: true, value: defaultCodebase } : res
        const info = res.value.body as { Codebase?: unknown } | null
        if (info && typeof info.Codebase === 'string' && info.Codebase !== '')
          return { ok: true, value: withSlash(info.Codebase) }
        return {
          ok: false,
          failure: {
            kind: 'auth',
            retryable: false,
            message: `ConnectWise at ${this.root} does not know company id '${this.s.companyId}'`,
          },
        }
      },
      call,
      fresh,
    )
  }

  /** One API call under /{codebase}apis/3.0; a 404 looks the codebase up again and retries once if it moved. */
  async api(
    method: Method,
    path: string,
    call: PsaCall,
    o: { query?: Query; body?: unknown } = {},
  ): Promise<PsaResult<PsaResponse>> {
    const codebase = await this.discover(call)
    if (!codebase.ok) return codebase
    const res = await this.send(method, `${this.root}/${codebase.value}apis/3.0${path}`, call, o)
    if (res.ok || res.failure.kind !== 'not-found') return res
    const again = await this.discover(call, true)
    if (!again.ok || again.value === codebase.value) return res
    return this.send(method, `${this.root}/${again.value}apis/3.0${path}`, call, o)
  }

  /** Every item of a list, page after page. */
  async all<T>(path: string, call: PsaCall, query: Query = {}): Promise<PsaResult<T[]>> {
    const items: T[] = []
    let res = await this.api('GET', path, call, { query: { ...query, page: 1, pageSize } })
    for (let page = 1; page <= 100_000; page++) {
      if (!res.ok) return res
      const batch = Array.isArray(res.value.body) ? (res.value.body as T[]) : []
      items.push(...batch)
      const next = nextLink(res.value.headers.link)
      if (next) res = await this.send('GET', sameOrigin(next, this.root), call, {})
      else if (batch.length === pageSize && res.value.headers.link === undefined)
        res = await this.api('GET', path, call, { query: { ...query, page: page + 1, pageSize } })
      else return { ok: true, value: items }
    }
    return { ok: true, value: items }
  }

  /**
   * A GET of a URL ConnectWise named (a callback's key_url, checked by callback-keys.ts), only on this
   * connection's own host (ownOrigins): the credentials never go anywhere else. null: another origin
   * (nothing is sent).
   */
  getOwn(url: string, call: PsaCall): Promise<PsaResult<PsaResponse>> | null {
    if (!URL.canParse(url) || !ownOrigins(this.root).includes(new URL(url).origin)) return null
    return this.send('GET', url, call, {})
  }

  private send(
    method: Method,
    url: string,
    call: PsaCall,
    o: { query?: Query; body?: unknown },
  ): Promise<PsaResult<PsaResponse>> {
    const key = Buffer.from(`${this.s.companyId}+${this.s.publicKey}:${this.s.privateKey}`).toString('base64')
    return this.http.request(
      {
        method,
        url,
        query: o.query,
        body: o.body,
        headers: { authorization: `Basic ${key}`, clientId: this.s.clientId, accept },
        endpoint: 'all',
      },
      call,
    )
  }
}

const withSlash = (codebase: string) => (codebase.endsWith('/') ? codebase : `${codebase}/`)

/** The URL of the Link header's rel="next", if any. */
export function nextLink(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header.join(',') : header
  if (!value) return null
  for (const part of value.split(/,(?=\s*<)/)) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part)
    if (m?.[1]) return m[1]
  }
  return null
}

/** ConnectWise's error text: `message` and each of `errors[].message`. */
export function connectWiseErrorText(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null
  const b = body as { message?: unknown; errors?: unknown }
  const parts: string[] = []
  if (typeof b.message === 'string' && b.message) parts.push(b.message)
  if (Array.isArray(b.errors)) {
    for (const e of b.errors) {
      if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string')
        parts.push((e as { message: string }).message)
    }
  }
  return parts.length > 0 ? parts.join(': ') : null
}
