// Tickets: the filtered list and one ticket with its event timeline.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { TicketQuery } from '../api/types'

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
