// The partner's PSA connection, its test, and the look-ups the mapping screens pick from.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, api, unwrap } from '../api/client'
import type { LookupKind, PsaInput } from '../api/types'
import { boardScoped } from '../pages/wizard/psaKinds'

export const psaKeys = {
  all: ['psa'] as const,
  connection: () => [...psaKeys.all, 'connection'] as const,
  sync: () => [...psaKeys.all, 'sync'] as const,
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

/**
 * How the PSA's changes reach alertbridge (two-way sync). It is set up a moment after the connection is
 * saved: until then the service answers 404, and this asks again every few seconds.
 */
export function usePsaSync() {
  return useQuery({
    queryKey: psaKeys.sync(),
    queryFn: () => unwrap(api.GET('/api/partner/psa/sync')),
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    refetchInterval: (q) =>
      q.state.error instanceof ApiError && q.state.error.status === 404 ? 3_000 : 60_000,
  })
}

/** Registers the PSA's push again (it runs in the background; the status is read again shortly). */
export function useRegisterPsaSync() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/partner/psa/sync/register')),
    onSuccess: () => {
      setTimeout(() => void client.invalidateQueries({ queryKey: psaKeys.sync() }), 1_500)
    },
  })
}

const perBoard = (what: LookupKind) => what === 'statuses' || what === 'types'

/**
 * Whether a look-up can be asked now. Where the PSA lists statuses and types per board (ConnectWise),
 * they need a board: the one given or the connection's saved default board (`savedBoard` false: not
 * that one, while it is being edited). Until the connection is known, they wait too. Without a board
 * the PSA would refuse the request: it is not sent (`needsBoard` says why).
 */
export function useLookupReady(
  what: LookupKind,
  board: string | null | undefined,
  savedBoard = true,
): { ready: boolean; needsBoard: boolean } {
  const psa = usePsa()
  if (!perBoard(what) || board) return { ready: true, needsBoard: false }
  if (!psa.data) return { ready: false, needsBoard: false }
  const defaults = (psa.data as { defaults?: { board?: unknown } }).defaults
  const fallback = savedBoard && typeof defaults?.board === 'string' && defaults.board !== ''
  const needsBoard = boardScoped(psa.data.kind, what) && !fallback
  return { ready: !needsBoard, needsBoard }
}

export function usePsaLookup(what: LookupKind, q: LookupQuery, enabled = true) {
  const { ready } = useLookupReady(what, q.board)
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
    enabled: enabled && ready,
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

/** A company's name from its id (the PSA look-up also finds exact ids). */
export function useCompanyName(companyId: string | null) {
  const found = usePsaLookup('companies', { search: companyId ?? '', limit: 10 }, !!companyId)
  return found.data?.data.find((c) => c.id === companyId)?.name ?? null
}
