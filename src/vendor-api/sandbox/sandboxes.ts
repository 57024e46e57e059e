// A vendor's own test integrations (docs/vendor-api.md#self-serve-test-mode): a test partner on the
// in-process sandbox PSA, an integration of this vendor with one account mapped and one rule, made by
// the vendor's own bearer token; listed, and deleted with everything they made. A test partner is
// marked with the vendor's id (partners.sandbox_vendor_id) and its PSA can never be a real one.
import type { PartnerRules } from '../../alerts/index.js'
import type { PartnerSetup } from '../../partner-api/index.js'
import type { Clock } from '../../platform/clock.js'
import { notFound, ok, type Result, refuse } from '../../platform/core/result.js'
import type { Store } from '../../platform/db/store.js'
import type { SandboxStore } from '../../psa/index.js'
import type { Actor, Integration, Partner, Provisioning } from '../../tenants/index.js'
import type { VendorSetup } from '../setup.js'

/** How many test integrations a vendor may hold at once. */
export const maxSandboxesPerVendor = 10

export const sandboxAccount = { vendorAccountId: 'test-001', name: 'Test Customer', externalId: 'TEST-001' }
/** The sandbox PSA's company the test account is mapped to. */
export const sandboxCompanyId = '100'

export interface SandboxDeps {
  store: Store
  clock: Clock
  provisioning: Pick<Provisioning, 'createPartner' | 'createIntegration' | 'deleteTestPartner'>
  vendorSetup: Pick<VendorSetup, 'upsertAccounts' | 'startMapping'>
  partnerSetup: Pick<PartnerSetup, 'putMapping' | 'completeMapping'>
  partnerRules: Pick<PartnerRules, 'create'>
  sandbox: Pick<SandboxStore, 'clear'>
}

export interface MadeSandbox {
  integration: Integration
  partner: Partner
  partnerApiKey: string
  organizationOemToken: string
  productGroup: string
  ruleId: string
}

/**
 * A vendor's test integration: the integration, and its partner marked as this vendor's test partner.
 * A token bound to an integration acts on that one only.
 */
export async function findSandbox(
  store: Store,
  caller: { vendorId: string; integrationId: string | null },
  integrationId: string,
): Promise<Result<{ integration: Integration; partner: Partner }>> {
  const { vendorId } = caller
  if (caller.integrationId !== null && caller.integrationId !== integrationId)
    return refuse(
      'FORBIDDEN',
      `This token is bound to integration '${caller.integrationId}', not '${integrationId}'.`,
    )
  const integration = await store.integrations.findById(integrationId)
  const partner = integration ? await store.partners.findById(integration.partnerId) : null
  if (!integration || !partner || integration.vendorId !== vendorId || partner.sandboxVendorId !== vendorId)
    return notFound(`Test integration '${integrationId}'`)
  return ok({ integration, partner })
}

export async function createSandbox(
  s: SandboxDeps,
  vendorId: string,
  input: { name?: string; productGroup?: string },
  by: Actor,
): Promise<Result<MadeSandbox>> {
  const vendor = await s.store.vendors.findById(vendorId)
  if (!vendor) return notFound(`Vendor '${vendorId}'`)
  const productGroup = input.productGroup ?? Object.keys(vendor.productGroups ?? {})[0]
  if (productGroup === undefined)
    return refuse(
      'VALIDATION_FAILED',
      'productGroup: name the product group the test rule makes tickets for (your catalogue is not stored here).',
    )
  // A stored catalogue is checked before anything is written (one read from productGroupsUrl is
  // checked by the rule itself, and a refusal there removes what was made).
  if (vendor.productGroupsUrl === null) {
    const groups = Object.keys(vendor.productGroups ?? {})
    if (groups.length === 0)
      return refuse(
        'VALIDATION_FAILED',
        'You have no product-group catalogue yet: set one (PUT /api/vendor-api/product-groups) first.',
      )
    if (!groups.includes(productGroup))
      return refuse(
        'VALIDATION_FAILED',
        `productGroup: '${productGroup}' is not a product group of your catalogue.`,
      )
  }
  const held = await s.store.partners.sandboxesOf(vendorId, maxSandboxesPerVendor)
  if (held.length >= maxSandboxesPerVendor)
    return refuse(
      'CONFLICT',
      `You hold ${maxSandboxesPerVendor} test integrations, the most at once; delete one (DELETE /api/vendor-api/sandbox/{integrationId}) first.`,
    )
  const partnerMade = await s.provisioning.createPartner(
    {
      name: input.name ?? `${vendor.name} test partner`,
      psa: { kind: 'sandbox', defaults: { board: 'Service Desk', priority: 'P3 - Medium' } },
      sandboxVendorId: vendorId,
    },
    by,
  )
  if (!partnerMade.ok) return partnerMade
  const { partner, apiKey } = partnerMade.value
  const made = await prepare(s, vendorId, partner, productGroup, by)
  if (made.ok) return ok({ ...made.value, partner, partnerApiKey: apiKey, productGroup })
  // Whatever was made goes again: a refused create leaves no test partner behind.
  await removeSandbox(s, vendorId, partner.id, by)
  return made
}

async function prepare(
  s: SandboxDeps,
  vendorId: string,
  partner: Partner,
  productGroup: string,
  by: Actor,
): Promise<Result<{ integration: Integration; organizationOemToken: string; ruleId: string }>> {
  const made = await s.provisioning.createIntegration({ vendorId, partnerId: partner.id }, by)
  if (!made.ok) return made
  const { integration, organizationOemToken } = made.value
  const steps = [
    () => s.vendorSetup.upsertAccounts(integration, [sandboxAccount]),
    () => s.vendorSetup.startMapping(integration),
    () =>
      s.partnerSetup.putMapping(integration, {
        accountId: sandboxAccount.vendorAccountId,
        psaCompanyId: sandboxCompanyId,
        board: null,
      }),
  ]
  for (const step of steps) {
    const done = await step()
    if (!done.ok) return done
  }
  const rule = await s.partnerRules.create(integration, { productGroup })
  if (!rule.ok) return rule
  const mapped = await s.store.integrations.findById(integration.id)
  const completed = mapped ? await s.partnerSetup.completeMapping(mapped) : ok(integration)
  if (!completed.ok) return completed
  return ok({ integration: completed.value, organizationOemToken, ruleId: rule.value.id })
}

/** Deletes the test partner, its integration and everything they made (tickets in the sandbox PSA too). */
export async function removeSandbox(
  s: Pick<SandboxDeps, 'provisioning' | 'sandbox'>,
  vendorId: string,
  partnerId: string,
  by: Actor,
): Promise<Result<null>> {
  const deleted = await s.provisioning.deleteTestPartner(partnerId, vendorId, by)
  if (deleted.ok) await s.sandbox.clear(partnerId)
  return deleted
}
