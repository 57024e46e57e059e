// The vendor's services of an integration and their billing lines in the PSA (usage mapping).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

export const serviceKeys = {
  all: (id: string) => ['services', id] as const,
  list: (id: string, cursor: string | null) => [...serviceKeys.all(id), 'list', cursor] as const,
  lines: (id: string, serviceId: string) => [...serviceKeys.all(id), 'lines', serviceId] as const,
}

export function useServices(id: string, cursor: string | null) {
  return useQuery({
    queryKey: serviceKeys.list(id, cursor),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/integrations/{id}/services', {
          params: { path: { id }, query: { limit: 25, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  })
}

export function useServiceLines(id: string, serviceId: string) {
  return useQuery({
    queryKey: serviceKeys.lines(id, serviceId),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/integrations/{id}/services/{serviceId}/accounts', {
          params: { path: { id, serviceId } },
        }),
      ),
  })
}

export function useMapService(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { serviceId: string; psaProductId: string | null }) =>
      v.psaProductId
        ? unwrap(
            api.PUT('/api/partner/integrations/{id}/services/{serviceId}', {
              params: { path: { id, serviceId: v.serviceId } },
              body: { psaProductId: v.psaProductId },
            }),
          )
        : unwrap(
            api.DELETE('/api/partner/integrations/{id}/services/{serviceId}', {
              params: { path: { id, serviceId: v.serviceId } },
            }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceKeys.all(id) }),
  })
}

export function useMapServiceLine(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { serviceId: string; accountId: string; psaLineId: string }) =>
      unwrap(
        api.PUT('/api/partner/integrations/{id}/services/{serviceId}/accounts/{accountId}', {
          params: { path: { id, serviceId: v.serviceId, accountId: v.accountId } },
          body: { psaLineId: v.psaLineId },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceKeys.all(id) }),
  })
}
