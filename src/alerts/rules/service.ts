// A partner's rules on an integration: which alerts make tickets (and with what settings) and which are
// suppressed. A rule may only name product groups and alert types of the catalogue the partner may
// use, and an integration holds a bounded number of them. Used by the partner API and the demo set-up.
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../../platform/clock.js'
import { done, notFound, ok, type Refused, type Result, refuse } from '../../platform/core/result.js'
import type { IncidentStatus } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { Integration, ProductGroupSource } from '../../tenants/index.js'
import { checkAgainstProductGroups } from '../../tenants/index.js'
import {
  conditionsProblem,
  integrationProgramProblem,
  programSizeOf,
  type RuleCondition,
} from './conditions.js'
import type { Rule, TicketSettings } from './rules.js'
import { maxRulesPerIntegration } from './rules.js'
import { type TicketTemplates, templatesProblem } from './templates.js'

export interface RuleInput {
  precedence?: number
  enabled?: boolean
  productGroup?: string
  alertTypes?: string[]
  action?: 'ticket' | 'suppress'
  suppressStatuses?: IncidentStatus[]
  ticket?: Partial<Record<keyof TicketSettings, string | null>>
  conditions?: RuleCondition[]
  templates?: Partial<TicketTemplates>
}

export class PartnerRules {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly productGroups: ProductGroupSource,
  ) {}

  async create(integration: Integration, input: RuleInput & { productGroup: string }): Promise<Result<Rule>> {
    if ((await this.store.rules.count(integration.id)) >= maxRulesPerIntegration) {
      return refuse(
        'CONFLICT',
        `An integration holds at most ${maxRulesPerIntegration} rules; delete or widen some (a rule's alertTypes may name several types, or none for all).`,
      )
    }
    const max = await this.store.rules.maxPrecedence(integration.id)
    const now = iso(this.clock)
    const rule: Rule = {
      id: uuidv7(),
      precedence: input.precedence ?? (max === null ? 10 : max + 10),
      enabled: input.enabled ?? true,
      productGroup: input.productGroup,
      alertTypes: input.alertTypes ?? [],
      action: input.action ?? 'ticket',
      suppressStatuses: input.suppressStatuses ?? [],
      ticket: {
        board: input.ticket?.board ?? null,
        priority: input.ticket?.priority ?? null,
        type: input.ticket?.type ?? null,
        status: input.ticket?.status ?? null,
        closedStatus: input.ticket?.closedStatus ?? null,
      },
      conditions: input.conditions ?? [],
      templates: { title: input.templates?.title ?? null, description: input.templates?.description ?? null },
      createdAt: now,
    }
    const refused = await this.check(integration, rule)
    if (refused) return refused
    await this.store.rules.insert(integration.id, rule, now)
    return ok(rule)
  }

  async update(integration: Integration, ruleId: string, input: RuleInput): Promise<Result<Rule>> {
    const current = await this.store.rules.find(integration.id, ruleId)
    if (!current) return notFound(`Rule '${ruleId}'`)
    const rule: Rule = {
      ...current,
      precedence: input.precedence ?? current.precedence,
      enabled: input.enabled ?? current.enabled,
      productGroup: input.productGroup ?? current.productGroup,
      alertTypes: input.alertTypes ?? current.alertTypes,
      action: input.action ?? current.action,
      suppressStatuses: input.suppressStatuses ?? current.suppressStatuses,
      ticket: { ...current.ticket, ...input.ticket },
      conditions: input.conditions ?? current.conditions,
      templates: { ...current.templates, ...input.templates },
    }
    const refused = await this.check(integration, rule)
    if (refused) return refused
    await this.store.rules.replace(integration.id, rule, iso(this.clock))
    return ok(rule)
  }

  async delete(integration: Integration, ruleId: string): Promise<Result<void>> {
    return (await this.store.rules.delete(integration.id, ruleId)) ? done : notFound(`Rule '${ruleId}'`)
  }

  /** Rules may only name product groups and alert types of the catalogue this partner may use; their
   * conditions and templates must be ones alertbridge can run (rule-conditions.ts, templates.ts), and
   * the patterns of all the integration's rules stay within their size together. */
  private async check(integration: Integration, rule: Rule): Promise<Refused | null> {
    const problem = conditionsProblem(rule.conditions) ?? templatesProblem(rule.templates)
    if (problem) return refuse('VALIDATION_FAILED', problem)
    if (rule.conditions.some((c) => c.matches !== undefined)) {
      const others = (await this.store.rules.list(integration.id)).filter((r) => r.id !== rule.id)
      const rest = others.reduce((sum, r) => sum + programSizeOf(r.conditions), 0)
      const current = await this.store.rules.find(integration.id, rule.id)
      const total = integrationProgramProblem(
        rest + (current ? programSizeOf(current.conditions) : 0),
        rest + programSizeOf(rule.conditions),
      )
      if (total) return refuse('CONFLICT', total)
    }
    const vendor = await this.store.vendors.findById(integration.vendorId)
    const catalogue = vendor ? (await this.productGroups.effective(vendor, integration)).catalogue : null
    const check = checkAgainstProductGroups(catalogue, rule.productGroup, ...rule.alertTypes)
    return check.ok ? null : refuse('VALIDATION_FAILED', check.detail)
  }
}
