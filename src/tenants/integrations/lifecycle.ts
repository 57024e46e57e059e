// The integration lifecycle (docs/contract.md#integration-states) as it is stored: every state move goes
// through here, so none can forget to tell the vendor (a state_snapshot is scheduled in the same
// transaction). Which moves are allowed is the pure tenants/integrations/state.ts.

import type { IntegrationState } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { StateSnapshots } from '../ports.js'

export class IntegrationLifecycle {
  constructor(private readonly snapshots: StateSnapshots) {}

  /** Moves an integration's state if it is still `from`; answers whether this call moved it. */
  async moveState(
    tx: Store,
    integrationId: string,
    from: IntegrationState,
    to: IntegrationState,
    now: string,
  ): Promise<boolean> {
    const moved = await tx.integrations.moveState(integrationId, from, to, now)
    if (moved) await this.snapshots.changed(tx, [integrationId])
    return moved
  }
}
