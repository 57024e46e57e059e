// Reading the vendor's usage counts (docs/contract.md#vendor-api-calls,
// docs/decisions/billing/latest-and-history.md): the latest count per service and account, and the history.
// Each POST …/count is one row; "latest" is the row with the highest id (UUIDv7, time-ordered), the same
// order the history pages in.
import type { Kysely, Selectable } from 'kysely'
import type { KeyPage } from '../platform/db/rows.js'
import type { Database } from '../platform/db/schema.js'
import { defineRepository } from '../platform/db/store.js'
import type { UsageCount } from '../tenants/index.js'
import type { UsageCountsTable } from './tables.js'

export interface UsageFilter {
  serviceId?: string
  accountId?: string
}

export interface UsageHistoryQuery extends UsageFilter {
  /** created_at ≥ since (ISO 8601 UTC). */
  since?: string
  /** created_at < until. */
  until?: string
  /** Only ids below this one: the keyset cursor. */
  beforeId?: string
  limit: number
}

const toUsage = (r: Selectable<UsageCountsTable>): UsageCount => ({
  id: r.id,
  serviceId: r.service_id,
  accountId: r.account_id,
  unitCount: Number(r.unit_count),
  createdAt: r.created_at,
})

export class UsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The latest count of every (service, account) pair of the integration that has counts, ordered
   * by service then account. One query: a row is the latest when no row of its pair has a higher id
   * (served by the index on integration, service, account, id).
   */
  async latest(
    integrationId: string,
    filter: UsageFilter = {},
    page?: KeyPage<readonly [serviceId: string, accountId: string]>,
  ): Promise<UsageCount[]> {
    let q = this.db
      .selectFrom('usage_counts as u')
      .selectAll('u')
      .where('u.integration_id', '=', integrationId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('usage_counts as n')
              .select('n.id')
              .whereRef('n.integration_id', '=', 'u.integration_id')
              .whereRef('n.service_id', '=', 'u.service_id')
              .whereRef('n.account_id', '=', 'u.account_id')
              .whereRef('n.id', '>', 'u.id'),
          ),
        ),
      )
    if (filter.serviceId !== undefined) q = q.where('u.service_id', '=', filter.serviceId)
    if (filter.accountId !== undefined) q = q.where('u.account_id', '=', filter.accountId)
    if (page?.after) {
      const [serviceId, accountId] = page.after
      q = q.where((eb) =>
        eb(eb.refTuple('u.service_id', 'u.account_id'), '>', eb.tuple(serviceId, accountId)),
      )
    }
    q = q.orderBy('u.service_id').orderBy('u.account_id')
    if (page) q = q.limit(page.limit)
    return (await q.execute()).map(toUsage)
  }

  /**
   * Deletes up to `limit` counts received before `before`, oldest first, never the latest count of
   * its (service, account) pair: that is the quantity billed, however old.
   */
  async prune(before: string, limit: number): Promise<number> {
    const r = await this.db
      .deleteFrom('usage_counts')
      .where(
        'id',
        'in',
        this.db
          .selectFrom('usage_counts as u')
          .select('u.id')
          .where('u.created_at', '<', before)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('usage_counts as n')
                .select('n.id')
                .whereRef('n.integration_id', '=', 'u.integration_id')
                .whereRef('n.service_id', '=', 'u.service_id')
                .whereRef('n.account_id', '=', 'u.account_id')
                .whereRef('n.id', '>', 'u.id'),
            ),
          )
          .orderBy('u.created_at')
          .limit(limit),
      )
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  /** Every count, newest first, one keyset page (ask for limit + 1 to learn whether more exist). */
  async history(integrationId: string, query: UsageHistoryQuery): Promise<UsageCount[]> {
    let q = this.db.selectFrom('usage_counts').selectAll().where('integration_id', '=', integrationId)
    if (query.serviceId !== undefined) q = q.where('service_id', '=', query.serviceId)
    if (query.accountId !== undefined) q = q.where('account_id', '=', query.accountId)
    if (query.since !== undefined) q = q.where('created_at', '>=', query.since)
    if (query.until !== undefined) q = q.where('created_at', '<', query.until)
    if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId)
    const rows = await q.orderBy('id', 'desc').limit(query.limit).execute()
    return rows.map(toUsage)
  }
}

declare module '../platform/db/store.js' {
  interface Repositories {
    usage: UsageRepository
  }
}
defineRepository('usage', (kysely) => new UsageRepository(kysely))
