// The partner's test alert (docs/partner-api.md#test-alerts): send one, close its ticket now.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Body, Ok } from '../api/types'

export type TestAlertInput = Body<'/api/partner/integrations/{id}/test-alert', 'post'>
export type TestAlertResult = Ok<'/api/partner/integrations/{id}/test-alert', 'post'>

export function useSendTestAlert(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: TestAlertInput) =>
      unwrap(api.POST('/api/partner/integrations/{id}/test-alert', { params: { path: { id } }, body })),
    onSettled: () => client.invalidateQueries({ queryKey: ['tickets'] }),
  })
}

export function useCloseTestAlert(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (correlationId: string) =>
      unwrap(
        api.POST('/api/partner/integrations/{id}/test-alert/{correlationId}/close', {
          params: { path: { id, correlationId } },
        }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: ['tickets'] }),
  })
}
