// Webhook deliveries to the vendor (status updates about this partner's alerts) and their replay.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Delivery } from '../api/types'

export type DeliveryStatus = Delivery['status']

export const deliveryKeys = {
  all: ['deliveries'] as const,
  list: (status: DeliveryStatus | null, cursor: string | null) =>
    [...deliveryKeys.all, status, cursor] as const,
}

export function useDeliveries(status: DeliveryStatus | null, cursor: string | null) {
  return useQuery({
    queryKey: deliveryKeys.list(status, cursor),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/deliveries', {
          params: { query: { limit: 20, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  })
}

export function useReplayDelivery() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(api.POST('/api/partner/deliveries/{id}/replay', { params: { path: { id: deliveryId } } })),
    onSettled: () => client.invalidateQueries({ queryKey: deliveryKeys.all }),
  })
}
