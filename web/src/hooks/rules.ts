// Rules of an integration (matched by precedence, lower first), reordering, and the rule tester.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Body, Ok, Rule, RuleInput } from '../api/types'

export const ruleKeys = {
  all: (id: string) => ['rules', id] as const,
}

export function useRules(id: string) {
  return useQuery({
    queryKey: ruleKeys.all(id),
    queryFn: () => unwrap(api.GET('/api/partner/integrations/{id}/rules', { params: { path: { id } } })),
  })
}

export function useCreateRule(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: RuleInput) =>
      unwrap(api.POST('/api/partner/integrations/{id}/rules', { params: { path: { id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.all(id) }),
  })
}

export function useUpdateRule(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (v: { ruleId: string; body: Partial<RuleInput> }) =>
      unwrap(
        api.PATCH('/api/partner/integrations/{id}/rules/{ruleId}', {
          params: { path: { id, ruleId: v.ruleId } },
          body: v.body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.all(id) }),
  })
}

export function useDeleteRule(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (ruleId: string) =>
      unwrap(
        api.DELETE('/api/partner/integrations/{id}/rules/{ruleId}', {
          params: { path: { id, ruleId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.all(id) }),
  })
}

/** The precedence each rule gets for an order: 10, 20, 30… so a later insert fits between two. */
export function precedencesFor(order: Rule[]): { ruleId: string; precedence: number }[] {
  return order
    .map((rule, i) => ({ rule, precedence: (i + 1) * 10 }))
    .filter(({ rule, precedence }) => rule.precedence !== precedence)
    .map(({ rule, precedence }) => ({ ruleId: rule.id, precedence }))
}

/** Moves a rule up or down one place: every rule whose precedence changes is saved. */
export function useMoveRule(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async (v: { rules: Rule[]; ruleId: string; by: -1 | 1 }) => {
      const order = [...v.rules]
      const from = order.findIndex((r) => r.id === v.ruleId)
      const to = from + v.by
      if (from < 0 || to < 0 || to >= order.length) return
      const [moved] = order.splice(from, 1)
      if (moved) order.splice(to, 0, moved)
      for (const change of precedencesFor(order)) {
        await unwrap(
          api.PATCH('/api/partner/integrations/{id}/rules/{ruleId}', {
            params: { path: { id, ruleId: change.ruleId } },
            body: { precedence: change.precedence },
          }),
        )
      }
    },
    onSettled: () => client.invalidateQueries({ queryKey: ruleKeys.all(id) }),
  })
}

export type DryRunInput = Body<'/api/partner/integrations/{id}/dry-run', 'post'>
export type DryRunResult = Ok<'/api/partner/integrations/{id}/dry-run', 'post'>

/** What an alert would do now, by the real decision function; changes nothing. */
export function useDryRun(id: string) {
  return useMutation({
    mutationFn: (body: DryRunInput) =>
      unwrap(api.POST('/api/partner/integrations/{id}/dry-run', { params: { path: { id } }, body })),
  })
}
