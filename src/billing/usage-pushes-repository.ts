// Usage pushed to the PSA (docs/partner-api.md#usage-counts-reach-the-psas-billing): a service's billing
// line per account where the partner named one, and the state of the last push per service and account that
// the partner sees.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../platform/db/schema.js'
import { defineRepository } from '../platform/db/store.js'
import type { UsagePushesTable } from './tables.js'
import type { UsagePush } from './usage-push-plan.js'

const toPush = (r: Selectable<UsagePushesTable>): UsagePush => ({
  serviceId: r.service_id,
  accountId: r.account_id,
  usageId: r.usage_id,
  unitCount: Number(r.unit_count),
  status: r.status,
  psaLineId: r.psa_line_id,
  previousQuantity: r.previous_quantity === null ? null : Number(r.previous_quantity),
  attempts: r.attempts,
  detail: r.detail,
  updatedAt: r.updated_at,
  pushedCount: r.pushed_count === null ? null : Number(r.pushed_count),
  pushedAt: r.pushed_at,
})

type Pair = readonly [serviceId: string, accountId: string]

export class UsagePushRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The billing line a service is mapped to for one account, if the partner named one. */
  async lineFor(integrationId: string, serviceId: string, accountId: string): Promise<string | null> {
    const r = await this.db
      .selectFrom('service_line_mappings')
      .select('psa_line_id')
      .where('integration_id', '=', integrationId)
      .where('service_id', '=', serviceId)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
    return r?.psa_line_id ?? null
  }

  /** Every account's billing line of these services. */
  async linesOf(
    integrationId: string,
    serviceIds: readonly string[],
  ): Promise<{ serviceId: string; accountId: string; psaLineId: string }[]> {
    if (serviceIds.length === 0) return []
    const rows = await this.db
      .selectFrom('service_line_mappings')
      .select(['service_id', 'account_id', 'psa_line_id'])
      .where('integration_id', '=', integrationId)
      .where('service_id', 'in', serviceIds)
      .orderBy('service_id')
      .orderBy('account_id')
      .execute()
    return rows.map((r) => ({ serviceId: r.service_id, accountId: r.account_id, psaLineId: r.psa_line_id }))
  }

  async putLine(
    integrationId: string,
    m: { serviceId: string; accountId: string; psaLineId: string },
    now: string,
  ): Promise<void> {
    await this.db
      .insertInto('service_line_mappings')
      .values({
        integration_id: integrationId,
        service_id: m.serviceId,
        account_id: m.accountId,
        psa_line_id: m.psaLineId,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['integration_id', 'service_id', 'account_id'])
          .doUpdateSet({ psa_line_id: m.psaLineId, updated_at: now }),
      )
      .execute()
  }

  /** Answers whether a line mapping was removed. */
  async deleteLine(integrationId: string, serviceId: string, accountId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('service_line_mappings')
      .where('integration_id', '=', integrationId)
      .where('service_id', '=', serviceId)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }

  /** The push state of these (service, account) pairs that have one. */
  async states(integrationId: string, pairs: readonly Pair[]): Promise<Map<string, UsagePush>> {
    if (pairs.length === 0) return new Map()
    const rows = await this.db
      .selectFrom('usage_pushes')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where((eb) =>
        eb(
          eb.refTuple('service_id', 'account_id'),
          'in',
          pairs.map(([s, a]) => eb.tuple(s, a)),
        ),
      )
      .execute()
    return new Map(rows.map((r) => [pairKey(r.service_id, r.account_id), toPush(r)]))
  }

  async state(integrationId: string, serviceId: string, accountId: string): Promise<UsagePush | null> {
    const r = await this.db
      .selectFrom('usage_pushes')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('service_id', '=', serviceId)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
    return r ? toPush(r) : null
  }

  /** A count is waiting to be pushed: its pair's state says so; what was pushed before is kept. */
  async pending(
    integrationId: string,
    u: { serviceId: string; accountId: string; usageId: string; unitCount: number },
    now: string,
  ): Promise<void> {
    await this.db
      .insertInto('usage_pushes')
      .values({
        integration_id: integrationId,
        service_id: u.serviceId,
        account_id: u.accountId,
        usage_id: u.usageId,
        unit_count: u.unitCount,
        status: 'pending',
        attempts: 0,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['integration_id', 'service_id', 'account_id']).doUpdateSet({
          usage_id: u.usageId,
          unit_count: u.unitCount,
          status: 'pending',
          attempts: 0,
          detail: null,
          updated_at: now,
        }),
      )
      .execute()
  }

  /** The outcome of one attempt at pushing the count `state.usageId`. */
  async record(integrationId: string, state: Omit<UsagePush, 'pushedCount' | 'pushedAt'>): Promise<void> {
    const pushed = state.status === 'pushed'
    const values = {
      usage_id: state.usageId,
      unit_count: state.unitCount,
      status: state.status,
      psa_line_id: state.psaLineId,
      previous_quantity: state.previousQuantity,
      attempts: state.attempts,
      detail: state.detail,
      updated_at: state.updatedAt,
      ...(pushed ? { pushed_count: state.unitCount, pushed_at: state.updatedAt } : {}),
    }
    await this.db
      .insertInto('usage_pushes')
      .values({
        integration_id: integrationId,
        service_id: state.serviceId,
        account_id: state.accountId,
        ...values,
      })
      .onConflict((oc) => oc.columns(['integration_id', 'service_id', 'account_id']).doUpdateSet(values))
      .execute()
  }

  /** The PSA took an earlier count than the one the state is now about: only that is noted. */
  async tookEarlier(
    integrationId: string,
    s: { serviceId: string; accountId: string; unitCount: number },
    at: string,
  ): Promise<void> {
    await this.db
      .updateTable('usage_pushes')
      .set({ pushed_count: s.unitCount, pushed_at: at })
      .where('integration_id', '=', integrationId)
      .where('service_id', '=', s.serviceId)
      .where('account_id', '=', s.accountId)
      .execute()
  }
}

export const pairKey = (serviceId: string, accountId: string) => `${serviceId}\u0000${accountId}`

declare module '../platform/db/store.js' {
  interface Repositories {
    /** Usage pushed to the PSA: line mappings per account and the last push's state. */
    usagePushes: UsagePushRepository
  }
}
defineRepository('usagePushes', (kysely) => new UsagePushRepository(kysely))
