// Integrations: the list, one integration, its toggles, its catalogue and completing the mapping.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { IntegrationPatch } from '../api/types'

export const integrationKeys = {
  all: ['integrations'] as const,
  list: (cursor: string | null, limit: number) => [...integrationKeys.all, 'list', cursor, limit] as const,
  one: (id: string) => [...integrationKeys.all, 'one', id] as const,
  catalogue: (id: string) => [...integrationKeys.all, 'catalogue', id] as const,
}

export const integrationPageSize = 20

/** The integrations with their vendor's name and last-24-hour counts, a page at a time. */
export function useOverview(cursor: string | null, limit = integrationPageSize) {
  return useQuery({
    queryKey: integrationKeys.list(cursor, limit),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/overview', {
          params: { query: { limit, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  })
}

/** The vendor's name of an integration (from the overview's first page, which holds up to 500). */
export function useVendorName(id: string): string | null {
  const overview = useOverview(null, 500)
  return overview.data?.data.find((i) => i.integrationId === id)?.vendorName || null
}

export function useIntegration(id: string) {
  return useQuery({
    queryKey: integrationKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/partner/integrations/{id}', { params: { path: { id } } })),
  })
}

export function useProductGroups(id: string) {
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
