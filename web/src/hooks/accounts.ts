// The vendor's accounts of an integration and their mapping to PSA companies.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

export type MappedFilter = 'all' | 'unmapped' | 'mapped'

export const accountKeys = {
  all: (id: string) => ['accounts', id] as const,
  list: (id: string, filter: MappedFilter, cursor: string | null, limit: number, search: string) =>
    [...accountKeys.all(id), filter, cursor, limit, search] as const,
}

export function useAccounts(
  id: string,
  filter: MappedFilter,
  cursor: string | null,
  limit = 25,
  search = '',
) {
  return useQuery({
    queryKey: accountKeys.list(id, filter, cursor, limit, search),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/integrations/{id}/accounts', {
          params: {
            path: { id },
            query: {
              limit,
              ...(cursor ? { cursor } : {}),
              ...(search.trim() ? { search: search.trim() } : {}),
              ...(filter === 'all' ? {} : { mapped: filter === 'mapped' }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  })
}

export function useMapAccount(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { accountId: string; psaCompanyId: string }) =>
      unwrap(
        api.PUT('/api/partner/integrations/{id}/accounts/{accountId}', {
          params: { path: { id, accountId: v.accountId } },
          body: { psaCompanyId: v.psaCompanyId },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.all(id) }),
  })
}

export function useUnmapAccount(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (accountId: string) =>
      unwrap(
        api.DELETE('/api/partner/integrations/{id}/accounts/{accountId}', {
          params: { path: { id, accountId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.all(id) }),
  })
}
