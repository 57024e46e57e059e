// What the vendor declares about an integration: accounts, services and usage counts (spec §4.6).
import type { Kysely, Selectable } from 'kysely'
import type { Database, VendorAccountsTable, VendorServicesTable } from '../schema.js'

export interface VendorAccount {
  vendorAccountId: string
  name: string
  externalId: string
  createdAt: string
  updatedAt: string
}

export interface VendorService {
  id: string
  name: string
  description: string
  createdAt: string
  updatedAt: string
}

export interface UsageCount {
  id: string
  serviceId: string
  accountId: string
  unitCount: number
  createdAt: string
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

  async accountExists(integrationId: string, vendorAccountId: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('vendor_accounts')
      .select('vendor_account_id')
      .where('integration_id', '=', integrationId)
      .where('vendor_account_id', '=', vendorAccountId)
      .executeTakeFirst()
    return r !== undefined
  }

  async listAccounts(integrationId: string): Promise<VendorAccount[]> {
    const rows = await this.db
      .selectFrom('vendor_accounts')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .orderBy('vendor_account_id')
      .execute()
    return rows.map(toAccount)
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

  async listServices(integrationId: string): Promise<VendorService[]> {
    const rows = await this.db
      .selectFrom('vendor_services')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .orderBy('service_id')
      .execute()
    return rows.map(toService)
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
