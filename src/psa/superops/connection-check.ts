// Checking a SuperOps connection without changing anything (docs/psa/superops.md, "Connection test"):
// the endpoint answers, takes the token (401 otherwise) and the subdomain (400 otherwise), the token's
// technician may read statuses, clients and tickets; then what the tenant's tickets say closes, in
// plain words: SuperOps statuses carry no closed flag, so the test names the statuses the adapter
// will count as closed and the one it closes with — or says to set closedStatus — and that changes
// made in SuperOps are heard by polling, SuperOps having no ticket webhooks.
import type { PsaCall, PsaFailure, PsaResult } from '../adapter.js'
import { explain, refused } from '../core/explain.js'
import { byIdOrName } from '../core/names.js'
import type { SuperOpsLists } from './connection-lists.js'
import { getClientList } from './documents.js'
import { learnClosed } from './tickets.js'

const quoted = (names: readonly string[]) => names.map((n) => `'${n}'`).join(', ')

export async function checkConnection(
  lists: SuperOpsLists,
  call: PsaCall,
): Promise<PsaResult<{ detail: string }>> {
  const { client } = lists
  const statuses = await lists.statusList(call, true)
  if (!statuses.ok) return refused(why(statuses.failure, client.endpoint, 'ticket statuses'))
  const clients = await client.request(getClientList, { input: { page: 1, pageSize: 1 } }, call)
  if (!clients.ok) return refused(why(clients.failure, client.endpoint, 'clients'))
  const learned = await lists.learned.get((c) => learnClosed(client, c), call, true)
  if (!learned.ok) return refused(why(learned.failure, client.endpoint, 'tickets'))
  const chosenStatus = lists.closedStatus === null ? null : byIdOrName(statuses.value, lists.closedStatus)
  if (lists.closedStatus !== null && !chosenStatus)
    return refused(
      `SuperOps has no ticket status '${lists.closedStatus}' (closedStatus): pick one of ${quoted(statuses.value.map((s) => s.name))}.`,
    )
  const chosen = chosenStatus?.name ?? null
  const seen = learned.value.closed
  const closes = chosen ?? seen[0] ?? null
  const what =
    seen.length > 0
      ? `SuperOps statuses have no closed flag; among its ${learned.value.sampled} most recently updated tickets, those with status ${quoted(seen)} all have a resolution time, so the service counts ${seen.length > 1 ? 'them' : 'it'}${chosen && !seen.includes(chosen) ? ` and '${chosen}'` : ''} as closed`
      : `SuperOps statuses have no closed flag and none of its ${learned.value.sampled} most recently updated tickets has a resolution time${chosen ? `, so the service counts '${chosen}' as closed` : ''}`
  if (closes === null)
    return refused(
      `${what}: set closedStatus (ticket defaults) to the status that closes a ticket in your SuperOps, or RESOLVED alerts cannot close tickets.`,
    )
  return {
    ok: true,
    value: {
      detail: `Connected to SuperOps at ${client.endpoint}. ${what}, and a RESOLVED alert closes a ticket with '${closes}'. SuperOps has no ticket webhooks: changes made in SuperOps are heard by polling.`,
    },
  }
}

function why(f: PsaFailure, endpoint: string, area: string): string {
  if (f.status === 400)
    return `SuperOps at ${endpoint} does not know the subdomain (CustomerSubDomain; Settings → MSP Information): ${f.message}`
  return explain(f, {
    psa: 'SuperOps',
    where: endpoint,
    credentials: 'apiToken',
    account: "API token's technician (their role in SuperOps)",
    area,
  })
}
