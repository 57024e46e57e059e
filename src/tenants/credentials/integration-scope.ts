// Which integration a vendor API call acts on: the bearer token names it (docs/contract.md,
// "Authentication").

import { ok, type Result, refuse } from '../../platform/core/result.js'
import type { Store } from '../../platform/db/store.js'
import type { Integration } from '../integrations/integration.js'
import { disabledDetail } from './credentials.js'

/** The vendor a token authenticates, and the integration it is bound to (null: unbound). */
export interface VendorCaller {
  vendorId: string
  integrationId: string | null
}

/**
 * The integration a vendor call acts on: the one the token is bound to (organization_oem_token at
 * token time), or, for an unbound token, the one named explicitly. Never another vendor's.
 */
export async function vendorIntegration(
  store: Store,
  caller: VendorCaller,
  explicitId: string | undefined,
  o: { readDisabledPartner?: boolean } = {},
): Promise<Result<Integration>> {
  const id = caller.integrationId ?? explicitId
  if (!id) {
    return refuse(
      'VALIDATION_FAILED',
      'This token is not bound to an integration: pass integrationId, or request the token with organization_oem_token.',
    )
  }
  if (caller.integrationId && explicitId && explicitId !== caller.integrationId) {
    return refuse(
      'FORBIDDEN',
      `This token is bound to integration '${caller.integrationId}', not '${explicitId}'.`,
    )
  }
  const integration = await store.integrations.findById(id)
  if (!integration || integration.vendorId !== caller.vendorId) {
    return refuse('INTEGRATION_NOT_FOUND', `Integration '${id}' is not an integration of this vendor.`)
  }
  // Nothing is done on a disabled partner's integration (the integration list may still show it).
  if (!o.readDisabledPartner) {
    const partnerDisabled = (await store.integrations.tenantState(integration.id))?.partnerDisabled
    if (partnerDisabled)
      return refuse('TENANT_DISABLED', disabledDetail('partner', partnerDisabled, 'integration'))
  }
  return ok(integration)
}
