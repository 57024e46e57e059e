// Which rule applies to an alert: the enabled rule of the alert's product group with the lowest
// precedence that covers its alert type and whose conditions hold (ties: the older rule first).
import {
  type ConditionCheck,
  type ConditionFacts,
  checkCondition,
  conditionsHold,
} from './rule-conditions.js'
import type { Rule } from './types.js'

/**
 * The most rules an integration holds (docs/decisions/bounded-growth/rules-bounded.md). Every alert decides
 * among them and the partner's list shows them whole in precedence order, so the bound is on the rules, not
 * a page of them.
 */
export const maxRulesPerIntegration = 500

/** no-rule: `unmet` counts the rules that cover the group and type but whose conditions do not hold. */
export type RuleMatch =
  | { kind: 'matched'; rule: Rule }
  | { kind: 'no-rule'; unmet?: number }
  | { kind: 'all-disabled' }

export function byPrecedence(a: Rule, b: Rule): number {
  return a.precedence - b.precedence || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)
}

/**
 * The rule for an alert of `productGroup` and `alertType`. Without `facts` (which pairs some rule makes
 * tickets for), the rules' conditions are not looked at.
 */
export function matchRule(
  rules: readonly Rule[],
  productGroup: string,
  alertType: string,
  facts?: ConditionFacts,
): RuleMatch {
  const ofGroup = rules.filter((r) => r.productGroup === productGroup)
  if (ofGroup.length === 0) return { kind: 'no-rule' }
  const enabled = ofGroup.filter((r) => r.enabled)
  if (enabled.length === 0) return { kind: 'all-disabled' }
  const ofType = [...enabled]
    .sort(byPrecedence)
    .filter((r) => r.alertTypes.length === 0 || r.alertTypes.includes(alertType))
  const rule = facts ? ofType.find((r) => conditionsHold(r.conditions, facts)) : ofType[0]
  if (rule) return { kind: 'matched', rule }
  return ofType.length > 0 ? { kind: 'no-rule', unmet: ofType.length } : { kind: 'no-rule' }
}

/** A rule the dry run tried for an alert, with each of its conditions checked. */
export interface RuleCheck {
  ruleId: string
  precedence: number
  /** Whether every condition holds (a rule without conditions: true). */
  holds: boolean
  conditions: ConditionCheck[]
}

/**
 * For the dry run (docs/partner-api.md#rule-conditions): the enabled rules of the group that cover the
 * type, in precedence order, up to the first whose conditions hold, each with its conditions checked.
 */
export function checkRules(
  rules: readonly Rule[],
  productGroup: string,
  alertType: string,
  facts: ConditionFacts,
): RuleCheck[] {
  const tried: RuleCheck[] = []
  const candidates = rules
    .filter((r) => r.enabled && r.productGroup === productGroup)
    .filter((r) => r.alertTypes.length === 0 || r.alertTypes.includes(alertType))
    .sort(byPrecedence)
  for (const r of candidates) {
    const conditions = r.conditions.map((c) => checkCondition(c, facts))
    const holds = conditions.every((c) => c.holds)
    tried.push({ ruleId: r.id, precedence: r.precedence, holds, conditions })
    if (holds) break
  }
  return tried
}
