// The vendor's setup and usage calls and the lifecycle moves they cause (docs/contract.md, "Vendor API
// calls" and "Integration states").
import { v7 as uuidv7 } from 'uuid'
import type { UsagePushes } from '../billing/index.js'
import { type Clock, iso } from '../platform/clock.js'
import { ok, type Result, refuse } from '../platform/core/result.js'
import type { IntegrationState } from '../platform/core/types.js'
import type { Store } from '../platform/db/store.js'
import type { Integration, IntegrationLifecycle, UsageCount, VendorAccount } from '../tenants/index.js'
import { transition } from '../tenants/index.js'

export class VendorSetup {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly lifecycle: IntegrationLifecycle,
    private readonly usagePushes: UsagePushes,
  ) {}

  async startMapping(integration: Integration): Promise<Result<IntegrationState>> {
    const from = integration.settings.state
    const move = transition(from, { kind: 'vendor-started-mapping' })
    if (!move.ok) return refuse(move.error, move.detail)
    if (move.changed) {
      await this.store.transaction((tx) =>
        this.lifecycle.moveState(tx, integration.id, from, move.next, iso(this.clock)),
      )
    }
    return ok(move.next)
  }

  /**
   * Creates or updates accounts, idempotent per vendorAccountId: a retried call creates nothing new.
   * Several are written in one transaction; a vendorAccountId twice in one call is refused.
   */
  async upsertAccounts(
    integration: Integration,
    accounts: { vendorAccountId: string; name: string; externalId?: string }[],
  ): Promise<Result<{ account: VendorAccount; created: boolean }[]>> {
    const seen = new Set<string>()
    for (const a of accounts) {
      if (seen.has(a.vendorAccountId)) {
        return refuse(
          'VALIDATION_FAILED',
          `vendorAccountId '${a.vendorAccountId}' appears more than once in this call; send each account once.`,
        )
      }
      seen.add(a.vendorAccountId)
    }
    const now = iso(this.clock)
    const upserted = await this.store.transaction(async (tx) => {
      const results: { account: VendorAccount; created: boolean }[] = []
      for (const a of accounts) {
        results.push(
          await tx.vendorData.upsertAccount(
            integration.id,
            { vendorAccountId: a.vendorAccountId, name: a.name, externalId: a.externalId ?? '' },
            now,
          ),
        )
      }
      return results
    })
    return ok(upserted)
  }

  async recordUsage(
    integration: Integration,
    serviceId: string,
    input: { unitCount: number; accountId: string },
  ): Promise<Result<{ usage: UsageCount; state: IntegrationState }>> {
    const from = integration.settings.state
    const move = transition(from, { kind: 'request-succeeded' })
    if (!move.ok) return refuse(move.error, move.detail)
    const [service, account] = await Promise.all([
      this.store.vendorData.findService(integration.id, serviceId),
      this.store.vendorData.accountExists(integration.id, input.accountId),
    ])
    if (!service) {
      return refuse(
        'NOT_FOUND',
        `Service '${serviceId}' is unknown: create it first (POST /api/vendor-api/organization/services).`,
      )
    }
    if (!account) {
      return refuse(
        'ACCOUNT_UNKNOWN',
        `accountId '${input.accountId}' is unknown: create it first (POST /api/vendor-api/organization/accounts).`,
      )
    }
    const now = iso(this.clock)
    const usage: UsageCount = {
      id: uuidv7(),
      serviceId,
      accountId: input.accountId,
      unitCount: input.unitCount,
      createdAt: now,
    }
    await this.store.transaction(async (tx) => {
      await tx.vendorData.insertUsage(integration.id, usage)
      // The count goes on to the partner's PSA billing line, if one is mapped.
      await this.usagePushes.counted(tx, integration.id, usage)
      if (move.changed) await this.lifecycle.moveState(tx, integration.id, from, move.next, now)
    })
    this.usagePushes.handOver()
    return ok({ usage, state: move.next })
  }
}
