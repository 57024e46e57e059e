// A test tenancy for a vendor (docs/vendor-api.md#test-tenancies-and-test-alerts): a new vendor, a partner on the
// built-in sandbox PSA, and an integration between them ready to take alerts: one account created and
// mapped, one rule that makes tickets, the mapping completed (state pending, alerting on). Made through the
// same services the APIs use, so it is what an operator, a vendor and a partner would have set up by hand.
// `npm start -- --demo` (src/main/demo.ts) and the operator's POST /api/admin/sandbox both make one here.
import Type, { type Static } from 'typebox'
import type { PartnerRules } from '../alerts/index.js'
import type { PartnerSetup } from '../partner-api/index.js'
import type { Clock } from '../platform/clock.js'
import { ok, type Result } from '../platform/core/result.js'
import type { Store } from '../platform/db/store.js'
import { Nullable } from '../platform/http/schemas.js'
import type { Actor, PortalUsers, Provisioning } from '../tenants/index.js'
import type { VendorSetup } from './setup.js'

/** Every credential of a test tenancy: each secret is shown here once (only digests or sealed copies are kept). */
export const TestTenancyCredentials = Type.Object({
  vendorId: Type.String(),
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'shown once' }),
  webhookSecret: Type.String({ description: 'Standard Webhooks signing secret (whsec_…), shown once' }),
  webhookUrl: Nullable(Type.String({ description: "where the vendor's webhooks go; null: none yet" })),
  partnerId: Type.String(),
  partnerApiKey: Type.String({ description: "the sandbox partner's API key, shown once" }),
  integrationId: Type.String(),
  organizationOemToken: Type.String({ description: 'shown once' }),
  accountId: Type.String({ description: 'the account created and mapped to a PSA company' }),
  productGroup: Type.String({ description: 'the product group the rule makes tickets for' }),
  alertType: Type.String({ description: 'an alert type of that group' }),
  portalEmail: Type.String({ description: "the sandbox partner's portal admin" }),
  portalInvite: Type.String({
    description: 'opens the partner portal at /invite#<portalInvite> (once, for 7 days)',
  }),
})
export type TestTenancyCredentials = Static<typeof TestTenancyCredentials>

export interface TestTenancyInput {
  vendorName: string
  partnerName: string
  webhookUrl?: string | null
  portalEmail: string
}

/** The services a test tenancy is made through (Services has them all). */
export interface TestTenancyDeps {
  store: Store
  clock: Clock
  provisioning: Provisioning
  vendorSetup: VendorSetup
  partnerSetup: PartnerSetup
  partnerRules: PartnerRules
  portalUsers: PortalUsers
}

export const testTenancyProductGroups = {
  'Endpoint Security': ['Malware Detected', 'Ransomware Behaviour', 'Agent Offline'],
  Backup: ['Backup Failed', 'Backup Warning'],
}

const account = { vendorAccountId: 'acme-001', name: 'Acme Corporation', externalId: 'ACME' }
const productGroup = 'Endpoint Security'

/**
 * Makes a test tenancy. The one refusal expected is the vendor's (a webhook URL the outbound checks refuse),
 * answered before anything is written; any later one is a defect, answered as it is.
 */
export async function provisionTestTenancy(
  s: TestTenancyDeps,
  input: TestTenancyInput,
  by: Actor,
): Promise<Result<TestTenancyCredentials>> {
  const vendorMade = await s.provisioning.createVendor(
    { name: input.vendorName, productGroups: testTenancyProductGroups, webhookUrl: input.webhookUrl ?? null },
    by,
  )
  if (!vendorMade.ok) return vendorMade
  const { vendor, clientSecret, webhookSecret } = vendorMade.value
  const partnerMade = await s.provisioning.createPartner(
    {
      name: input.partnerName,
      psa: { kind: 'sandbox', defaults: { board: 'Service Desk', priority: 'P3 - Medium' } },
    },
    by,
  )
  if (!partnerMade.ok) return partnerMade
  const { partner, apiKey } = partnerMade.value
  const integrationMade = await s.provisioning.createIntegration(
    { vendorId: vendor.id, partnerId: partner.id },
    by,
  )
  if (!integrationMade.ok) return integrationMade
  const { integration, organizationOemToken } = integrationMade.value

  const steps = [
    () => s.vendorSetup.upsertAccounts(integration, [account]),
    () => s.vendorSetup.startMapping(integration),
    () =>
      s.partnerSetup.putMapping(integration, {
        accountId: account.vendorAccountId,
        psaCompanyId: '100',
        board: null,
      }),
    // No ticket settings of its own: the PSA connection's defaults apply, so the sandbox keeps working
    // when the partner connects a real PSA (or a simulator) instead.
    () => s.partnerRules.create(integration, { productGroup }),
  ]
  for (const step of steps) {
    const done = await step()
    if (!done.ok) return done
  }
  const mapped = await s.store.integrations.findById(integration.id)
  if (mapped) {
    const completed = await s.partnerSetup.completeMapping(mapped)
    if (!completed.ok) return completed
  }
  const invited = await s.portalUsers.invite(
    partner.id,
    { email: input.portalEmail, name: 'Sandbox admin', role: 'admin' },
    by,
  )
  if (!invited.ok) return invited
  return ok({
    vendorId: vendor.id,
    clientId: vendor.clientId,
    clientSecret,
    webhookSecret,
    webhookUrl: vendor.webhookUrl,
    partnerId: partner.id,
    partnerApiKey: apiKey,
    integrationId: integration.id,
    organizationOemToken,
    accountId: account.vendorAccountId,
    productGroup,
    alertType: testTenancyProductGroups[productGroup][0]!,
    portalEmail: input.portalEmail,
    portalInvite: invited.value.inviteToken,
  })
}
