// Which rule applies to an alert: the enabled rule of the alert's product group with the lowest
// precedence that covers its alert type and whose conditions hold (ties: the older rule first).

import type { IncidentStatus } from '../../platform/core/types.js'
import type { RuleCondition } from './conditions.js'
import {
  type ConditionCheck,
  type ConditionFacts,
  ConditionWork,
  checkCondition,
  conditionsHold,
} from './conditions.js'
import type { TicketTemplates } from './templates.js'

export interface TicketSettings {
  board: string | null
  priority: string | null
  type: string | null
  /** The status a new ticket starts with. */
  status: string | null
  /** The status a RESOLVED alert closes the ticket with (null: the PSA's own closed status). */
  closedStatus: string | null
}

export interface Rule {
  id: string
  precedence: number
  enabled: boolean
  productGroup: string
  /** Empty: every alert type of the group. */
  alertTypes: string[]
  action: 'ticket' | 'suppress'
  suppressStatuses: IncidentStatus[]
  ticket: TicketSettings
  /** Conditions on the alert's text and extra data fields, all of which must hold (rule-conditions.ts). */
  conditions: RuleCondition[]
  /** The new ticket's title and description templates (templates.ts). */
  templates: TicketTemplates
  createdAt: string
}

/**
 * The most rules an integration holds (docs/decisions/bounded-growth/rules-bounded.md). Every alert decides
 * among them and the partner's list shows them whole in precedence order, so the bound is on the rules, not
 * a page of them.
 */
export const maxRulesPerIntegration = 500

/**
 * no-rule: `unmet` counts the rules that cover the group and type but whose conditions do not hold;
 * `unchecked`, those of them whose conditions were not all run, the alert's condition work having reached
 * its limit (rule-conditions.ts).
 */
export type RuleMatch =
  | { kind: 'matched'; rule: Rule }
  | { kind: 'no-rule'; unmet?: number; unchecked?: number }
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
  // The alert's condition work, begun at the first rule with conditions.
  let work: ConditionWork | undefined
  let unchecked = 0
  const rule = facts
    ? ofType.find((r) => {
        if (r.conditions.length === 0) return true
        work ??= new ConditionWork(facts)
        const holds = conditionsHold(r.conditions, work)
        // A rule that fails once the budget is spent failed on a condition that was not run.
        if (!holds && work.spent) unchecked++
        return holds
      })
    : ofType[0]
  if (rule) return { kind: 'matched', rule }
  if (ofType.length === 0) return { kind: 'no-rule' }
  return unchecked > 0
    ? { kind: 'no-rule', unmet: ofType.length, unchecked }
    : { kind: 'no-rule', unmet: ofType.length }
}

/** A rule the dry run tried for an alert, with each of its conditions checked. */
export interface RuleCheck {
  ruleId: string
  precedence: number
  /** Whether every condition holds (a rule without conditions: true). */
  holds: boolean
  conditions: ConditionCheck[]
}

/** The rules the dry run tried, and the condition work their decision took of the alert's budget. */
export interface RuleChecks {
  tried: RuleCheck[]
  work: { used: number; limit: number; spent: boolean }
}

/**
 * For the dry run (docs/partner-api.md#rule-conditions): the enabled rules of the group that cover the
 * type, in precedence order, up to the first whose conditions hold, each with its conditions checked.
 * Which rule holds is decided exactly as matchRule decides it, on the same budget; the conditions of a
 * rule after the first that fails, which that decision does not run, are checked for the answer only,
 * on a budget of their own (none once the decision's budget is spent).
 */
export function checkRules(
  rules: readonly Rule[],
  productGroup: string,
  alertType: string,
  facts: ConditionFacts,
): RuleChecks {
  const tried: RuleCheck[] = []
  const work = new ConditionWork(facts)
  const shownOnly = new ConditionWork(facts)
  const candidates = rules
    .filter((r) => r.enabled && r.productGroup === productGroup)
    .filter((r) => r.alertTypes.length === 0 || r.alertTypes.includes(alertType))
    .sort(byPrecedence)
  for (const r of candidates) {
    let holds = true
    const conditions = r.conditions.map((c) => {
      // Past the budget, nothing more runs, for the answer either.
      const check = checkCondition(c, holds || work.spent ? work : shownOnly)
      holds &&= check.holds
      return check
    })
    tried.push({ ruleId: r.id, precedence: r.precedence, holds, conditions })
    if (holds) break
  }
  return { tried, work: { used: work.used, limit: work.limit, spent: work.spent } }
}
