// The partner's PSA connection, its test, and the look-ups the mapping screens pick from.
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { LookupKind, PsaInput } from '../api/types'
import { best, searchWord } from '../match'

export const psaKeys = {
  all: ['psa'] as const,
  connection: () => [...psaKeys.all, 'connection'] as const,
  lookup: (what: LookupKind, q: LookupQuery) => [...psaKeys.all, 'lookup', what, q] as const,
  agreements: (companyId: string) => [...psaKeys.all, 'agreements', companyId] as const,
}

export interface LookupQuery {
  search?: string
  cursor?: string | null
  board?: string | null
  limit?: number
}

export function usePsa() {
  return useQuery({
    queryKey: psaKeys.connection(),
    queryFn: () => unwrap(api.GET('/api/partner/psa')),
  })
}

export function useSavePsa() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: PsaInput) => unwrap(api.PUT('/api/partner/psa', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: psaKeys.all }),
  })
}

export function useTestPsa() {
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/partner/psa/test')) })
}

export function usePsaLookup(what: LookupKind, q: LookupQuery, enabled = true) {
  return useQuery({
    queryKey: psaKeys.lookup(what, q),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/psa/{what}', {
          params: {
            path: { what },
            query: {
              limit: q.limit ?? 25,
              ...(q.search ? { search: q.search } : {}),
              ...(q.cursor ? { cursor: q.cursor } : {}),
              ...(q.board ? { board: q.board } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    enabled,
  })
}

export function useAgreements(companyId: string | null) {
  return useQuery({
    queryKey: psaKeys.agreements(companyId ?? ''),
    queryFn: () =>
      unwrap(api.GET('/api/partner/psa/agreements', { params: { query: { companyId: companyId ?? '' } } })),
    enabled: !!companyId,
    retry: false,
  })
}

/** For each name, the PSA company whose name fits best (or null), searched by its telling word. */
export function useCompanySuggestions(names: string[]) {
  const results = useQueries({
    queries: names.map((name) => ({
      queryKey: psaKeys.lookup('companies', { search: searchWord(name), limit: 20 }),
      queryFn: () =>
        unwrap(
          api.GET('/api/partner/psa/{what}', {
            params: { path: { what: 'companies' }, query: { search: searchWord(name), limit: 20 } },
          }),
        ),
      staleTime: 60_000,
    })),
  })
  return new Map(names.map((name, i) => [name, best(name, results[i]?.data?.data ?? [])?.item ?? null]))
}

/** A company's name from its id (the PSA look-up also finds exact ids). */
export function useCompanyName(companyId: string | null) {
  const found = usePsaLookup('companies', { search: companyId ?? '', limit: 10 }, !!companyId)
  return found.data?.data.find((c) => c.id === companyId)?.name ?? null
}
