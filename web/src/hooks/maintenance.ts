// An integration's maintenance windows (list, add or replace, delete), and the occurrences of the
// partner's windows in the dashboard's period (expanded on the service, recurrences in their own time
// zone).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Body, Ok } from '../api/types'
import type { MetricsQuery } from './activity'

export const occurrenceKeys = { all: ['maintenance-occurrences'] as const }

export function useMaintenanceOccurrences(q: Pick<MetricsQuery, 'since' | 'integrationId'>) {
  return useQuery({
    queryKey: [...occurrenceKeys.all, q.since, q.integrationId ?? ''] as const,
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/maintenance-occurrences', {
          params: {
            query: { since: q.since, ...(q.integrationId ? { integrationId: q.integrationId } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  })
}

const path = '/api/partner/integrations/{id}/maintenance-windows' as const
export type Window = Ok<typeof path, 'get'>['data'][number]
export type WindowInput = Body<typeof path, 'post'>

const keys = (id: string) => ['maintenance-windows', id] as const

export function useWindows(id: string) {
  return useQuery({
    queryKey: keys(id),
    queryFn: () => unwrap(api.GET(path, { params: { path: { id } } })),
    refetchInterval: 30_000,
  })
}

/** After a change: the list, and the dashboard's occurrences. */
function useChanged(id: string) {
  const client = useQueryClient()
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: keys(id) }),
      client.invalidateQueries({ queryKey: occurrenceKeys.all }),
    ])
}

/** Adds a window, or replaces the one named by windowId. */
export function useSaveWindow(id: string) {
  const changed = useChanged(id)
  return useMutation({
    mutationFn: ({ windowId, body }: { windowId: string | null; body: WindowInput }) =>
      unwrap(
        windowId
          ? api.PUT(`${path}/{windowId}`, { params: { path: { id, windowId } }, body })
          : api.POST(path, { params: { path: { id } }, body }),
      ),
    onSuccess: changed,
  })
}

export function useDeleteWindow(id: string) {
  const changed = useChanged(id)
  return useMutation({
    mutationFn: (windowId: string) =>
      unwrap(api.DELETE(`${path}/{windowId}`, { params: { path: { id, windowId } } })),
    onSuccess: changed,
  })
}
