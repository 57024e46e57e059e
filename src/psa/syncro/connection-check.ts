// Checking a Syncro connection without changing anything: the account answers at its root, takes the
// API token (GET /me), and the token's permissions let it read tickets and customers. Each failure is
// one sentence saying what to fix.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import type { SyncroClient } from './client.js'

/** What the service reads, with the words of Syncro's token permissions. */
const areas = [
  ['/tickets', 'tickets (Tickets - List/Search)'],
  ['/customers', 'customers (Customers - List/Search)'],
] as const

export async function checkConnection(
  client: SyncroClient,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  if (!client.root) return refused('Set subdomain (e.g. acme for acme.syncromsp.com) or baseUrl.')
  const me = await client.api('GET', '/me', call)
  // An account without /me still says what it thinks of the token on the calls below.
  if (!me.ok && me.failure.kind !== 'not-found') return refused(why(me.failure, client.root))
  for (const [path, what] of areas) {
    const res = await client.api('GET', path, call, { query: { page: 1 } })
    if (!res.ok) return refused(why(res.failure, client.root, what))
  }
  const who = me.ok ? userOf(me.value.body) : null
  return {
    ok: true,
    value: { detail: `Connected to Syncro at ${client.root}${who ? ` as ${who}` : ''}.` },
  }
}

/** The token's user as /me names it (`{user: {...}}` or the fields bare). */
function userOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null
  const b = body as Record<string, unknown>
  const user = (b.user && typeof b.user === 'object' ? b.user : b) as Record<string, unknown>
  for (const key of ['email', 'user_email', 'full_name', 'name', 'user_name']) {
    const v = user[key]
    if (typeof v === 'string' && v !== '') return v
  }
  return null
}

function why(f: PsaFailure, root: string, area?: string): string {
  return explain(f, {
    psa: 'Syncro',
    where: root,
    credentials: 'apiToken',
    account: 'API token (Admin → API Tokens, its permissions)',
    area,
  })
}
