// Portal users of the partner: the list, invitations (admins only), roles, removal.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Body, Ok } from '../api/types'

export type Invitation = Ok<'/api/partner/users', 'post'>
export type PortalUser = Invitation['user']
type Role = NonNullable<Body<'/api/partner/users/{id}', 'patch'>['role']>

export const userKeys = {
  all: ['users'] as const,
  list: (cursor: string | null) => [...userKeys.all, cursor] as const,
}

export function useUsers(cursor: string | null) {
  return useQuery({
    queryKey: userKeys.list(cursor),
    queryFn: () =>
      unwrap(
        api.GET('/api/partner/users', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } }),
      ),
    placeholderData: keepPreviousData,
  })
}

export function useInviteUser() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: Body<'/api/partner/users', 'post'>) =>
      unwrap(api.POST('/api/partner/users', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  })
}

export function useUpdateUser() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { userId: string; role: Role }) =>
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
