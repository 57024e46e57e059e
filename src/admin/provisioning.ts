// What the operator provisions: vendors, partners and the integrations between them (DESIGN §7).
// Used by the admin API and by the demo set-up, so both go through the same checks.
import { v7 as uuidv7 } from 'uuid'
import type { ProductGroupsMapping } from '../catalogue/adapter.js'
import { type Clock, iso } from '../clock.js'
import type { Integration } from '../db/repositories/integrations.js'
import type { Partner } from '../db/repositories/partners.js'
import type { Vendor, VendorPatch } from '../db/repositories/vendors.js'
import type { Store } from '../db/store.js'
import { type CatalogueInput, normaliseCatalogue } from '../domain/catalogue.js'
import { defaultDedupFields } from '../domain/dedup.js'
import type { IntegrationSettings } from '../domain/types.js'
import { ApiError } from '../http/errors.js'
import type { PsaKind } from '../psa/adapter.js'
import type { PsaRegistry } from '../psa/registry.js'
import { checkPsaSettings } from '../psa/settings.js'
import { digest, newClientId, newSecret, newWebhookSecret } from '../security/secrets.js'
import { checkOutboundUrl } from '../webhooks/outbound.js'
import type { SnapshotScheduler } from '../webhooks/snapshots.js'

export interface VendorInput {
  name?: string
  webhookUrl?: string | null
  webhookAuthHeader?: string | { name: string; value: string } | null
  productGroups?: CatalogueInput | null
  productGroupsUrl?: string | null
  productGroupsMapping?: ProductGroupsMapping | null
  rateLimitPerMinute?: number | null
  /** true: a paused or disabled webhook endpoint is active again. */
  webhookEnabled?: boolean
}

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
})

function authHeader(h: VendorInput['webhookAuthHeader']): string | null | undefined {
  if (h === undefined || h === null) return h
  const header = typeof h === 'string' ? { name: 'Authorization', value: h } : h
  return JSON.stringify(header)
}

export class Provisioning {
  constructor(
    private readonly store: Store,
    private readonly psa: PsaRegistry,
    private readonly clock: Clock,
    private readonly snapshots: SnapshotScheduler,
    private readonly allowPrivateNetwork: boolean,
  ) {}

  /** Outbound URLs are checked when configured (and again at every connection). */
  private async checkUrls(input: VendorInput): Promise<void> {
    for (const [field, url] of [
      ['webhookUrl', input.webhookUrl],
      ['productGroupsUrl', input.productGroupsUrl],
    ] as const) {
      if (!url) continue
      const check = await checkOutboundUrl(url, { allowPrivateNetwork: this.allowPrivateNetwork })
      if (!check.ok) throw new ApiError('VALIDATION_FAILED', `${field}: ${check.reason}`)
    }
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
            : normaliseCatalogue(input.productGroups),
      productGroupsUrl: input.productGroupsUrl,
      productGroupsMapping: input.productGroupsMapping,
      rateLimitPerMinute: input.rateLimitPerMinute,
    }
  }

  async createVendor(
    input: VendorInput & { name: string },
  ): Promise<{ vendor: Vendor; clientSecret: string; webhookSecret: string }> {
    await this.checkUrls(input)
    const clientSecret = newSecret('clientSecret')
    const webhookSecret = newWebhookSecret()
    const vendor = await this.store.vendors.insert({
      id: uuidv7(),
      name: input.name,
      clientId: newClientId(),
      clientSecretDigest: digest(clientSecret),
      now: iso(this.clock),
      patch: { ...this.vendorPatch(input), webhookSecret },
    })
    return { vendor, clientSecret, webhookSecret }
  }

  /**
   * Changes a vendor. Used by the operator's PATCH and by the vendor's own PUT product-groups, so a
   * changed static catalogue schedules the state_snapshot of every integration of the vendor either way.
   */
  async updateVendor(id: string, input: VendorInput): Promise<Vendor> {
    await this.checkUrls(input)
    const now = iso(this.clock)
    const vendor = await this.store.transaction(async (tx) => {
      const before = await tx.vendors.findById(id)
      if (!before) return null
      const after = await tx.vendors.update(id, this.vendorPatch(input), now)
      if (input.webhookEnabled === true && after?.webhookState !== 'active')
        await tx.vendors.setWebhookState(id, 'active', null, now)
      if (input.webhookEnabled === false)
        await tx.vendors.setWebhookState(id, 'paused', 'Paused by the operator.', now)
      if (JSON.stringify(before.productGroups) !== JSON.stringify(after?.productGroups)) {
        const integrations = await tx.integrations.list({ vendorId: id })
        await this.snapshots.changed(
          tx,
          integrations.map((i) => i.id),
        )
      }
      return tx.vendors.findById(id)
    })
    if (!vendor) throw new ApiError('NOT_FOUND', `Vendor '${id}' was not found.`)
    return vendor
  }

  private checkPsa(input: PsaInput): Partner['psa'] {
    const { kind, ...settings } = input
    if (!this.psa.get(kind)) {
      throw new ApiError(
        'VALIDATION_FAILED',
        `PSA kind '${kind}' is not available in this build; available: ${this.psa.available.join(', ')}.`,
      )
    }
    return { kind, settings: checkPsaSettings(kind, settings) }
  }

  async createPartner(input: { name: string; psa: PsaInput }): Promise<{ partner: Partner; apiKey: string }> {
    const psa = this.checkPsa(input.psa)
    const apiKey = newSecret('partnerKey')
    const partner = await this.store.partners.insert({
      id: uuidv7(),
      name: input.name,
      apiKeyDigest: digest(apiKey),
      psa,
      now: iso(this.clock),
    })
    return { partner, apiKey }
  }

  async updatePartner(id: string, input: { name?: string; psa?: PsaInput }): Promise<Partner> {
    const psa = input.psa ? this.checkPsa(input.psa) : undefined
    const partner = await this.store.partners.update(id, { name: input.name, psa }, iso(this.clock))
    if (!partner) throw new ApiError('NOT_FOUND', `Partner '${id}' was not found.`)
    return partner
  }

  async createIntegration(input: {
    vendorId: string
    partnerId: string
  }): Promise<{ integration: Integration; organizationOemToken: string }> {
    const [vendor, partner] = await Promise.all([
      this.store.vendors.findById(input.vendorId),
      this.store.partners.findById(input.partnerId),
    ])
    if (!vendor) throw new ApiError('NOT_FOUND', `Vendor '${input.vendorId}' was not found.`)
    if (!partner) throw new ApiError('NOT_FOUND', `Partner '${input.partnerId}' was not found.`)
    const existing = await this.store.integrations.list({ vendorId: vendor.id, partnerId: partner.id })
    if (existing.length > 0) {
      throw new ApiError('CONFLICT', `Vendor and partner already have integration '${existing[0]?.id}'.`)
    }
    const organizationOemToken = newSecret('orgToken')
    const integration = await this.store.integrations.insert({
      id: uuidv7(),
      vendorId: vendor.id,
      partnerId: partner.id,
      orgTokenDigest: digest(organizationOemToken),
      settings: defaultIntegrationSettings(),
      now: iso(this.clock),
    })
    return { integration, organizationOemToken }
  }
}
