// The SuperOps adapter on a connection to the SuperOps simulator, as the SuperOps tests make it: the
// simulator's endpoint, subdomain and token, and any settings a test adds; and the calls they pass.
import { createOutboundHttp } from '../../../src/platform/outbound/http.js'
import type { PsaOperations } from '../../../src/psa/adapter.js'
import { PsaRegistry } from '../../../src/psa/registry.js'
import { superOpsPsa } from '../../../src/psa/superops/adapter.js'
import { API_TOKEN, SUBDOMAIN } from '../sims/superops/server.js'

const http = createOutboundHttp({ allowPrivateNetwork: true, userAgent: 'alertbridge-test' })
let n = 0

/** A fresh connection (its own partner, so its own limiter and lists) to the endpoint. */
export function superOpsClient(endpoint: string, settings: object = {}): PsaOperations {
  const registry = new PsaRegistry([superOpsPsa({ http })])
  const c = registry.connect(`p-superops-${n++}`, {
    kind: 'superops',
    settings: { baseUrl: endpoint, subdomain: SUBDOMAIN, apiToken: API_TOKEN, ...settings },
  })
  if (!c.ok) throw new Error(c.failure.message)
  return c.client
}

export const call = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) })

/** A call of one alert: its correlationId is its reference and its marker; a first attempt. */
export const ticketCall = () => {
  const ref = `superops-${Date.now()}-${n++}`
  return { ...call(), correlationId: ref, ref, marker: ref, adopt: false }
}
