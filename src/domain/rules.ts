// Which rule applies to an alert: the enabled rule of the alert's product group with the lowest
// precedence that covers its alert type (ties: the older rule first).
import type { Rule } from './types.js'

/**
 * The most rules an integration holds (docs/decisions/bounded-growth/rules-bounded.md). Every alert decides
 * among them and the partner's list shows them whole in precedence order, so the bound is on the rules, not
 * a page of them.
 */
export const maxRulesPerIntegration = 500

export type RuleMatch = { kind: 'matched'; rule: Rule } | { kind: 'no-rule' } | { kind: 'all-disabled' }

export function byPrecedence(a: Rule, b: Rule): number {
  return a.precedence - b.precedence || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)
}

export function matchRule(rules: readonly Rule[], productGroup: string, alertType: string): RuleMatch {
  const ofGroup = rules.filter((r) => r.productGroup === productGroup)
  if (ofGroup.length === 0) return { kind: 'no-rule' }
  const enabled = ofGroup.filter((r) => r.enabled)
  if (enabled.length === 0) return { kind: 'all-disabled' }
  const rule = [...enabled]
    .sort(byPrecedence)
    .find((r) => r.alertTypes.length === 0 || r.alertTypes.includes(alertType))
  return rule ? { kind: 'matched', rule } : { kind: 'no-rule' }
}
