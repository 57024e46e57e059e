// Checking a HaloPSA connection without changing anything: the instance names its authorisation server
// (/api/authinfo), the token endpoint takes the client id and secret (and the tenant, where one is
// needed), and the application's agent may read tickets and clients. Each failure is one sentence.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import type { HaloClient } from './client.js'

const areas = [
  ['/Tickets', 'tickets'],
  ['/Client', 'clients'],
] as const

export async function checkConnection(
  client: HaloClient,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  const auth = await client.authServer(call, true)
  if (!auth.ok) return refused(why(auth.failure, client.root))
  const token = await client.token(call)
  if (!token.ok) return refused(why(token.failure, auth.value.url))
  for (const [path, what] of areas) {
    const res = await client.api('GET', path, call, { query: { pageinate: true, page_size: 1, page_no: 1 } })
    if (!res.ok) return refused(why(res.failure, client.root, what))
  }
  return {
    ok: true,
    value: { detail: `Connected to HaloPSA at ${client.root} (authorisation server ${auth.value.url}).` },
  }
}

function why(f: PsaFailure, where: string, area?: string): string {
  return explain(f, {
    psa: 'HaloPSA',
    where,
    credentials: 'clientId, clientSecret, tenant',
    account: "API application's agent (its permissions and the application's scopes)",
    area,
  })
}
