// The Kaseya BMS look-ups of the mapping screens (docs/psa/kaseya-bms.md): accounts, queues (boards),
// priorities, ticket types, sources, note types and statuses, active entries only, each read afresh;
// a status says whether it closes a ticket once BMS has shown which statuses complete one.
import { type LookupKind, ok, type PsaCall, type PsaEntity, type PsaResult } from '../adapter.js'
import type { V2Client } from './client.js'
import type { Completion } from './completion.js'
import type { Lists, V2Entry } from './lists.js'
import { field, str } from './wire.js'

const plain = (list: readonly V2Entry[]) =>
  list.filter((e) => e.isActive).map((e) => ({ id: e.id, name: e.name }))

export async function lookup(
  { client, lists, completion }: { client: V2Client; lists: Lists; completion: Completion },
  what: LookupKind,
  call: PsaCall,
): Promise<PsaResult<PsaEntity[]>> {
  switch (what) {
    case 'companies': {
      const all = await client.all('/crm/accounts/lookup', call)
      if (!all.ok) return all
      return ok(
        all.value
          .filter((a) => field(a, 'isActive') !== false)
          .map((a) => ({
            id: str(a, 'id') ?? '',
            name: str(a, 'name')?.trim() || `Account ${str(a, 'id')}`,
          }))
          .filter((a) => a.id !== ''),
      )
    }
    case 'boards': {
      const queues = await lists.queues(call, true)
      return queues.ok ? ok(plain(queues.value)) : queues
    }
    case 'priorities': {
      const priorities = await lists.priorities(call, true)
      return priorities.ok ? ok(plain(priorities.value)) : priorities
    }
    case 'types': {
      const types = await lists.table('ticketTypes', call, true)
      return types.ok ? ok(plain(types.value)) : types
    }
    case 'sources': {
      const sources = await lists.table('sources', call, true)
      return sources.ok ? ok(plain(sources.value)) : sources
    }
    case 'noteTypes': {
      const noteTypes = await lists.table('noteTypes', call, true)
      return noteTypes.ok ? ok(plain(noteTypes.value)) : noteTypes
    }
    case 'categories':
      return ok([])
    case 'statuses': {
      const statuses = await lists.statuses(call, true)
      if (!statuses.ok) return statuses
      await completion.ensure(client, statuses.value, call)
      return ok(
        statuses.value
          .filter((s) => s.isActive)
          .map((s) => {
            const closed = completion.of(s, statuses.value)
            return { id: s.id, name: s.name, ...(closed === null ? {} : { closed }) }
          }),
      )
    }
  }
}
