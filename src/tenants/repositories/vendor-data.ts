// What the vendor declares about an integration: accounts, services and usage counts
// (docs/contract.md#vendor-api-calls).
import { type Kysely, type Selectable, sql } from 'kysely'
import { containing } from '../../platform/db/like.js'
import { prepared } from '../../platform/db/prepared.js'
import type { KeyPage } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { VendorAccountsTable, VendorServicesTable } from '../tables.js'
import type { UsageCount, VendorAccount, VendorService } from '../vendor-data.js'

/** Which accounts or services a partner's list holds: all, only mapped ones, or only unmapped ones. */
export interface MappedFilter {
  mapped?: boolean
}

const toAccount = (r: Selectable<VendorAccountsTable>): VendorAccount => ({
  vendorAccountId: r.vendor_account_id,
  name: r.name,
  externalId: r.external_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

const toService = (r: Selectable<VendorServicesTable>): VendorService => ({
  id: r.service_id,
  name: r.name,
  description: r.description,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

const declaredAccount = prepared(2, (db: Kysely<Database>, integrationId: string, vendorAccountId: string) =>
  db
    .selectFrom('vendor_accounts')
    .select('vendor_account_id')
    .where('integration_id', '=', integrationId)
    .where('vendor_account_id', '=', vendorAccountId),
)

export class VendorDataRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Creates or updates the account; answers whether it was new. Idempotent per vendorAccountId. */
  async upsertAccount(
    integrationId: string,
    a: { vendorAccountId: string; name: string; externalId: string },
    now: string,
  ): Promise<{ account: VendorAccount; created: boolean }> {
    const existing = await this.findAccount(integrationId, a.vendorAccountId)
    await this.db
      .insertInto('vendor_accounts')
      .values({
        integration_id: integrationId,
        vendor_account_id: a.vendorAccountId,
        name: a.name,
        external_id: a.externalId,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['integration_id', 'vendor_account_id']).doUpdateSet({
          name: a.name,
          external_id: a.externalId,
          updated_at: now,
        }),
      )
      .execute()
    return {
      account: (await this.findAccount(integrationId, a.vendorAccountId))!,
      created: existing === null,
    }
  }

  async findAccount(integrationId: string, vendorAccountId: string): Promise<VendorAccount | null> {
    const r = await this.db
      .selectFrom('vendor_accounts')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('vendor_account_id', '=', vendorAccountId)
      .executeTakeFirst()
    return r ? toAccount(r) : null
  }

  /** Asked for every alert (is its account declared): prepared (platform/db/prepared.ts). */
  async accountExists(integrationId: string, vendorAccountId: string): Promise<boolean> {
    return (await declaredAccount(this.db, integrationId, vendorAccountId)).length > 0
  }

  /** One page of the integration's accounts, by vendorAccountId. */
  async listAccounts(integrationId: string, page: KeyPage<string>): Promise<VendorAccount[]> {
    let q = this.db.selectFrom('vendor_accounts').selectAll().where('integration_id', '=', integrationId)
    if (page.after !== undefined) q = q.where('vendor_account_id', '>', page.after)
    const rows = await q.orderBy('vendor_account_id').limit(page.limit).execute()
    return rows.map(toAccount)
  }

  /** One page of the integration's accounts with their PSA company mapping (null: not mapped). */
  async listAccountsWithMappings(
    integrationId: string,
    page: KeyPage<string> & MappedFilter & { search?: string },
  ): Promise<{ account: VendorAccount; mapping: { psaCompanyId: string; board: string | null } | null }[]> {
    let q = this.db
      .selectFrom('vendor_accounts as a')
      .leftJoin('account_mappings as m', (j) =>
        j
          .onRef('m.integration_id', '=', 'a.integration_id')
          .onRef('m.account_id', '=', 'a.vendor_account_id'),
      )
      .selectAll('a')
      .select(['m.psa_company_id', 'm.board'])
      .where('a.integration_id', '=', integrationId)
    if (page.mapped !== undefined) q = q.where('m.account_id', page.mapped ? 'is not' : 'is', null)
    if (page.search) {
      const pattern = containing(page.search)
      q = q.where(
        sql<boolean>`(lower(a.name) like ${pattern} escape '\\' or lower(a.vendor_account_id) like ${pattern} escape '\\' or lower(a.external_id) like ${pattern} escape '\\')`,
      )
    }
    if (page.after !== undefined) q = q.where('a.vendor_account_id', '>', page.after)
    const rows = await q.orderBy('a.vendor_account_id').limit(page.limit).execute()
    return rows.map((r) => ({
      account: toAccount(r),
      mapping: r.psa_company_id === null ? null : { psaCompanyId: r.psa_company_id, board: r.board },
    }))
  }

  /** How many of the integration's accounts no PSA company is mapped to. */
  async countUnmappedAccounts(integrationId: string): Promise<number> {
    const r = await this.db
      .selectFrom('vendor_accounts as a')
      .leftJoin('account_mappings as m', (j) =>
        j
          .onRef('m.integration_id', '=', 'a.integration_id')
          .onRef('m.account_id', '=', 'a.vendor_account_id'),
      )
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('a.integration_id', '=', integrationId)
      .where('m.account_id', 'is', null)
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }

  async upsertService(
    integrationId: string,
    s: { id: string; name: string; description: string },
    now: string,
  ): Promise<{ service: VendorService; created: boolean }> {
    const existing = await this.findService(integrationId, s.id)
    await this.db
      .insertInto('vendor_services')
      .values({
        integration_id: integrationId,
        service_id: s.id,
        name: s.name,
        description: s.description,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['integration_id', 'service_id'])
          .doUpdateSet({ name: s.name, description: s.description, updated_at: now }),
      )
      .execute()
    return { service: (await this.findService(integrationId, s.id))!, created: existing === null }
  }

  async findService(integrationId: string, serviceId: string): Promise<VendorService | null> {
    const r = await this.db
      .selectFrom('vendor_services')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('service_id', '=', serviceId)
      .executeTakeFirst()
    return r ? toService(r) : null
  }

  /** One page of the integration's services, by id. */
  async listServices(integrationId: string, page: KeyPage<string>): Promise<VendorService[]> {
    let q = this.db.selectFrom('vendor_services').selectAll().where('integration_id', '=', integrationId)
    if (page.after !== undefined) q = q.where('service_id', '>', page.after)
    const rows = await q.orderBy('service_id').limit(page.limit).execute()
    return rows.map(toService)
  }

  /** One page of the integration's services with their PSA product mapping (null: not mapped). */
  async listServicesWithMappings(
    integrationId: string,
    page: KeyPage<string> & MappedFilter,
  ): Promise<{ service: VendorService; mapping: { psaProductId: string } | null }[]> {
    let q = this.db
      .selectFrom('vendor_services as s')
      .leftJoin('service_mappings as m', (j) =>
        j.onRef('m.integration_id', '=', 's.integration_id').onRef('m.service_id', '=', 's.service_id'),
      )
      .selectAll('s')
      .select('m.psa_product_id')
      .where('s.integration_id', '=', integrationId)
    if (page.mapped !== undefined) q = q.where('m.service_id', page.mapped ? 'is not' : 'is', null)
    if (page.after !== undefined) q = q.where('s.service_id', '>', page.after)
    const rows = await q.orderBy('s.service_id').limit(page.limit).execute()
    return rows.map((r) => ({
      service: toService(r),
      mapping: r.psa_product_id === null ? null : { psaProductId: r.psa_product_id },
    }))
  }

  /** How many of the integration's services no PSA product is mapped to. */
  async countUnmappedServices(integrationId: string): Promise<number> {
    const r = await this.db
      .selectFrom('vendor_services as s')
      .leftJoin('service_mappings as m', (j) =>
        j.onRef('m.integration_id', '=', 's.integration_id').onRef('m.service_id', '=', 's.service_id'),
      )
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('s.integration_id', '=', integrationId)
      .where('m.service_id', 'is', null)
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }

  async insertUsage(integrationId: string, u: UsageCount): Promise<void> {
    await this.db
      .insertInto('usage_counts')
      .values({
        id: u.id,
        integration_id: integrationId,
        service_id: u.serviceId,
        account_id: u.accountId,
        unit_count: u.unitCount,
        created_at: u.createdAt,
      })
      .execute()
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    vendorData: VendorDataRepository
  }
}
defineRepository('vendorData', (kysely) => new VendorDataRepository(kysely))
