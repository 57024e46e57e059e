// Integrations: the list, one integration, its toggles, its catalogue and completing the mapping.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { IntegrationPatch } from '../api/types'

export const integrationKeys = {
  all: ['integrations'] as const,
  list: (cursor: string | null) => [...integrationKeys.all, 'list', cursor] as const,
  one: (id: string) => [...integrationKeys.all, 'one', id] as const,
  catalogue: (id: string) => [...integrationKeys.all, 'catalogue', id] as const,
  counts: (id: string) => [...integrationKeys.all, 'counts', id] as const,
}

export const integrationPageSize = 20

export function useIntegrations(cursor: string | null) {
  return useQuery({
    queryKey: integrationKeys.list(cursor),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/integrations', {
          params: { query: { limit: integrationPageSize, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  })
}

export function useIntegration(id: string) {
  return useQuery({
    queryKey: integrationKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/partner/integrations/{id}', { params: { path: { id } } })),
  })
}

/** Success, suppressed and failed events of the last 24 hours. */
export function useIntegrationCounts(id: string) {
  return useQuery({
    queryKey: integrationKeys.counts(id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/partner/metrics', { params: { query: { integrationId: id } } }))).totals,
    staleTime: 60_000,
  })
}

export function useCatalogue(id: string) {
  return useQuery({
    queryKey: integrationKeys.catalogue(id),
    queryFn: () =>
      unwrap(api.GET('/api/partner/integrations/{id}/product-groups', { params: { path: { id } } })),
    staleTime: 5 * 60_000,
  })
}

export function useUpdateIntegration(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: IntegrationPatch) =>
      unwrap(api.PATCH('/api/partner/integrations/{id}', { params: { path: { id } }, body })),
    onSuccess: (data) => {
      client.setQueryData(integrationKeys.one(id), data)
      void client.invalidateQueries({ queryKey: [...integrationKeys.all, 'list'] })
    },
  })
}

export function useCompleteMapping(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/partner/integrations/{id}/complete-mapping', { params: { path: { id } } })),
    onSuccess: (data) => {
      client.setQueryData(integrationKeys.one(id), data)
      void client.invalidateQueries({ queryKey: [...integrationKeys.all, 'list'] })
    },
  })
}
