// The signed-in user: the session (cookie + CSRF token), signing in and out, accepting an invite.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, api, setCsrfToken, unwrap } from '../api/client'
import type { Ok } from '../api/types'

export type Session = Ok<'/api/partner/session', 'get'>
export type SessionUser = Session['user']

export const sessionKeys = { current: ['session'] as const }

function keep(session: Session): Session {
  setCsrfToken(session.csrfToken)
  return session
}

/** The session, or null when signed out (the status route answers 200 either way: no 401 in the
 * browser's console on the sign-in screen); other failures are errors. */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.current,
    queryFn: async (): Promise<Session | null> => {
      const { session } = await unwrap(api.GET('/api/partner/session/status'))
      if (session) return keep(session)
      setCsrfToken(null)
      return null
    },
    staleTime: 5 * 60_000,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  })
}

/** True when the signed-in user may change things (admin); viewers read. */
export function useCanEdit(): boolean {
  return useSession().data?.user.role === 'admin'
}

export function useSignIn() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async (body: { email: string; password: string }) =>
      keep(await unwrap(api.POST('/api/partner/session', { body }))),
    onSuccess: (session) => {
      client.clear()
      client.setQueryData(sessionKeys.current, session)
    },
  })
}

export function useAcceptInvite() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async (body: { inviteToken: string; password: string; name?: string }) =>
      keep(await unwrap(api.POST('/api/partner/session/invite', { body }))),
    onSuccess: (session) => {
      client.clear()
      client.setQueryData(sessionKeys.current, session)
    },
  })
}

export function useSignOut() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/partner/session')),
    onSettled: () => {
      setCsrfToken(null)
      client.clear()
      client.setQueryData(sessionKeys.current, null)
    },
  })
}
