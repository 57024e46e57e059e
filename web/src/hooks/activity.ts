// The audit trail (events) and its success/failure metrics over time.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { EventQuery } from '../api/types'

export const activityKeys = {
  all: ['activity'] as const,
  events: (q: EventQuery) => [...activityKeys.all, 'events', q] as const,
  metrics: (q: MetricsQuery) => [...activityKeys.all, 'metrics', q] as const,
}

export interface MetricsQuery {
  integrationId?: string
  since: string
  bucket: 'hour' | 'day'
}

export function useEvents(q: EventQuery) {
  return useQuery({
    queryKey: activityKeys.events(q),
    queryFn: () => unwrap(api.GET('/api/partner/events', { params: { query: q } })),
    placeholderData: keepPreviousData,
  })
}

export function useMetrics(q: MetricsQuery) {
  return useQuery({
    queryKey: activityKeys.metrics(q),
    queryFn: () => unwrap(api.GET('/api/partner/metrics', { params: { query: q } })),
    placeholderData: keepPreviousData,
  })
}

/** The most frequent causes of failure in the period, each with its newest examples. */
export function useFailureCauses(q: MetricsQuery) {
  return useQuery({
    queryKey: [...activityKeys.all, 'failures', q] as const,
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/failures', {
          params: {
            query: {
              since: q.since,
              limit: 5,
              ...(q.integrationId ? { integrationId: q.integrationId } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  })
}
