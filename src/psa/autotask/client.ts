// One Autotask connection on the wire (docs/psa/autotask.md): the zone found from
// ZoneInformation?user= (kept a day, and found again after a 401: a tenant can move zones), unless
// baseUrl names it; the three auth headers on every call; queries paged through
// pageDetails.nextPageUrl; and each entity's picklists. Calls to one entity share Autotask's limit of
// 3 threads per endpoint.
import type { Static } from 'typebox'
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { CachedResult, cachedIn } from '../core/connections.js'
import { sameOrigin } from '../core/explain.js'
import type { PsaHttp, PsaResponse } from '../core/http.js'
import type { AutotaskSettings } from './settings.js'

type Settings = Static<typeof AutotaskSettings>

export interface Picklist {
  name: string
  /** The longest text the field holds. */
  length?: number
  /** Whether Autotask requires the field (a tenant's ticket category may make more fields required). */
  isRequired?: boolean
  /** Whether a query may filter on the field (a filter on one that may not is refused). */
  isQueryable?: boolean
  isPickList?: boolean
  picklistValues?: {
    value: string
    label: string
    isDefaultValue?: boolean
    isActive?: boolean
    sortOrder?: number
  }[]
}

export interface Filter {
  op: string
  field?: string
  value?: unknown
  items?: Filter[]
}

const dayMs = 24 * 60 * 60 * 1000

export class AutotaskClient {
  private readonly zone = new CachedResult<string>(dayMs)
  private readonly fields = new Map<string, CachedResult<Picklist[]>>()

  constructor(
    private readonly http: PsaHttp,
    private readonly s: Settings,
    /** Where zones are looked up (Autotask's own host; a simulator in tests). */
    private readonly zoneLookupRoot: string,
  ) {}

  /** The zone's REST root found so far, if any (no call). */
  knownZone(): string | null {
    return this.zone.peek()
  }

  /** The REST root (…/ATServicesRest/) of the tenant's zone. */
  root(call: PsaCall, fresh = false): Promise<PsaResult<string>> {
    if (this.s.baseUrl) return Promise.resolve({ ok: true, value: withSlash(this.s.baseUrl) })
    return this.zone.get(
      async (own) => {
        const res = await this.http.request(
          {
            method: 'GET',
            url: `${withSlash(this.zoneLookupRoot)}V1.0/ZoneInformation`,
            query: { user: this.s.username },
            headers: {},
            endpoint: 'zone',
          },
          own,
        )
        const url = res.ok ? (res.value.body as { url?: unknown } | null)?.url : undefined
        if (typeof url === 'string' && url !== '') return { ok: true, value: withSlash(url) }
        // Autotask answers an unknown or blank user with 500 (or a 4xx): the user name is wrong. Any
        // other failure (network, 429, 502–504, a refused address) is the lookup's own, passed on.
        if (!res.ok && !(res.failure.status !== undefined && [400, 404, 500].includes(res.failure.status)))
          return res
        return {
          ok: false,
          failure: {
            kind: 'auth',
            retryable: false,
            message: `Autotask knows no zone for the API user '${this.s.username}'`,
          },
        }
      },
      call,
      fresh,
    )
  }

  /** One call under {root}V1.0/; a 401 after a zone lookup looks the zone up again and retries once if it moved. */
  async api(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    call: PsaCall,
    body?: unknown,
  ): Promise<PsaResult<PsaResponse>> {
    const root = await this.root(call)
    if (!root.ok) return root
    const res = await this.send(method, `${root.value}V1.0/${path}`, call, body)
    if (res.ok || res.failure.kind !== 'auth' || this.s.baseUrl) return res
    const again = await this.root(call, true)
    if (!again.ok || again.value === root.value) return res
    return this.send(method, `${again.value}V1.0/${path}`, call, body)
  }

  /**
   * Every item a query finds, page after page (500 at most per page). The next page is fetched from
   * pageDetails.nextPageUrl (on our own host) with GET, as Autotask's pages say; where a server wants
   * the query posted to it again instead (public clients differ on this), a refusal of the GET is
   * followed by that.
   */
  async query<T>(entity: string, filter: Filter[], fields: string[], call: PsaCall): Promise<PsaResult<T[]>> {
    const items: T[] = []
    const query = { filter, IncludeFields: fields, MaxRecords: 500 }
    let res = await this.api('POST', `${entity}/query`, call, query)
    const root = await this.root(call)
    for (let page = 0; page < 10_000; page++) {
      if (!res.ok) return res
      const body = res.value.body as { items?: T[]; pageDetails?: { nextPageUrl?: string | null } } | null
      items.push(...(body?.items ?? []))
      const given = body?.pageDetails?.nextPageUrl
      if (!given || !root.ok) break
      const next = sameOrigin(given, root.value)
      res = await this.send('GET', next, call, undefined, entity)
      if (!res.ok && refusesGet(res.failure)) res = await this.send('POST', next, call, query, entity)
    }
    return { ok: true, value: items }
  }

  /** The entity's fields with their picklists, kept half an hour. */
  picklists(entity: string, call: PsaCall, fresh = false): Promise<PsaResult<Picklist[]>> {
    return cachedIn(this.fields, entity, 30 * 60 * 1000).get(
      async (own) => {
        const res = await this.api('GET', `${entity}/entityInformation/fields`, own)
        if (!res.ok) return res
        return { ok: true, value: (res.value.body as { fields?: Picklist[] } | null)?.fields ?? [] }
      },
      call,
      fresh,
    )
  }

  private send(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    call: PsaCall,
    body: unknown,
    entity = endpointOf(url),
  ): Promise<PsaResult<PsaResponse>> {
    return this.http.request(
      {
        method,
        url,
        body,
        headers: {
          ApiIntegrationCode: this.s.integrationCode,
          UserName: this.s.username,
          Secret: this.s.secret,
        },
        endpoint: entity,
      },
      call,
    )
  }
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`)

/** A page link that will not be fetched with GET (a 4xx other than auth or a limit): post the query to it. */
function refusesGet(f: PsaFailure): boolean {
  const status = f.status ?? 0
  return status >= 400 && status < 500 && f.kind !== 'auth' && f.kind !== 'rate-limited'
}

/** The entity a URL calls (Autotask's thread limit counts per entity endpoint). */
function endpointOf(url: string): string {
  const m = /\/v1\.0\/([^/?]+)/i.exec(url)
  return (m?.[1] ?? 'api').toLowerCase()
}

/** Autotask's error text: its `errors` array (strings, or objects with a message); null when it has none. */
export function autotaskErrorText(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null
  const errors = (body as { errors?: unknown }).errors
  if (!Array.isArray(errors)) return null
  const texts = errors
    .map((e) =>
      typeof e === 'string' ? e : e && typeof e === 'object' ? (e as { message?: unknown }).message : null,
    )
    .filter((t): t is string => typeof t === 'string' && t !== '')
  return texts.length > 0 ? texts.join('; ') : null
}
