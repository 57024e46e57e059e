// Suggested PSA companies for the vendor's accounts (web/src/match.ts): every PSA company and every
// account not mapped yet are read once, in pages of 1,000 (the service keeps the PSA's list five
// minutes), and matched in the browser; no request per account. Mapping many accounts is one call.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import { api, unwrap } from '../api/client'
import type { Account, PsaEntity } from '../api/types'
import { CompanyIndex, suggestAll } from '../match-index'
import { accountKeys } from './accounts'
import { psaKeys } from './psa'

/** At most this many pages of 1,000 are read of each list. */
const maxPages = 10
const pageSize = 1000

interface AllOf<T> {
  items: T[]
  /** False when there were more than maxPages pages. */
  complete: boolean
}

async function readAll<T>(
  page: (cursor: string | null) => Promise<{ data: T[]; nextCursor: string | null }>,
): Promise<AllOf<T>> {
  const items: T[] = []
  let cursor: string | null = null
  for (let n = 0; n < maxPages; n++) {
    const answer = await page(cursor)
    items.push(...answer.data)
    cursor = answer.nextCursor
    if (!cursor) return { items, complete: true }
  }
  return { items, complete: false }
}

/** Every company of the PSA (up to 10,000). */
export function useAllCompanies(enabled = true) {
  return useQuery({
    queryKey: [...psaKeys.all, 'all-companies'] as const,
    queryFn: () =>
      readAll<PsaEntity>((cursor) =>
        unwrap(
          api.GET('/api/partner/psa/{what}', {
            params: {
              path: { what: 'companies' },
              query: { limit: pageSize, ...(cursor ? { cursor } : {}) },
            },
          }),
        ),
      ),
    staleTime: 5 * 60_000,
    enabled,
  })
}

/** Every account of the integration that is not mapped yet (up to 10,000). */
export function useUnmappedAccounts(integrationId: string, enabled = true) {
  return useQuery({
    queryKey: [...accountKeys.all(integrationId), 'all-unmapped'] as const,
    queryFn: () =>
      readAll<Account>((cursor) =>
        unwrap(
          api.GET('/api/partner/integrations/{id}/accounts', {
            params: {
              path: { id: integrationId },
              query: { mapped: false, limit: pageSize, ...(cursor ? { cursor } : {}) },
            },
          }),
        ),
      ),
    enabled,
  })
}

/** The suggestions for every unmapped account, and the companies by id (for names). */
export function useSuggestions(integrationId: string, enabled = true) {
  const companies = useAllCompanies(enabled)
  const accounts = useUnmappedAccounts(integrationId, enabled)
  const index = useMemo(() => new CompanyIndex(companies.data?.items ?? []), [companies.data])
  const set = useMemo(() => suggestAll(accounts.data?.items ?? [], index), [accounts.data, index])
  return {
    index,
    ...set,
    /** Both lists are read (the suggestions are final). */
    ready: companies.data !== undefined && accounts.data !== undefined,
    /** Only the first 10,000 companies or accounts were compared. */
    partial: companies.data?.complete === false || accounts.data?.complete === false,
    /** Some companies were not read: a company's name may have to be looked up by its id. */
    companiesPartial: companies.data?.complete === false,
    /** The accounts are being read again (after a mapping): the suggestions may be out of date. */
    fetching: accounts.isFetching,
    error: companies.error ?? accounts.error,
  }
}

/** Maps many accounts, all or none, in calls of at most 1,000. */
export function useMapAccounts(integrationId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async (mappings: { accountId: string; psaCompanyId: string }[]) => {
      let mapped = 0
      for (let i = 0; i < mappings.length; i += pageSize) {
        const answer = await unwrap(
          api.PATCH('/api/partner/integrations/{id}/accounts', {
            params: { path: { id: integrationId } },
            body: { mappings: mappings.slice(i, i + pageSize) },
          }),
        )
        mapped += answer.data.length
      }
      return mapped
    },
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.all(integrationId) }),
  })
}
