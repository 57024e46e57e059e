// The signed-in user's own account: their sessions (ending one or all others) and their password.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Body, Ok } from '../api/types'
import { sessionKeys } from './session'

export type OwnSession = Ok<'/api/partner/sessions', 'get'>['data'][number]

export const accountKeys = { sessions: ['own-sessions'] as const }

export function useOwnSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: () => unwrap(api.GET('/api/partner/sessions')),
  })
}

export function useEndSession() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/partner/sessions/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions }),
  })
}

export function useEndOtherSessions() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/partner/sessions/end-others')),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions }),
  })
}

export function useChangePassword() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: Body<'/api/partner/session/password', 'post'>) =>
      unwrap(api.POST('/api/partner/session/password', { body })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: accountKeys.sessions })
      void client.invalidateQueries({ queryKey: sessionKeys.current })
    },
  })
}
