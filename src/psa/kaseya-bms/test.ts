// Testing a Kaseya BMS connection without changing anything: the host answers, the login (tenant,
// user name, password) is accepted, /v2/security/userinfo names the API user, and the user may read
// tickets and accounts. Each failure is one sentence saying what to fix.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import type { KaseyaBmsClient } from './client.js'
import { str } from './wire.js'

const areas = [
  ['/servicedesk/tickets', 'service desk tickets'],
  ['/crm/accounts/lookup', 'CRM accounts'],
] as const

export async function connectionTest(
  client: KaseyaBmsClient,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  const token = await client.tokens.get(call)
  if (!token.ok) return refused(why(token.failure, client.root))
  const info = await client.api('GET', '/security/userinfo', call)
  if (!info.ok) return refused(why(info.failure, client.root))
  for (const [path, what] of areas) {
    const res = await client.api('GET', path, call, {
      query: { PageSize: 1, PageNumber: client.pagesStartAt ?? 1 },
    })
    if (!res.ok) return refused(why(res.failure, client.root, what))
  }
  const user = str(info.value.result, 'fullName') ?? str(info.value.result, 'emailAddress')
  const tenant = str(info.value.result, 'businessName')
  return {
    ok: true,
    value: {
      detail: `Connected to Kaseya BMS at ${client.root}${user ? ` as ${user}` : ''}${tenant ? ` (${tenant})` : ''}.`,
    },
  }
}

function why(f: PsaFailure, root: string, area?: string): string {
  return explain(f, {
    psa: 'Kaseya BMS',
    where: root,
    credentials: 'tenant, username, password',
    account: 'API user (its security role)',
    area,
  })
}
