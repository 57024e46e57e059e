// Portal users of the partner: the list, invitations (admins only), roles, removal.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { SessionUser } from './session'

export interface PortalUser extends SessionUser {
  status?: string
  createdAt?: string
  lastSignInAt?: string | null
  inviteExpiresAt?: string | null
}
export interface Invitation {
  user: PortalUser
  inviteToken: string
  inviteExpiresAt: string
}

export const userKeys = {
  all: ['users'] as const,
  list: (cursor: string | null) => [...userKeys.all, cursor] as const,
}

export function useUsers(cursor: string | null) {
  return useQuery({
    queryKey: userKeys.list(cursor),
    queryFn: async () =>
      (await unwrap(
        api.GET('/api/partner/users', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } }),
      )) as { data: PortalUser[]; nextCursor: string | null },
    placeholderData: keepPreviousData,
  })
}

export function useInviteUser() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async (body: { email: string; name?: string; role: 'admin' | 'viewer' }) =>
      (await unwrap(api.POST('/api/partner/users', { body }))) as Invitation,
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  })
}

export function useUpdateUser() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { userId: string; role: 'admin' | 'viewer' }) =>
      unwrap(
        api.PATCH('/api/partner/users/{id}', { params: { path: { id: v.userId } }, body: { role: v.role } }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  })
}

export function useRemoveUser() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(api.DELETE('/api/partner/users/{id}', { params: { path: { id: userId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  })
}
