// The ids a new Kaseya BMS ticket needs besides its account (TicketInputDto requires LocationId,
// StatusId, PriorityId, TypeId and SourceId; QueueId routes it; docs/psa/kaseya-bms.md): each from the
// settings or the rule (a BMS id or its name, resolved against BMS's look-ups), else what BMS marks as
// default — the account's main location, the first status by BMS's order that does not complete a
// ticket, the priority, ticket type and source with isDefault (else the first active one). SourceId is
// always sent: when neither a setting nor BMS's look-up gives one, the create fails, not retried, with
// a sentence that says which look-up failed and which setting takes the id.
import { fail, type NewPsaTicket, ok, type PsaCall, type PsaResult } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import type { Completion } from './completion.js'
import { defaultOf, type Lists, type Table, tableInfo, type V2Entry } from './lists.js'
import type { V2Settings } from './settings.js'

const refused = <T>(message: string): PsaResult<T> => fail({ kind: 'rejected', retryable: false, message })

/** Every id a new ticket needs besides its account: the settings' (names resolved), else BMS's defaults. */
export async function ticketFields(
  lists: Lists,
  completion: Completion,
  s: V2Settings,
  t: NewPsaTicket,
  call: PsaCall,
): Promise<PsaResult<Record<string, number>>> {
  // A server without the locations route (BMS documents it; Pulseway's client sends no LocationId)
  // gets none: the PSA says so in its own words if it needs one.
  const locations = await lists.locations(t.companyId, call)
  if (!locations.ok && locations.failure.kind !== 'not-found') return locations
  const fields: Record<string, number> = {}
  if (locations.ok) {
    const location = locations.value.find((l) => l.isMain) ?? locations.value[0]
    if (!location)
      return refused(`${lists.client.psa.name} account ${t.companyId} has no location to open a ticket at`)
    fields.LocationId = location.id
  }

  const statuses = await lists.statuses(call)
  if (!statuses.ok) return statuses
  if (t.status) {
    const named = byIdOrName(statuses.value, t.status)
    if (!named) return refused(`${lists.client.psa.name} has no status '${t.status}'`)
    fields.StatusId = Number(named.id)
  } else {
    // What is known of completion is enough here: BMS lists its new-ticket status first anyway.
    const opening = completion.opening(statuses.value)
    if (!opening) return refused(`${lists.client.psa.name} lists no active status to open a ticket with`)
    fields.StatusId = Number(opening.id)
  }

  const priorities = await lists.priorities(call)
  if (!priorities.ok) return priorities
  const priority = pick(priorities.value, t.priority, 'priority', lists.client.psa.name)
  if (!priority.ok) return priority
  fields.PriorityId = priority.value

  if (t.board) {
    const queues = await lists.queues(call)
    if (!queues.ok) return queues
    const queue = pick(queues.value, t.board, 'queue', lists.client.psa.name)
    if (!queue.ok) return queue
    fields.QueueId = queue.value
  }
  for (const [name, table, value] of [
    ['TypeId', 'ticketTypes', t.type],
    ['SourceId', 'sources', s.source ?? null],
  ] as const) {
    const id = await idFromTable(lists, table, value, call)
    if (!id.ok) return id
    fields[name] = id.value
  }
  return ok(fields)
}

/** An id from a generic lookup table: a number as it is, a name resolved, nothing: BMS's default. */
export async function idFromTable(
  lists: Lists,
  table: Table,
  value: string | null,
  call: PsaCall,
): Promise<PsaResult<number>> {
  if (value !== null && /^\d+$/.test(value.trim())) return ok(Number(value))
  const list = await lists.table(table, call)
  if (!list.ok) return list
  const { what, byHand } = tableInfo[table]
  const found = value === null ? defaultOf(list.value) : byIdOrName(list.value, value)
  if (found) return ok(Number(found.id))
  const name = lists.tableName(table) ?? 'its table'
  return refused(
    value === null
      ? `${lists.client.psa.name} lists no active ${what} in ${name}; set ${byHand} to one's id in ${lists.client.psa.short}`
      : `${lists.client.psa.name} has no ${what.replace(/s$/, '')} '${value}' in ${name}; set ${byHand} to one of its ids or names`,
  )
}

/** The entry a setting names, else BMS's default one. */
export function pick(
  list: readonly V2Entry[],
  value: string | null,
  what: string,
  psa: string,
): PsaResult<number> {
  const found = value === null ? defaultOf(list) : byIdOrName(list, value)
  if (found) return ok(Number(found.id))
  return refused(value === null ? `${psa} lists no ${what}` : `${psa} has no ${what} '${value}'`)
}
