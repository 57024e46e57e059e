// Which integration a vendor API call acts on (DESIGN §5: the bearer token names it).
import type { FastifyRequest } from 'fastify'
import type { Store } from '../db/store.js'
import { disabledDetail } from '../domain/credentials.js'
import type { Integration } from '../domain/integration.js'
import { vendorPrincipal } from '../http/auth.js'
import { ApiError } from '../http/errors.js'

/**
 * The integration a vendor call acts on: the one the token is bound to (organization_oem_token at
 * token time), or, for an unbound token, the one named explicitly. Never another vendor's.
 */
export async function vendorIntegration(
  store: Store,
  request: FastifyRequest,
  explicitId: string | undefined,
  o: { readDisabledPartner?: boolean } = {},
): Promise<Integration> {
  const p = vendorPrincipal(request)
  const id = p.integrationId ?? explicitId
  if (!id) {
    throw new ApiError(
      'VALIDATION_FAILED',
      'This token is not bound to an integration: pass integrationId, or request the token with organization_oem_token.',
    )
  }
  if (p.integrationId && explicitId && explicitId !== p.integrationId) {
    throw new ApiError(
      'FORBIDDEN',
      `This token is bound to integration '${p.integrationId}', not '${explicitId}'.`,
    )
  }
  const integration = await store.integrations.findById(id)
  if (!integration || integration.vendorId !== p.vendorId) {
    throw new ApiError('INTEGRATION_NOT_FOUND', `Integration '${id}' is not an integration of this vendor.`)
  }
  // Issue 10: nothing is done on a disabled partner's integration (the integration list may still show it).
  if (!o.readDisabledPartner) {
    const partnerDisabled = (await store.integrations.tenantState(integration.id))?.partnerDisabled
    if (partnerDisabled)
      throw new ApiError('TENANT_DISABLED', disabledDetail('partner', partnerDisabled, 'integration'))
  }
  return integration
}
