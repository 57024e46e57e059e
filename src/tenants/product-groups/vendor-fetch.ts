// The one outbound call of the catalogue: GET the vendor's /product-groups
// (docs/contract.md#vendor-endpoints) with the integration's credentials, through the service's guarded
// sender (src/platform/outbound/http.ts): private addresses refused at connect time unless ALLOW_PRIVATE_NETWORK, no
// redirects, a hard timeout and a capped body.

import type { OutboundHttp } from '../../platform/outbound/http.js'
import type { VendorCredentials } from '../integrations/integration.js'

export interface ProductGroupRequest {
  url: string
  /** The integration's credentials (header name lower-cased), or none. */
  credentials: VendorCredentials | null
}

export type FetchAnswer = { ok: true; body: unknown } | { ok: false; reason: string }

/** Fetches and parses one catalogue answer; never throws. */
export type ProductGroupFetcher = (req: ProductGroupRequest) => Promise<FetchAnswer>

/** A catalogue is small; anything bigger is not one. */
const maxBodyBytes = 1024 * 1024

export function createProductGroupFetcher(opts: {
  http: Pick<OutboundHttp, 'get'>
  /** The call's own limit; callers stop waiting much earlier (the 500 ms budget) but the call may finish. */
  timeoutMs: number
}): ProductGroupFetcher {
  return async (req) => {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (req.credentials) headers[req.credentials.header] = req.credentials.value
    const res = await opts.http.get({ url: req.url, headers, timeoutMs: opts.timeoutMs, maxBodyBytes })
    if (res.kind === 'error') return { ok: false, reason: res.message }
    if (res.status < 200 || res.status > 299)
      return { ok: false, reason: `the vendor answered HTTP ${res.status}` }
    if (res.truncated) return { ok: false, reason: `the answer is larger than ${maxBodyBytes} bytes` }
    try {
      return { ok: true, body: JSON.parse(res.body) }
    } catch {
      return { ok: false, reason: 'the answer is not JSON' }
    }
  }
}
