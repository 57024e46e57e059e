// The PSA's names of the ticket settings rules keep (a setting holds the PSA's id or its name): boards
// and priorities from their lists, types and statuses from each board's own lists where the PSA keeps
// them per board (ConnectWise). Each list is asked once for the whole rule list, and only when a rule
// names something in it; board-scoped lists only with a board (useLookupReady). The service keeps the
// lists a few minutes too (docs/partner-api.md#names).
import { useQueries } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Rule } from '../api/types'
import { psaKeys, useLookupReady, usePsaLookup } from './psa'

export type TicketSettingKey = 'board' | 'priority' | 'type' | 'status' | 'closedStatus'

interface Entry {
  id: string
  name: string
}

/** The entry's name a setting names by its id, or else by its name (case ignored); null: not listed. */
export function nameIn(list: readonly Entry[] | undefined, value: string | null): string | null {
  if (!list || !value) return null
  const lower = value.toLowerCase()
  return (list.find((e) => e.id === value) ?? list.find((e) => e.name.toLowerCase() === lower))?.name ?? null
}

const scopedKey = (what: 'types' | 'statuses', board: string | null) => `${what}:${board ?? ''}`

/** A function from a rule's setting to the PSA's name of it (null: none set, or not in the PSA's list). */
export function useRuleSettingNames(
  rules: readonly Rule[],
): (rule: Rule, key: TicketSettingKey) => string | null {
  const ticketing = rules.filter((r) => r.action === 'ticket')
  const boards = usePsaLookup(
    'boards',
    { limit: 1000, board: null },
    ticketing.some((r) => r.ticket.board),
  )
  const priorities = usePsaLookup(
    'priorities',
    { limit: 1000, board: null },
    ticketing.some((r) => r.ticket.priority),
  )
  // Without a board, only where the PSA keeps one list for all boards (or a default board stands in).
  const boardless = useLookupReady('types', null).ready
  const wanted = new Map<string, { what: 'types' | 'statuses'; board: string | null }>()
  for (const r of ticketing) {
    const board = r.ticket.board ?? null
    if (!board && !boardless) continue
    if (r.ticket.type) wanted.set(scopedKey('types', board), { what: 'types', board })
    if (r.ticket.status || r.ticket.closedStatus)
      wanted.set(scopedKey('statuses', board), { what: 'statuses', board })
  }
  const scoped = [...wanted.values()]
  const results = useQueries({
    queries: scoped.map(({ what, board }) => {
      const q = { limit: 1000, board }
      return {
        queryKey: psaKeys.lookup(what, q),
        queryFn: () =>
          unwrap(
            api.GET('/api/partner/psa/{what}', {
              params: { path: { what }, query: { limit: 1000, ...(board ? { board } : {}) } },
            }),
          ),
        staleTime: 60_000,
      }
    }),
  })
  const lists = new Map(scoped.map((s, i) => [scopedKey(s.what, s.board), results[i]?.data?.data]))
  return (rule, key) => {
    const value = rule.ticket[key] ?? null
    const board = rule.ticket.board ?? null
    if (key === 'board') return nameIn(boards.data?.data, value)
    if (key === 'priority') return nameIn(priorities.data?.data, value)
    return nameIn(lists.get(scopedKey(key === 'type' ? 'types' : 'statuses', board)), value)
  }
}
