// The catch-all account's unmapped accounts (docs/partner-api.md#catch-all-account): the accounts seen
// unmapped with their alert counts, and mapping one in a click.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { accountKeys } from './accounts'

const unmappedKey = (id: string) => ['unmapped-accounts', id] as const

export function useUnmappedAccounts(id: string) {
  return useQuery({
    queryKey: unmappedKey(id),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/integrations/{id}/unmapped-accounts', {
          params: { path: { id }, query: { limit: 100 } },
        }),
      ),
  })
}

/** Maps the account; the answer says what became of its open catch-all tickets. */
export function useMapUnmapped(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { accountId: string; psaCompanyId: string }) =>
      unwrap(
        api.PUT('/api/partner/integrations/{id}/accounts/{accountId}', {
          params: { path: { id, accountId: v.accountId } },
          body: { psaCompanyId: v.psaCompanyId },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: unmappedKey(id) })
      void client.invalidateQueries({ queryKey: accountKeys.all(id) })
    },
  })
}
