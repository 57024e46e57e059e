// What a partner sets up on an integration: toggles, account mappings, rules, completing the
// mapping. Used by the partner API and by the demo set-up.
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../clock.js'
import type { Integration, SettingsPatch } from '../db/repositories/integrations.js'
import type { Store } from '../db/store.js'
import { checkAgainstCatalogue, toCatalogue } from '../domain/catalogue.js'
import { transition } from '../domain/integration-state.js'
import type { AccountMapping, IncidentStatus, Rule, TicketSettings } from '../domain/types.js'
import { ApiError } from '../http/errors.js'
import type { SnapshotScheduler } from '../webhooks/snapshots.js'

export interface RuleInput {
  precedence?: number
  enabled?: boolean
  productGroup?: string
  alertTypes?: string[]
  action?: 'ticket' | 'suppress'
  suppressStatuses?: IncidentStatus[]
  ticket?: Partial<Record<keyof TicketSettings, string | null>>
}

export class PartnerSetup {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly snapshots: SnapshotScheduler,
  ) {}

  /** The partner's own integration, or 404: another partner's integrations do not exist for it. */
  async integration(partnerId: string, integrationId: string): Promise<Integration> {
    const integration = await this.store.integrations.findById(integrationId)
    if (!integration || integration.partnerId !== partnerId) {
      throw new ApiError('INTEGRATION_NOT_FOUND', `Integration '${integrationId}' was not found.`)
    }
    return integration
  }

  async updateSettings(integration: Integration, patch: SettingsPatch): Promise<Integration> {
    await this.store.transaction(async (tx) => {
      await tx.integrations.updateSettings(integration.id, patch, iso(this.clock))
      if (patch.alertsEnabled !== undefined && patch.alertsEnabled !== integration.settings.alertsEnabled)
        await this.snapshots.changed(tx, [integration.id])
    })
    return (await this.store.integrations.findById(integration.id))!
  }

  async completeMapping(integration: Integration): Promise<Integration> {
    const mappedAccounts = await this.store.mappings.count(integration.id)
    const move = transition(integration.settings.state, { kind: 'partner-completed-mapping', mappedAccounts })
    if (!move.ok) throw new ApiError(move.error, move.detail)
    if (move.changed) {
      await this.store.transaction((tx) =>
        this.snapshots.moveState(tx, integration.id, integration.settings.state, move.next, iso(this.clock)),
      )
    }
    return (await this.store.integrations.findById(integration.id))!
  }

  async putMapping(integration: Integration, mapping: AccountMapping): Promise<AccountMapping> {
    if (!(await this.store.vendorData.accountExists(integration.id, mapping.accountId))) {
      throw new ApiError(
        'ACCOUNT_UNKNOWN',
        `The vendor has not declared account '${mapping.accountId}' for this integration; only declared accounts can be mapped.`,
      )
    }
    await this.store.transaction(async (tx) => {
      await tx.mappings.put(integration.id, mapping, iso(this.clock))
      await this.snapshots.changed(tx, [integration.id])
    })
    return mapping
  }

  async deleteMapping(integration: Integration, accountId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (!(await tx.mappings.delete(integration.id, accountId))) {
        throw new ApiError('NOT_FOUND', `Account '${accountId}' is not mapped.`)
      }
      await this.snapshots.changed(tx, [integration.id])
    })
  }

  async createRule(integration: Integration, input: RuleInput & { productGroup: string }): Promise<Rule> {
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
      },
      createdAt: now,
    }
    await this.checkRule(integration, rule)
    await this.store.rules.insert(integration.id, rule, now)
    return rule
  }

  async updateRule(integration: Integration, ruleId: string, input: RuleInput): Promise<Rule> {
    const current = await this.store.rules.find(integration.id, ruleId)
    if (!current) throw new ApiError('NOT_FOUND', `Rule '${ruleId}' was not found.`)
    const rule: Rule = {
      ...current,
      precedence: input.precedence ?? current.precedence,
      enabled: input.enabled ?? current.enabled,
      productGroup: input.productGroup ?? current.productGroup,
      alertTypes: input.alertTypes ?? current.alertTypes,
      action: input.action ?? current.action,
      suppressStatuses: input.suppressStatuses ?? current.suppressStatuses,
      ticket: { ...current.ticket, ...input.ticket },
    }
    await this.checkRule(integration, rule)
    await this.store.rules.replace(integration.id, rule, iso(this.clock))
    return rule
  }

  async deleteRule(integration: Integration, ruleId: string): Promise<void> {
    if (!(await this.store.rules.delete(integration.id, ruleId)))
      throw new ApiError('NOT_FOUND', `Rule '${ruleId}' was not found.`)
  }

  /** Rules may only name product groups and alert types of the vendor's catalogue. */
  private async checkRule(integration: Integration, rule: Rule): Promise<void> {
    const vendor = await this.store.vendors.findById(integration.vendorId)
    const catalogue = vendor?.productGroups ? toCatalogue(vendor.productGroups) : null
    const check = checkAgainstCatalogue(catalogue, rule.productGroup, ...rule.alertTypes)
    if (!check.ok) throw new ApiError('VALIDATION_FAILED', check.detail)
  }
}
