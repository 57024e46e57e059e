// The tenants: vendors, partners and the integrations between them, created and changed
// through one set of checks. The operator's API and the demo set-up provision them; a vendor's own
// catalogue PUT and a partner's own PSA connection go through the same changes.
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../platform/clock.js'
import { notFound, ok, type Refused, type Result, refuse } from '../platform/core/result.js'
import type { Store } from '../platform/db/store.js'
import { checkOutboundUrl } from '../platform/outbound/address.js'
import { digest, newClientId, newSecret, newWebhookSecret } from '../platform/security/secrets.js'
import type { PsaKind, PsaRegistry } from '../psa/index.js'
import { type Actor, fieldsSet } from './audit/operator-audit.js'
import { defaultDedupFields } from './integrations/dedup.js'
import type { Integration, IntegrationSettings } from './integrations/integration.js'
import type { Partner } from './partner.js'
import type { HeldDeliveries, PsaConnectionChanges, StateSnapshots } from './ports.js'
import { normaliseProductGroups } from './product-groups/product-groups.js'
import type { VendorPatch } from './repositories/vendors.js'
import type { Vendor } from './vendor.js'
import { authHeader, type VendorInput, vendorSummary, webhookAuthHeaderProblem } from './vendor-input.js'

export interface PsaInput {
  kind: PsaKind
  [setting: string]: unknown
}

export const defaultIntegrationSettings = (): IntegrationSettings => ({
  state: 'created',
  alertsEnabled: true,
  ticketCreation: true,
  selfHealing: true,
  deduplication: { enabled: true, keyFields: [...defaultDedupFields], windowMinutes: null },
  closedTickets: { policy: 'refuse', reopenWindowMinutes: 1440, closeOnlyUntouched: false },
})

export class Provisioning {
  constructor(
    private readonly store: Store,
    private readonly psa: PsaRegistry,
    private readonly clock: Clock,
    private readonly snapshots: StateSnapshots,
    private readonly allowPrivateNetwork: boolean,
    /** The loopback origins a webhook URL may name although private addresses are refused (the demo's). */
    private readonly loopbackOrigins: readonly string[],
    /** A webhook endpoint made active again takes back the deliveries held for it. */
    private readonly deliveries: HeldDeliveries,
    /** A partner's PSA connection saved: its push is registered (again) and its poll started. */
    private readonly psaSync: PsaConnectionChanges,
  ) {}

  /**
   * Outbound URLs are checked when configured (and again at every connection), and the auth header
   * sent with them: the refusal, or null.
   */
  private async checkUrls(input: VendorInput): Promise<Refused | null> {
    const header = webhookAuthHeaderProblem(input.webhookAuthHeader)
    if (header) return refuse('VALIDATION_FAILED', header)
    for (const [field, url] of [
      ['webhookUrl', input.webhookUrl],
      ['productGroupsUrl', input.productGroupsUrl],
    ] as const) {
      if (!url) continue
      const check = await checkOutboundUrl(url, {
        allowPrivateNetwork: this.allowPrivateNetwork,
        loopbackOrigins: field === 'webhookUrl' ? this.loopbackOrigins : [],
      })
      if (!check.ok) return refuse('VALIDATION_FAILED', `${field}: ${check.reason}`)
    }
    return null
  }

  private vendorPatch(input: VendorInput): VendorPatch {
    return {
      name: input.name,
      webhookUrl: input.webhookUrl,
      webhookAuthHeader: authHeader(input.webhookAuthHeader),
      productGroups:
        input.productGroups === undefined
          ? undefined
          : input.productGroups === null
            ? null
            : normaliseProductGroups(input.productGroups),
      productGroupsUrl: input.productGroupsUrl,
      productGroupsMapping: input.productGroupsMapping,
      rateLimitPerMinute: input.rateLimitPerMinute,
    }
  }

  async createVendor(
    input: VendorInput & { name: string },
    by?: Actor,
  ): Promise<Result<{ vendor: Vendor; clientSecret: string; webhookSecret: string }>> {
    const refused = await this.checkUrls(input)
    if (refused) return refused
    const clientSecret = newSecret('clientSecret')
    const webhookSecret = newWebhookSecret()
    const now = iso(this.clock)
    const vendor = await this.store.transaction(async (tx) => {
      const vendor = await tx.vendors.insert({
        id: uuidv7(),
        name: input.name,
        clientId: newClientId(),
        clientSecretDigest: digest(clientSecret),
        now,
        patch: { ...this.vendorPatch(input), webhookSecret },
      })
      const summary = { ...vendorSummary(input), clientId: vendor.clientId }
      await tx.audit.record(
        by,
        { action: 'vendor.create', targetType: 'vendor', targetId: vendor.id, summary },
        now,
      )
      return vendor
    })
    return ok({ vendor, clientSecret, webhookSecret })
  }

  /**
   * Changes a vendor. Used by the operator's PATCH and by the vendor's own PUT product-groups, so a
   * changed static catalogue schedules the state_snapshot of every integration of the vendor either way.
   */
  async updateVendor(id: string, input: VendorInput, by?: Actor): Promise<Result<Vendor>> {
    const refused = await this.checkUrls(input)
    if (refused) return refused
    const now = iso(this.clock)
    const vendor = await this.store.transaction(async (tx) => {
      const before = await tx.vendors.findById(id)
      if (!before) return null
      const after = await tx.vendors.update(id, this.vendorPatch(input), now)
      if (input.webhookEnabled === true && after?.webhookState !== 'active')
        await tx.vendors.setWebhookState(id, 'active', null, now)
      if (input.webhookEnabled === false)
        await tx.vendors.setWebhookState(id, 'paused', 'Paused by the operator.', now)
      else if (input.webhookEnabled === true || input.webhookUrl)
        await this.deliveries.endpointEnabled(tx, id)
      if (JSON.stringify(before.productGroups) !== JSON.stringify(after?.productGroups)) {
        const integrations = await tx.integrations.list({ vendorId: id })
        await this.snapshots.changed(
          tx,
          integrations.map((i) => i.id),
        )
      }
      const note = {
        action: 'vendor.update',
        targetType: 'vendor',
        targetId: id,
        summary: vendorSummary(input),
      } as const
      await tx.audit.record(by, note, now)
      return tx.vendors.findById(id)
    })
    this.deliveries.handOver()
    return vendor ? ok(vendor) : notFound(`Vendor '${id}'`)
  }

  private async checkPsa(input: PsaInput): Promise<Result<Partner['psa']>> {
    const { kind, ...settings } = input
    if (!this.psa.knows(kind)) {
      return refuse(
        'VALIDATION_FAILED',
        `PSA kind '${kind}' is not available in this build; available: ${this.psa.kinds.join(', ')}.`,
      )
    }
    const check = this.psa.check(kind, settings)
    if (!check.ok) return refuse('VALIDATION_FAILED', `${check.problems.join('; ')} (PSA kind '${kind}').`)
    // The PSA's host is checked like every configured outbound URL (and again at every connection).
    for (const [field, url] of [
      ['baseUrl', settings.baseUrl],
      ['site', typeof settings.site === 'string' ? `https://${settings.site}` : undefined],
    ] as const) {
      if (typeof url !== 'string') continue
      const host = await checkOutboundUrl(url, { allowPrivateNetwork: this.allowPrivateNetwork })
      if (!host.ok) return refuse('VALIDATION_FAILED', `psa/${field}: ${host.reason}`)
    }
    return ok({ kind, settings: check.settings })
  }

  async createPartner(
    input: { name: string; psa: PsaInput; sandboxVendorId?: string },
    by?: Actor,
  ): Promise<Result<{ partner: Partner; apiKey: string }>> {
    if (input.sandboxVendorId !== undefined && input.psa.kind !== 'sandbox')
      return refuse('VALIDATION_FAILED', "psa/kind: a vendor's test partner is on the sandbox PSA.")
    const checked = await this.checkPsa(input.psa)
    if (!checked.ok) return checked
    const psa = checked.value
    const apiKey = newSecret('partnerKey')
    const now = iso(this.clock)
    const partner = await this.store.transaction(async (tx) => {
      const partner = await tx.partners.insert({
        id: uuidv7(),
        name: input.name,
        apiKeyDigest: digest(apiKey),
        psa,
        now,
        sandboxVendorId: input.sandboxVendorId ?? null,
      })
      const summary = { name: input.name, psaKind: psa.kind }
      await tx.audit.record(
        by,
        { action: 'partner.create', targetType: 'partner', targetId: partner.id, summary },
        now,
      )
      await this.psaSync.connectionChanged(tx, partner.id)
      return partner
    })
    this.psaSync.handOver()
    return ok({ partner, apiKey })
  }

  async updatePartner(
    id: string,
    input: { name?: string; psa?: PsaInput },
    by?: Actor,
  ): Promise<Result<Partner>> {
    if (input.psa && input.psa.kind !== 'sandbox') {
      const saved = await this.store.partners.findById(id)
      if (saved?.sandboxVendorId)
        return refuse(
          'CONFLICT',
          `Partner '${id}' is a vendor's test partner: its PSA stays the sandbox and never connects a real one (docs/vendor-api.md#self-serve-test-mode).`,
        )
    }
    const checked = input.psa ? await this.checkPsa(input.psa) : undefined
    if (checked && !checked.ok) return checked
    const psa = checked?.value
    const now = iso(this.clock)
    const partner = await this.store.transaction(async (tx) => {
      const partner = await tx.partners.update(id, { name: input.name, psa }, now)
      if (!partner) return null
      // PSA settings hold credentials: the log names the kind, never a setting.
      const summary = {
        fields: fieldsSet(input),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(psa ? { psaKind: psa.kind } : {}),
      }
      await tx.audit.record(
        by,
        { action: 'partner.update', targetType: 'partner', targetId: id, summary },
        now,
      )
      if (psa) await this.psaSync.connectionChanged(tx, id)
      return partner
    })
    if (psa) this.psaSync.handOver()
    return partner ? ok(partner) : notFound(`Partner '${id}'`)
  }

  /** Deletes a vendor's test partner with its integration and everything they made (the vendor's own call). */
  async deleteTestPartner(id: string, vendorId: string, by?: Actor): Promise<Result<null>> {
    const now = iso(this.clock)
    const deleted = await this.store.transaction(async (tx) => {
      if (!(await tx.partners.deleteSandbox(id, vendorId))) return false
      await tx.audit.record(
        by,
        { action: 'partner.delete', targetType: 'partner', targetId: id, summary: { sandbox: true } },
        now,
      )
      return true
    })
    return deleted ? ok(null) : notFound(`Test partner '${id}'`)
  }

  async createIntegration(
    input: { vendorId: string; partnerId: string },
    by?: Actor,
  ): Promise<Result<{ integration: Integration; organizationOemToken: string }>> {
    const [vendor, partner] = await Promise.all([
      this.store.vendors.findById(input.vendorId),
      this.store.partners.findById(input.partnerId),
    ])
    if (!vendor) return notFound(`Vendor '${input.vendorId}'`)
    if (!partner) return notFound(`Partner '${input.partnerId}'`)
    const existing = await this.store.integrations.list({ vendorId: vendor.id, partnerId: partner.id })
    if (existing.length > 0)
      return refuse('CONFLICT', `Vendor and partner already have integration '${existing[0]?.id}'.`)
    const organizationOemToken = newSecret('orgToken')
    const now = iso(this.clock)
    const integration = await this.store.transaction(async (tx) => {
      const integration = await tx.integrations.insert({
        id: uuidv7(),
        vendorId: vendor.id,
        partnerId: partner.id,
        orgTokenDigest: digest(organizationOemToken),
        settings: defaultIntegrationSettings(),
        now,
      })
      const note = {
        action: 'integration.create',
        targetType: 'integration',
        targetId: integration.id,
        summary: { vendorId: vendor.id, partnerId: partner.id },
      } as const
      await tx.audit.record(by, note, now)
      return integration
    })
    return ok({ integration, organizationOemToken })
  }
}
