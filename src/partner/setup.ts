// What a partner sets up on an integration: toggles, account mappings, rules, completing the
// mapping. Used by the partner API and by the demo set-up.
import { v7 as uuidv7 } from 'uuid'
import type { UsagePushes } from '../billing/usage-push.js'
import type { CatalogueSource, EffectiveCatalogue } from '../catalogue/source.js'
import { type Clock, iso } from '../clock.js'
import type { SettingsPatch } from '../db/repositories/integrations.js'
import type { Store } from '../db/store.js'
import type { ServiceMapping } from '../domain/billing.js'
import { checkAgainstCatalogue } from '../domain/catalogue.js'
import type { Integration } from '../domain/integration.js'
import { transition } from '../domain/integration-state.js'
import { type Actor, fieldsSet } from '../domain/operator-audit.js'
import { maxRulesPerIntegration } from '../domain/rules.js'
import type { AccountMapping, IncidentStatus, Rule, TicketSettings } from '../domain/types.js'
import { ApiError } from '../http/errors.js'
import type { IntegrationLifecycle } from '../integrations/lifecycle.js'
import type { SnapshotScheduler } from '../integrations/snapshots.js'

export interface RuleInput {
  precedence?: number
  enabled?: boolean
  productGroup?: string
  alertTypes?: string[]
  action?: 'ticket' | 'suppress'
  suppressStatuses?: IncidentStatus[]
  ticket?: Partial<Record<keyof TicketSettings, string | null>>
}

/** The partner's credentials for the vendor's catalogue endpoint; the header defaults to authorization. */
type NewServiceMapping = Pick<ServiceMapping, 'serviceId' | 'psaProductId'>

export interface VendorCredentialsInput {
  header?: string
  value: string
}

/** Headers the service sets itself on the catalogue call; credentials cannot travel in them. */
const reservedHeaders = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'accept',
  'user-agent',
])

export class PartnerSetup {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly snapshots: SnapshotScheduler,
    private readonly lifecycle: IntegrationLifecycle,
    private readonly catalogues: CatalogueSource,
    /** Mapping changes push the latest usage counts they touch again (issue 12 §6). */
    private readonly usagePushes: UsagePushes,
  ) {}

  /** The partner's own integration, or 404: another partner's integrations do not exist for it. */
  async integration(partnerId: string, integrationId: string): Promise<Integration> {
    const integration = await this.store.integrations.findById(integrationId)
    if (!integration || integration.partnerId !== partnerId) {
      throw new ApiError('INTEGRATION_NOT_FOUND', `Integration '${integrationId}' was not found.`)
    }
    return integration
  }

  /**
   * Changes toggles and, with `vendorCredentials`, the credentials the service calls the vendor's
   * product-groups endpoint with (sealed; changing them drops the cached list).
   */
  async updateSettings(
    integration: Integration,
    input: SettingsPatch & { vendorCredentials?: VendorCredentialsInput | null },
    /** The operator, when it is the operator's change (it is then audited). */
    by?: Actor,
  ): Promise<Integration> {
    const { vendorCredentials, ...patch } = input
    const header = vendorCredentials?.header?.toLowerCase()
    if (header !== undefined && reservedHeaders.has(header)) {
      throw new ApiError(
        'VALIDATION_FAILED',
        `vendorCredentials.header: '${header}' is set by the service itself; use authorization or a header of the vendor's own.`,
      )
    }
    const now = iso(this.clock)
    await this.store.transaction(async (tx) => {
      await tx.integrations.updateSettings(integration.id, patch, now)
      if (patch.alertsEnabled !== undefined && patch.alertsEnabled !== integration.settings.alertsEnabled)
        await this.snapshots.changed(tx, [integration.id])
      if (vendorCredentials !== undefined)
        await tx.integrations.setVendorCredentials(
          integration.id,
          vendorCredentials && {
            header: vendorCredentials.header ?? 'authorization',
            value: vendorCredentials.value,
          },
          now,
        )
      const summary = {
        fields: fieldsSet(input),
        ...(patch.alertsEnabled !== undefined ? { alertsEnabled: patch.alertsEnabled } : {}),
      }
      await tx.audit.record(
        by,
        { action: 'integration.update', targetType: 'integration', targetId: integration.id, summary },
        now,
      )
    })
    if (vendorCredentials !== undefined) this.catalogues.forget(integration.id)
    return (await this.store.integrations.findById(integration.id))!
  }

  /** The catalogue this integration may use now, and where it came from. */
  async catalogue(integration: Integration): Promise<EffectiveCatalogue> {
    const vendor = await this.store.vendors.findById(integration.vendorId)
    if (!vendor) throw new ApiError('INTEGRATION_NOT_FOUND', `Integration '${integration.id}' has no vendor.`)
    return this.catalogues.effective(vendor, integration)
  }

  async completeMapping(integration: Integration): Promise<Integration> {
    const mappedAccounts = await this.store.mappings.count(integration.id)
    const move = transition(integration.settings.state, { kind: 'partner-completed-mapping', mappedAccounts })
    if (!move.ok) throw new ApiError(move.error, move.detail)
    if (move.changed) {
      await this.store.transaction((tx) =>
        this.lifecycle.moveState(tx, integration.id, integration.settings.state, move.next, iso(this.clock)),
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
      await this.usagePushes.remapped(tx, integration.id, { accountId: mapping.accountId })
    })
    this.usagePushes.handOver()
    return mapping
  }

  async deleteMapping(integration: Integration, accountId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (!(await tx.mappings.delete(integration.id, accountId))) {
        throw new ApiError('NOT_FOUND', `Account '${accountId}' is not mapped.`)
      }
      await this.snapshots.changed(tx, [integration.id])
      await this.usagePushes.remapped(tx, integration.id, { accountId })
    })
    this.usagePushes.handOver()
  }

  /**
   * Maps a service the vendor declared to a PSA product (billing), for every account: each account's
   * counts go to the line of that product on its company's agreements. No snapshot: not in
   * state_snapshot. The latest counts of the service are pushed again.
   */
  async putServiceMapping(integration: Integration, mapping: NewServiceMapping): Promise<NewServiceMapping> {
    await this.declaredService(integration, mapping.serviceId)
    await this.store.transaction(async (tx) => {
      await tx.serviceMappings.put(integration.id, mapping, iso(this.clock))
      await this.usagePushes.remapped(tx, integration.id, { serviceId: mapping.serviceId })
    })
    this.usagePushes.handOver()
    return mapping
  }

  async deleteServiceMapping(integration: Integration, serviceId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (!(await tx.serviceMappings.delete(integration.id, serviceId))) {
        throw new ApiError('NOT_FOUND', `Service '${serviceId}' is not mapped.`)
      }
      await this.usagePushes.remapped(tx, integration.id, { serviceId })
    })
    this.usagePushes.handOver()
  }

  /**
   * Maps a service, for one account, to a billing line of the PSA (a line id from
   * GET /api/partner/psa/agreements); it takes precedence over the service's product mapping.
   */
  async putServiceLine(
    integration: Integration,
    m: { serviceId: string; accountId: string; psaLineId: string },
  ): Promise<{ serviceId: string; accountId: string; psaLineId: string }> {
    await this.declaredService(integration, m.serviceId)
    if (!(await this.store.vendorData.accountExists(integration.id, m.accountId))) {
      throw new ApiError(
        'ACCOUNT_UNKNOWN',
        `The vendor has not declared account '${m.accountId}' for this integration; only declared accounts can be mapped.`,
      )
    }
    await this.store.transaction(async (tx) => {
      await tx.usagePushes.putLine(integration.id, m, iso(this.clock))
      await this.usagePushes.remapped(tx, integration.id, { serviceId: m.serviceId, accountId: m.accountId })
    })
    this.usagePushes.handOver()
    return m
  }

  async deleteServiceLine(integration: Integration, serviceId: string, accountId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (!(await tx.usagePushes.deleteLine(integration.id, serviceId, accountId))) {
        throw new ApiError(
          'NOT_FOUND',
          `Service '${serviceId}' has no billing line for account '${accountId}'.`,
        )
      }
      await this.usagePushes.remapped(tx, integration.id, { serviceId, accountId })
    })
    this.usagePushes.handOver()
  }

  /** Pushes the latest count of every pair again (after the partner fixed what made a push fail). */
  async pushUsageAgain(integration: Integration): Promise<number> {
    const n = await this.store.transaction((tx) => this.usagePushes.remapped(tx, integration.id, {}))
    this.usagePushes.handOver()
    return n
  }

  private async declaredService(integration: Integration, serviceId: string): Promise<void> {
    if (!(await this.store.vendorData.findService(integration.id, serviceId))) {
      throw new ApiError(
        'NOT_FOUND',
        `The vendor has not declared service '${serviceId}' for this integration; only declared services can be mapped.`,
      )
    }
  }

  async createRule(integration: Integration, input: RuleInput & { productGroup: string }): Promise<Rule> {
    if ((await this.store.rules.count(integration.id)) >= maxRulesPerIntegration) {
      throw new ApiError(
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

  /** Rules may only name product groups and alert types of the catalogue this partner may use. */
  private async checkRule(integration: Integration, rule: Rule): Promise<void> {
    const vendor = await this.store.vendors.findById(integration.vendorId)
    const catalogue = vendor ? (await this.catalogues.effective(vendor, integration)).catalogue : null
    const check = checkAgainstCatalogue(catalogue, rule.productGroup, ...rule.alertTypes)
    if (!check.ok) throw new ApiError('VALIDATION_FAILED', check.detail)
  }
}
