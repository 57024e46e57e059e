// What a partner sets up on an integration: toggles, account and service mappings, completing the
// mapping (its rules: rules.ts). Used by the partner API and by the demo set-up.

import { catchAllProblem } from '../alerts/index.js'
import type { UsagePushes } from '../billing/index.js'
import { type Clock, iso } from '../platform/clock.js'
import { done, ok, type Refused, type Result, refuse } from '../platform/core/result.js'
import type { AccountMapping } from '../platform/core/types.js'
import type { Store } from '../platform/db/store.js'
import { headerFieldProblem } from '../platform/http/header-fields.js'
import { clientSetHeaders } from '../platform/outbound/http.js'
import type {
  EffectiveProductGroups,
  Integration,
  IntegrationLifecycle,
  ProductGroupSource,
  ServiceMapping,
  SettingsPatch,
} from '../tenants/index.js'
import {
  type Actor,
  defaultStormSettings,
  fieldsSet,
  PartnerIntegrations,
  type StormSettings,
  transition,
} from '../tenants/index.js'
import type { SnapshotScheduler } from '../webhooks/index.js'

/** The partner's credentials for the vendor's catalogue endpoint; the header defaults to authorization. */
type NewServiceMapping = Pick<ServiceMapping, 'serviceId' | 'psaProductId'>

export interface VendorCredentialsInput {
  header?: string
  value: string
}

/** Headers the service sets itself on the catalogue call; credentials cannot travel in them. */
const productGroupCallHeaders = [...clientSetHeaders, 'accept']

export class PartnerSetup {
  private readonly owned: PartnerIntegrations

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly snapshots: SnapshotScheduler,
    private readonly lifecycle: IntegrationLifecycle,
    private readonly productGroups: ProductGroupSource,
    /** Mapping changes push the latest usage counts they touch again
     * (docs/partner-api.md#usage-counts-reach-the-psas-billing). */
    private readonly usagePushes: UsagePushes,
  ) {
    this.owned = new PartnerIntegrations(store)
  }

  /** The partner's own integration, or 404: another partner's integrations do not exist for it. */
  integration(partnerId: string, integrationId: string): Promise<Result<Integration>> {
    return this.owned.integration(partnerId, integrationId)
  }

  /**
   * Changes toggles and, with `vendorCredentials`, the credentials the service calls the vendor's
   * product-groups endpoint with (sealed; changing them drops the cached list).
   */
  async updateSettings(
    integration: Integration,
    input: Omit<SettingsPatch, 'storm'> & {
      storm?: Partial<StormSettings>
      vendorCredentials?: VendorCredentialsInput | null
    },
    /** The operator, when it is the operator's change (it is then audited). */
    by?: Actor,
  ): Promise<Result<Integration>> {
    const { vendorCredentials, storm, ...rest } = input
    // Storm control's settings are stored whole: the change is laid over what is set.
    const patch: SettingsPatch = storm
      ? { ...rest, storm: { ...(integration.settings.storm ?? defaultStormSettings()), ...storm } }
      : rest
    const headerProblem =
      vendorCredentials &&
      headerFieldProblem(
        'vendorCredentials',
        { name: vendorCredentials.header ?? 'authorization', value: vendorCredentials.value },
        productGroupCallHeaders,
      )
    if (headerProblem) return refuse('VALIDATION_FAILED', headerProblem)
    const catchAllProblemText = catchAllProblem(integration.settings.catchAll, patch.catchAll)
    if (catchAllProblemText) return refuse('VALIDATION_FAILED', catchAllProblemText)
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
    if (vendorCredentials !== undefined) this.productGroups.forget(integration.id)
    return ok((await this.store.integrations.findById(integration.id))!)
  }

  /** The catalogue this integration may use now, and where it came from. */
  async catalogue(integration: Integration): Promise<Result<EffectiveProductGroups>> {
    const vendor = await this.store.vendors.findById(integration.vendorId)
    if (!vendor) return refuse('INTEGRATION_NOT_FOUND', `Integration '${integration.id}' has no vendor.`)
    return ok(await this.productGroups.effective(vendor, integration))
  }

  async completeMapping(integration: Integration): Promise<Result<Integration>> {
    const mappedAccounts = await this.store.mappings.count(integration.id)
    const move = transition(integration.settings.state, { kind: 'partner-completed-mapping', mappedAccounts })
    if (!move.ok) return refuse(move.error, move.detail)
    if (move.changed) {
      await this.store.transaction((tx) =>
        this.lifecycle.moveState(tx, integration.id, integration.settings.state, move.next, iso(this.clock)),
      )
    }
    return ok((await this.store.integrations.findById(integration.id))!)
  }

  async putMapping(integration: Integration, mapping: AccountMapping): Promise<Result<AccountMapping>> {
    const unknown = await this.undeclaredAccount(integration, mapping.accountId)
    if (unknown) return unknown
    await this.store.transaction(async (tx) => {
      await tx.mappings.put(integration.id, mapping, iso(this.clock))
      await this.snapshots.changed(tx, [integration.id])
      await this.usagePushes.remapped(tx, integration.id, { accountId: mapping.accountId })
    })
    this.usagePushes.handOver()
    return ok(mapping)
  }

  /** Maps several accounts in one transaction, all or none: one undeclared or repeated account refuses all. */
  async putMappings(integration: Integration, mappings: AccountMapping[]): Promise<Result<AccountMapping[]>> {
    const named = new Set<string>()
    for (const m of mappings) {
      if (named.has(m.accountId))
        return refuse('VALIDATION_FAILED', `mappings: account '${m.accountId}' is named more than once.`)
      named.add(m.accountId)
      const unknown = await this.undeclaredAccount(integration, m.accountId)
      if (unknown) return unknown
    }
    const now = iso(this.clock)
    await this.store.transaction(async (tx) => {
      for (const m of mappings) {
        await tx.mappings.put(integration.id, m, now)
        await this.usagePushes.remapped(tx, integration.id, { accountId: m.accountId })
      }
      await this.snapshots.changed(tx, [integration.id])
    })
    this.usagePushes.handOver()
    return ok(mappings)
  }

  async deleteMapping(integration: Integration, accountId: string): Promise<Result<void>> {
    // Nothing is written before a refusal: the transaction that answers it changes nothing.
    const result = await this.store.transaction(async (tx) => {
      if (!(await tx.mappings.delete(integration.id, accountId)))
        return refuse('NOT_FOUND', `Account '${accountId}' is not mapped.`)
      await this.snapshots.changed(tx, [integration.id])
      await this.usagePushes.remapped(tx, integration.id, { accountId })
      return done
    })
    return this.handedOver(result)
  }

  /**
   * Maps a service the vendor declared to a PSA product (billing), for every account: each account's
   * counts go to the line of that product on its company's agreements. No snapshot: not in
   * state_snapshot. The latest counts of the service are pushed again.
   */
  async putServiceMapping(
    integration: Integration,
    m: NewServiceMapping,
  ): Promise<Result<NewServiceMapping>> {
    const undeclared = await this.undeclaredService(integration, m.serviceId)
    if (undeclared) return undeclared
    await this.store.transaction(async (tx) => {
      await tx.serviceMappings.put(integration.id, m, iso(this.clock))
      await this.usagePushes.remapped(tx, integration.id, { serviceId: m.serviceId })
    })
    this.usagePushes.handOver()
    return ok(m)
  }

  async deleteServiceMapping(integration: Integration, serviceId: string): Promise<Result<void>> {
    const result = await this.store.transaction(async (tx) => {
      if (!(await tx.serviceMappings.delete(integration.id, serviceId)))
        return refuse('NOT_FOUND', `Service '${serviceId}' is not mapped.`)
      await this.usagePushes.remapped(tx, integration.id, { serviceId })
      return done
    })
    return this.handedOver(result)
  }

  /**
   * Maps a service, for one account, to a billing line of the PSA (a line id from
   * GET /api/partner/psa/agreements); it takes precedence over the service's product mapping.
   */
  async putServiceLine(
    integration: Integration,
    m: { serviceId: string; accountId: string; psaLineId: string },
  ): Promise<Result<{ serviceId: string; accountId: string; psaLineId: string }>> {
    const undeclared =
      (await this.undeclaredService(integration, m.serviceId)) ??
      (await this.undeclaredAccount(integration, m.accountId))
    if (undeclared) return undeclared
    await this.store.transaction(async (tx) => {
      await tx.usagePushes.putLine(integration.id, m, iso(this.clock))
      await this.usagePushes.remapped(tx, integration.id, { serviceId: m.serviceId, accountId: m.accountId })
    })
    this.usagePushes.handOver()
    return ok(m)
  }

  async deleteServiceLine(
    integration: Integration,
    serviceId: string,
    accountId: string,
  ): Promise<Result<void>> {
    const result = await this.store.transaction(async (tx) => {
      if (!(await tx.usagePushes.deleteLine(integration.id, serviceId, accountId)))
        return refuse('NOT_FOUND', `Service '${serviceId}' has no billing line for account '${accountId}'.`)
      await this.usagePushes.remapped(tx, integration.id, { serviceId, accountId })
      return done
    })
    return this.handedOver(result)
  }

  /** The usage pushes a change queued go to the runner once it committed (not after a refusal). */
  private handedOver(result: Result<void>): Result<void> {
    if (result.ok) this.usagePushes.handOver()
    return result
  }

  /** The refusal for a service the vendor has not declared, or null. */
  private async undeclaredService(integration: Integration, serviceId: string): Promise<Refused | null> {
    if (await this.store.vendorData.findService(integration.id, serviceId)) return null
    return refuse(
      'NOT_FOUND',
      `The vendor has not declared service '${serviceId}' for this integration; only declared services can be mapped.`,
    )
  }

  /** The refusal for an account the vendor has not declared, or null. */
  private async undeclaredAccount(integration: Integration, accountId: string): Promise<Refused | null> {
    if (await this.store.vendorData.accountExists(integration.id, accountId)) return null
    return refuse(
      'ACCOUNT_UNKNOWN',
      `The vendor has not declared account '${accountId}' for this integration; only declared accounts can be mapped.`,
    )
  }
}
