// A partner's own integration, looked up for a partner route: another partner's integration reads as
// missing, never as forbidden, so ids cannot be probed (docs/partner-api.md).
import { ok, type Result, refuse } from '../../platform/core/result.js'
import type { Store } from '../../platform/db/store.js'
import type { Integration } from './integration.js'

export class PartnerIntegrations {
  constructor(private readonly store: Pick<Store, 'integrations'>) {}

  async integration(partnerId: string, integrationId: string): Promise<Result<Integration>> {
    const integration = await this.store.integrations.findById(integrationId)
    if (!integration || integration.partnerId !== partnerId)
      return refuse('INTEGRATION_NOT_FOUND', `Integration '${integrationId}' was not found.`)
    return ok(integration)
  }
}
