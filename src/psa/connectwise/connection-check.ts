// Checking a ConnectWise connection without changing anything: the site answers, knows the company
// (codebase discovery), accepts the keys and the clientId, and lets the API member read what the
// service uses. Each failure is one sentence saying what to fix.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import type { ConnectWiseClient } from './client.js'

/** What the service reads and writes, with the words a partner knows it by. */
const areas = [
  ['/service/boards', 'service boards'],
  ['/service/tickets', 'service tickets'],
  ['/company/companies', 'companies'],
] as const

export async function checkConnection(
  client: ConnectWiseClient,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  if (!client.root) return refused('Set site (e.g. api-na.myconnectwise.net) or baseUrl.')
  const codebase = await client.discover(call, true)
  if (!codebase.ok) return refused(why(codebase.failure, client.root))
  const info = await client.api('GET', '/system/info', call)
  if (!info.ok) return refused(why(info.failure, client.root))
  for (const [path, what] of areas) {
    const res = await client.api('GET', path, call, { query: { pageSize: 1 } })
    if (!res.ok) return refused(why(res.failure, client.root, what))
  }
  const version = (info.value.body as { version?: unknown } | null)?.version
  return {
    ok: true,
    value: {
      detail: `Connected to ConnectWise${typeof version === 'string' ? ` ${version}` : ''} at ${client.root} (codebase ${codebase.value}).`,
    },
  }
}

function why(f: PsaFailure, root: string, area?: string): string {
  if (f.kind === 'auth' && /company id/.test(f.message)) return `${f.message}: check companyId and site`
  if (/client ?id/i.test(f.message))
    return `ConnectWise refused the clientId (register one at developer.connectwise.com): ${f.message}`
  return explain(f, {
    psa: 'ConnectWise',
    where: root,
    credentials: 'companyId, publicKey, privateKey',
    account: 'API member (its security role)',
    area,
  })
}
