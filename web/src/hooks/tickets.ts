// Tickets: the filtered list, one ticket with its event timeline, and the known values the filters
// offer (the integrations' accounts and product groups).
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { TicketQuery } from '../api/types'
import { accountKeys } from './accounts'
import { integrationKeys } from './integrations'

export const ticketKeys = {
  all: ['tickets'] as const,
  list: (q: TicketQuery) => [...ticketKeys.all, 'list', q] as const,
  one: (correlationId: string, integrationId: string | null) =>
    [...ticketKeys.all, 'one', correlationId, integrationId] as const,
}

export function useTickets(q: TicketQuery) {
  return useQuery({
    queryKey: ticketKeys.list(q),
    queryFn: () => unwrap(api.GET('/api/partner/tickets', { params: { query: q } })),
    placeholderData: keepPreviousData,
  })
}

export function useTicket(correlationId: string, integrationId: string | null) {
  return useQuery({
    queryKey: ticketKeys.one(correlationId, integrationId),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/tickets/{correlationId}', {
          params: {
            path: { correlationId },
            query: integrationId ? { integrationId } : {},
          },
        }),
      ),
  })
}

/** At most this many integrations' accounts and product groups are read for the filters' pick lists. */
const pickListIntegrations = 20

export interface KnownAccount {
  id: string
  name: string
}

/** The vendors' accounts of these integrations (each read once, 500 a page), by name, for pick lists. */
export function useKnownAccounts(integrationIds: readonly string[]): KnownAccount[] {
  const results = useQueries({
    queries: integrationIds.slice(0, pickListIntegrations).map((id) => ({
      queryKey: accountKeys.list(id, 'all', null, 500, ''),
      queryFn: () =>
        unwrap(
          api.GET('/api/partner/integrations/{id}/accounts', {
            params: { path: { id }, query: { limit: 500 } },
          }),
        ),
      staleTime: 5 * 60_000,
    })),
  })
  const byId = new Map<string, string>()
  for (const r of results)
    for (const a of r.data?.data ?? []) byId.set(a.vendorAccountId, a.name || a.vendorAccountId)
  return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name))
}

/** The product groups these integrations may use, each with its alert types (from their product groups). */
export function useKnownProductGroups(integrationIds: readonly string[]): Map<string, string[]> {
  const results = useQueries({
    queries: integrationIds.slice(0, pickListIntegrations).map((id) => ({
      queryKey: integrationKeys.catalogue(id),
      queryFn: () =>
        unwrap(api.GET('/api/partner/integrations/{id}/product-groups', { params: { path: { id } } })),
      staleTime: 5 * 60_000,
    })),
  })
  const groups = new Map<string, Set<string>>()
  for (const r of results)
    for (const [group, types] of Object.entries(r.data?.productGroups ?? {})) {
      const known = groups.get(group) ?? new Set<string>()
      for (const t of types) known.add(t)
      groups.set(group, known)
    }
  return new Map(
    [...groups]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, types]) => [group, [...types].sort((a, b) => a.localeCompare(b))]),
  )
}
