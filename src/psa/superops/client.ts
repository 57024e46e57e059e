// One SuperOps connection on the wire (docs/psa/superops.md, "Calls"): every call an HTTP POST of
// `{query, variables, operationName}` to the connection's GraphQL endpoint, with `Authorization: Bearer`
// and the `CustomerSubDomain` header, through the PSA core (src/psa/core/http.ts: the service's outbound
// client with its private-address guard and time budget, the connection's limiter, statuses mapped to
// failures). graphql-request's document tooling prints each parsed document and names its operation;
// the core is the transport (docs/decisions/psa/superops-graphql-transport.md).
//
// What the core cannot see, this reads: an HTTP 200 whose body says `rate_limit_exceeded` is a wait
// like a 429 (the connection pauses, the alert waits without spending an attempt); one whose `errors[]`
// come with the operation's data was carried out ("written, with warnings") and answers the data;
// `errors[]` without data is SuperOps refusing (errors.ts).
import type { DocumentNode } from 'graphql'
import { analyzeDocument } from 'graphql-request'
import type { Static } from 'typebox'
import { parseRetryAfter } from '../../platform/outbound/retry-after.js'
import { fail, ok, type PsaCall, type PsaResult } from '../adapter.js'
import type { PsaWire } from '../core/kind.js'
import { errorsFailure, type GraphQlError, isThrottled, retryHintMs } from './errors.js'
import type { SuperOpsSettings } from './settings.js'

type Settings = Static<typeof SuperOpsSettings>
export type Variables = Record<string, unknown>

/** SuperOps' page size at most. */
export const pageSize = 100
/** Pages read at most for one list (100 × 200 entries). */
const maxPages = 200
/** SuperOps counts requests a minute: without a hint, a throttled token waits the window out. */
export const minuteMs = 60_000

export interface ListInfo {
  page?: number | null
  pageSize?: number | null
  totalCount?: number | null
  hasMore?: boolean | null
}

const printed = new WeakMap<DocumentNode, { expression: string; operationName: string | undefined }>()
const analysed = (doc: DocumentNode) => {
  let a = printed.get(doc)
  if (!a) {
    const { expression, operationName } = analyzeDocument(doc)
    a = { expression, operationName }
    printed.set(doc, a)
  }
  return a
}

/** The root field a document selects first: where its data is (`createTicket`). */
function rootField(doc: DocumentNode): string {
  for (const d of doc.definitions)
    if (d.kind === 'OperationDefinition')
      for (const s of d.selectionSet.selections) if (s.kind === 'Field') return s.alias?.value ?? s.name.value
  return ''
}

/** SuperOps' time text: UTC ISO 8601 without a zone (`2026-12-03T06:30:00`). */
export const superOpsTime = (d: Date) => d.toISOString().slice(0, 19)

export class SuperOpsClient {
  readonly endpoint: string

  constructor(
    private readonly wire: PsaWire,
    private readonly s: Settings,
  ) {
    this.endpoint = s.baseUrl.replace(/\/+$/, '')
  }

  /** One operation; answers its root field's data (which may be null: getTicket of no ticket). */
  async request<T>(doc: DocumentNode, variables: Variables, call: PsaCall): Promise<PsaResult<T | null>> {
    const { expression, operationName } = analysed(doc)
    const res = await this.wire.http.request(
      {
        method: 'POST',
        url: this.endpoint,
        headers: {
          authorization: `Bearer ${this.s.apiToken}`,
          customersubdomain: this.s.subdomain,
          'content-type': 'application/json',
        },
        body: { query: expression, variables, ...(operationName ? { operationName } : {}) },
        endpoint: 'graphql',
      },
      call,
    )
    if (!res.ok) return res
    const body = (res.value.body ?? {}) as { data?: Record<string, unknown> | null; errors?: unknown }
    const errors = Array.isArray(body.errors) ? (body.errors as GraphQlError[]) : []
    if (isThrottled(errors)) {
      const header = res.value.headers['retry-after']
      const asked = parseRetryAfter(typeof header === 'string' ? header : null, new Date())
      const waitMs = asked ?? retryHintMs(errors) ?? minuteMs
      // SuperOps asked this token to wait: no call of the connection reaches it meanwhile.
      this.wire.limiter.pause(waitMs, true)
      return fail({
        kind: 'rate-limited',
        retryable: true,
        throttled: true,
        retryAfterMs: waitMs,
        status: res.value.status,
        message: 'SuperOps is throttling the API token (rate_limit_exceeded: 800 requests a minute)',
      })
    }
    const root = rootField(doc)
    const data = body.data && typeof body.data === 'object' ? body.data[root] : undefined
    // Data with errors: SuperOps did it (a write with warnings); the data is the answer.
    if (data !== undefined && data !== null) return ok(data as T)
    if (errors.length > 0) return fail(errorsFailure(errors))
    if (data === null) return ok(null)
    return fail({ kind: 'unavailable', retryable: true, message: 'SuperOps answered no data' })
  }

  /**
   * Every item of a list under `key`, page after page (100 a page): on while `hasMore` is true or, as
   * SuperOps may answer null for it, while `totalCount` says more remain; never past `pages` pages.
   */
  async all<T>(
    doc: DocumentNode,
    key: string,
    input: Variables,
    call: PsaCall,
    pages = maxPages,
  ): Promise<PsaResult<T[]>> {
    const items: T[] = []
    for (let page = 1; page <= pages; page++) {
      const res = await this.request<Record<string, unknown>>(
        doc,
        { input: { ...input, page, pageSize } },
        call,
      )
      if (!res.ok) return res
      const batch = Array.isArray(res.value?.[key]) ? (res.value[key] as T[]) : []
      items.push(...batch)
      const info = (res.value?.listInfo ?? {}) as ListInfo
      const total = typeof info.totalCount === 'number' ? info.totalCount : null
      const more = info.hasMore === true || (total !== null && page * pageSize < total)
      if (!more || batch.length === 0) break
    }
    return ok(items)
  }
}
