// One connection to a PSA on the Kaseya v2 engine (Kaseya BMS, Pulseway PSA) on the wire
// (docs/psa/kaseya-bms.md, docs/psa/pulseway-psa.md): a login at
// /v2/security/authenticate (a form: GrantType=password, UserName, Password, Tenant) gives a JWT and a
// refresh token; the JWT goes as a Bearer header on every call and is renewed before it expires with
// /v2/security/refreshtoken, or by a new login when the refresh is refused. Every answer is an envelope
// whose `success: false` is a failure even at HTTP 200. Lists are read through every page
// (PageSize/PageNumber; whether pages count from 0 or 1 is found out, see `all`). BMS limits requests
// per endpoint per hour: each call names its endpoint, the path with its ids taken out.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import type { PsaHttp } from '../core/http.js'
import type { ConnectionLimiter } from '../core/limiter.js'
import { type Token, TokenCache } from '../core/token.js'
import type { V2Flavour } from './flavour.js'
import type { V2Settings } from './settings.js'
import { envelope, field, refusal, rows, str } from './wire.js'

export type Query = Record<string, string | number | boolean | undefined>
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** What a call answers: the envelope's result, and its record count where BMS gives one. */
export interface Answer {
  result: unknown
  totalRecords: number | null
}

/** BMS's advice: at most 100 records a page. */
export const pageSize = 100
/** A token whose expiry BMS does not say (or says unreadably) is renewed after this long. */
const assumedLifeMs = 20 * 60 * 1000

export class V2Client {
  readonly root: string
  readonly tokens: TokenCache
  /** Where pages start: learned from the first list read through more than one page. */
  private firstPage: 0 | 1 | null = null

  constructor(
    private readonly http: PsaHttp,
    private readonly limiter: ConnectionLimiter,
    private readonly s: V2Settings,
    readonly psa: V2Flavour,
  ) {
    this.root = `${(s.baseUrl ?? psa.defaultHost ?? '').replace(/\/+$/, '')}/v2`
    this.tokens = new TokenCache({ fetch: (call, expiring) => this.token(call, expiring) })
  }

  /** One API call with the Bearer token (a new token and one more try when it is refused). */
  api(method: Method, path: string, call: PsaCall, o: { query?: Query; body?: unknown } = {}) {
    return this.tokens.send(call, async (token): Promise<PsaResult<Answer>> => {
      const res = await this.http.request(
        {
          method,
          url: `${this.root}${path}`,
          query: o.query,
          body: o.body,
          headers: { authorization: `Bearer ${token}` },
          endpoint: endpointOf(path),
        },
        call,
      )
      if (!res.ok) return res
      return this.unwrap(res.value.body, res.value.status)
    })
  }

  /**
   * Every row of a paged list. Public clients disagree on whether PageNumber starts at 0 or 1, so the
   * first list starts at 0 and watches: an empty or refused page 0 means pages start at 1, and so does
   * a page 1 that repeats page 0 (a server that reads 0 as 1). Reading stops on an empty page, when
   * `totalRecords` (where given) is reached, or when a page brings nothing new (a server that ignores
   * PageNumber); rows are kept once by id.
   */
  async all(
    path: string,
    call: PsaCall,
    query: Query = {},
    maxPages = 10_000,
  ): Promise<PsaResult<unknown[]>> {
    const listed = await this.list(path, call, query, maxPages)
    return listed.ok ? { ok: true, value: listed.value.rows } : listed
  }

  /**
   * The same, with the record count of the last page read (null where BMS gives none) and how many
   * rows a page held (BMS may page smaller than asked).
   */
  async list(
    path: string,
    call: PsaCall,
    query: Query = {},
    maxPages = 10_000,
  ): Promise<PsaResult<{ rows: unknown[]; total: number | null; perPage: number }>> {
    const items: unknown[] = []
    let total: number | null = null
    let perPage = 0
    const seen = new Set<string>()
    const start = this.firstPage ?? 0
    let page: number = start
    let zeroHadRows = false
    for (let n = 0; n < maxPages; n++) {
      const res = await this.api('GET', path, call, {
        query: { ...query, PageSize: pageSize, PageNumber: page },
      })
      const probing = this.firstPage === null && page === 0
      if (!res.ok) {
        if (probing && (res.failure.kind === 'rejected' || res.failure.kind === 'not-found')) {
          page = 1
          this.firstPage = 1
          continue
        }
        return res
      }
      const batch = rows(res.value.result)
      if (batch.length === 0) {
        if (probing) {
          page = 1
          this.firstPage = 1
          continue
        }
        if (this.firstPage === null && page === 1 && zeroHadRows) this.firstPage = 0
        break
      }
      const fresh = batch.filter((row) => {
        const key = keyOf(row)
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
      if (fresh.length === 0) {
        if (this.firstPage === null && page === 1 && zeroHadRows) {
          // Page 1 repeated page 0: pages start at 1, and page 2 comes next.
          this.firstPage = 1
          page = 2
          continue
        }
        break
      }
      if (page === 0) zeroHadRows = true
      else if (page === 1 && zeroHadRows && this.firstPage === null) this.firstPage = 0
      items.push(...fresh)
      if (perPage === 0) perPage = batch.length
      total = res.value.totalRecords
      if (total !== null && total > 0 && items.length >= total) break
      page++
    }
    return { ok: true, value: { rows: items, total, perPage } }
  }

  /** One page of a list, counted from 0 whatever BMS counts from (1 until a list has shown it). */
  async pageAt(path: string, call: PsaCall, query: Query, index: number): Promise<PsaResult<unknown[]>> {
    const res = await this.api('GET', path, call, {
      query: { ...query, PageSize: pageSize, PageNumber: (this.firstPage ?? 1) + index },
    })
    return res.ok ? { ok: true, value: rows(res.value.result) } : res
  }

  /** Where pages start, once a list has shown it (null until then). */
  get pagesStartAt(): 0 | 1 | null {
    return this.firstPage
  }

  /** The envelope's result, or its refusal as a failure (a limit pauses the connection as a 429 would). */
  private unwrap(body: unknown, status: number): PsaResult<Answer> {
    const e = envelope(body)
    if (e.success === false) {
      const failure = refusal(e.error, status, this.psa.name)
      if (failure.kind === 'rate-limited' && failure.retryAfterMs)
        this.limiter.pause(failure.retryAfterMs, failure.throttled === true)
      return { ok: false, failure }
    }
    return { ok: true, value: { result: e.result, totalRecords: e.totalRecords } }
  }

  /** A token: renewed with the refresh token while it works, else (or when it is refused) a new login. */
  private async token(call: PsaCall, expiring: Token | null): Promise<PsaResult<Token>> {
    if (expiring?.refresh) {
      const renewed = await this.tokenCall(
        '/security/refreshtoken',
        { AccessToken: expiring.value, RefreshToken: expiring.refresh.value },
        call,
      )
      // Only a refused refresh is worth a new login; a network failure would fail the login too.
      if (renewed.ok || !refusedAuth(renewed.failure)) return renewed
    }
    return this.tokenCall(
      '/security/authenticate',
      this.psa.loginFields === 'camelCase'
        ? {
            grantType: 'password',
            userName: this.s.username,
            password: this.s.password,
            tenant: this.s.tenant,
          }
        : {
            GrantType: 'password',
            UserName: this.s.username,
            Password: this.s.password,
            Tenant: this.s.tenant,
          },
      call,
    )
  }

  private async tokenCall(
    path: string,
    form: Record<string, string>,
    call: PsaCall,
  ): Promise<PsaResult<Token>> {
    const res = await this.http.request(
      { method: 'POST', url: `${this.root}${path}`, form, headers: {}, endpoint: endpointOf(path) },
      call,
    )
    if (!res.ok) {
      const { failure } = res
      // A login refused with a 4xx is the credentials' failure, whatever status BMS chose for it.
      const status = failure.status ?? 0
      if (status >= 400 && status < 500 && failure.kind !== 'rate-limited')
        return { ok: false, failure: { ...failure, kind: 'auth', retryable: false } }
      return res
    }
    const e = envelope(res.value.body)
    if (e.success === false) {
      const failure = refusal(e.error, res.value.status, this.psa.name)
      if (failure.kind === 'rate-limited' || failure.kind === 'unavailable') return { ok: false, failure }
      return { ok: false, failure: { ...failure, kind: 'auth', retryable: false } }
    }
    const result = e.result
    const value = str(result, 'accessToken')
    if (!value)
      return {
        ok: false,
        failure: {
          kind: 'auth',
          retryable: false,
          message: `${this.psa.name} answered the login without an access token`,
        },
      }
    const now = Date.now()
    const refresh = str(result, 'refreshToken')
    return {
      ok: true,
      value: {
        value,
        expiresAt: dateOf(field(result, 'accessTokenExpireOn')) ?? jwtExpiry(value) ?? now + assumedLifeMs,
        ...(refresh
          ? {
              refresh: {
                value: refresh,
                expiresAt: dateOf(field(result, 'refreshTokenExpireOn')) ?? now + assumedLifeMs,
              },
            }
          : {}),
      },
    }
  }
}

/** A failure that says the token or credentials were refused (not the network, a limit or a 5xx). */
const refusedAuth = (f: PsaFailure) =>
  f.kind === 'auth' || f.kind === 'rejected' || f.kind === 'forbidden' || f.kind === 'not-found'

/** The limiter's endpoint of a path: the path below /v2 with its ids (and lookup table names) taken out. */
export function endpointOf(path: string): string {
  const segments = path
    .split('?')[0]!
    .split('/')
    .filter((s) => s !== '')
  return segments
    .map((s, i) => {
      if (/^\d+$/.test(s)) return '{id}'
      if (
        i > 0 &&
        /^(lookup|tenantlookup)$/i.test(segments[i - 1] ?? '') &&
        segments[i - 2]?.toLowerCase() === 'system'
      )
        return '{tableName}'
      return s.toLowerCase()
    })
    .join('/')
}

/** A row's identity for paging: its id, else the row itself. */
function keyOf(row: unknown): string {
  const id = field(row, 'id')
  return typeof id === 'number' || typeof id === 'string' ? `id:${id}` : JSON.stringify(row)
}

/** An expiry BMS gives as a date-time; one without a zone is UTC. */
function dateOf(v: unknown): number | null {
  if (typeof v !== 'string' || v.trim() === '') return null
  const text = /(Z|[+-]\d\d:?\d\d)$/i.test(v.trim()) ? v.trim() : `${v.trim()}Z`
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : at
}

/** The `exp` of a JWT, where the token is one. */
function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp
    return typeof exp === 'number' ? exp * 1000 : null
  } catch {
    return null
  }
}
