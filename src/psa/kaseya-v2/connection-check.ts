// Checking a connection to a PSA on the Kaseya v2 engine (Kaseya BMS, Pulseway PSA) without changing anything: the host answers, the login (tenant,
// user name, password) is accepted, /v2/security/userinfo names the API user, the user may read
// tickets and accounts, and the look-ups a ticket needs answer (docs/psa/kaseya-bms.md):
// - the ticket types, sources and note types of /v2/system/lookup/{tableName}, whose table names BMS
//   does not publish: the known spellings are tried (or the one `lookupTables` names) and the one that
//   answers is remembered for the connection. When none does and no id is set by hand, the check fails
//   with a sentence naming the look-up and the setting that takes the id; a name set by hand must be
//   one of the list's;
// - the statuses, and which of them BMS treats as closed (learned from tickets BMS shows completed).
// Each failure is one sentence saying what to fix.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import { byIdOrName } from '../core/names.js'
import type { V2Client } from './client.js'
import type { Completion } from './completion.js'
import { defaultOf, type Lists, type Table, tableInfo } from './lists.js'
import type { V2Settings } from './settings.js'
import { str } from './wire.js'

const areas = [
  ['/servicedesk/tickets', 'service desk tickets'],
  ['/crm/accounts/lookup', 'CRM accounts'],
] as const

export interface Tested {
  client: V2Client
  lists: Lists
  completion: Completion
  s: V2Settings
}

export async function checkConnection(
  { client, lists, completion, s }: Tested,
  syncWords: string | null,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  const token = await client.tokens.get(call)
  if (!token.ok) return refused(why(token.failure, client))
  // userinfo is BMS's (its OpenAPI); a server without it (not known on Pulseway) only names no user.
  const info = await client.api('GET', '/security/userinfo', call)
  if (!info.ok && info.failure.kind !== 'not-found') return refused(why(info.failure, client))
  const me = info.ok ? info.value.result : null
  for (const [path, what] of areas) {
    const res = await client.api('GET', path, call, {
      query: { PageSize: 1, PageNumber: client.pagesStartAt ?? 1 },
    })
    if (!res.ok) return refused(why(res.failure, client, what))
  }

  const found: string[] = []
  const problems: string[] = []
  const byHand: Record<Table, string | null> = {
    ticketTypes: s.defaults?.type ?? null,
    sources: s.source ?? null,
    noteTypes: s.noteType ?? null,
  }
  for (const which of ['ticketTypes', 'sources', 'noteTypes'] as const) {
    const { what, byHand: setting } = tableInfo[which]
    const set = byHand[which]?.trim() ?? null
    const id = set !== null && /^\d+$/.test(set)
    const list = await lists.table(which, call, true)
    if (!list.ok) {
      const { kind } = list.failure
      if (kind !== 'rejected' && kind !== 'not-found' && kind !== 'unavailable')
        return refused(why(list.failure, client, what))
      if (id) found.push(`${what}: no look-up answers, the id ${set} set in ${setting} is used`)
      else problems.push(list.failure.message)
      continue
    }
    const table = lists.tableName(which)
    if (set !== null && !byIdOrName(list.value, set)) {
      problems.push(
        `${client.psa.name} has no ${what.replace(/s$/, '')} '${set}' in ${table}; set ${setting} to one it lists`,
      )
      continue
    }
    const used = set !== null ? byIdOrName(list.value, set) : defaultOf(list.value)
    if (!used) {
      problems.push(
        `${client.psa.name} lists no active ${what} in ${table}; set ${setting} to one's id in ${client.psa.short}`,
      )
      continue
    }
    found.push(`${what} from ${table} (${set === null ? `${client.psa.short}'s default: ` : ''}${used.name})`)
  }
  if (problems.length > 0) return refused(problems.join('; '))

  const statuses = await lists.statuses(call, true)
  if (!statuses.ok) return refused(why(statuses.failure, client, 'ticket statuses'))
  await completion.ensure(client, statuses.value, call)
  const closed = statuses.value.filter((x) => x.isActive && completion.of(x, statuses.value) === true)
  const closing =
    closed.length > 0
      ? `statuses that count as closed: ${closed.map((x) => x.name).join(', ')}`
      : `which statuses count as closed is not known yet (${client.psa.short} shows it once a ticket is completed; or set completedStatusTypes)`

  const user = str(me, 'fullName') ?? str(me, 'emailAddress')
  const tenant = str(me, 'businessName')
  return {
    ok: true,
    value: {
      detail: `Connected to ${client.psa.name} at ${client.root}${user ? ` as ${user}` : ''}${tenant ? ` (${tenant})` : ''}; ${found.join('; ')}; ${closing}.${syncWords ? ` ${syncWords}` : ''}`,
    },
  }
}

function why(f: PsaFailure, client: V2Client, area?: string): string {
  return explain(f, {
    psa: client.psa.name,
    where: client.root,
    credentials: 'tenant, username, password',
    account: 'API user (its security role)',
    area,
  })
}
