// A partner's mapping of the vendor's services to PSA products, for billing
// (docs/decisions/billing/service-mappings.md).
import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'

export class ServiceMappingRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The PSA product of each of these services that has one. */
  async forServices(integrationId: string, serviceIds: readonly string[]): Promise<Map<string, string>> {
    if (serviceIds.length === 0) return new Map()
    const rows = await this.db
      .selectFrom('service_mappings')
      .select(['service_id', 'psa_product_id'])
      .where('integration_id', '=', integrationId)
      .where('service_id', 'in', serviceIds)
      .execute()
    return new Map(rows.map((r) => [r.service_id, r.psa_product_id]))
  }

  async put(
    integrationId: string,
    m: { serviceId: string; psaProductId: string },
    now: string,
  ): Promise<void> {
    await this.db
      .insertInto('service_mappings')
      .values({
        integration_id: integrationId,
        service_id: m.serviceId,
        psa_product_id: m.psaProductId,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['integration_id', 'service_id'])
          .doUpdateSet({ psa_product_id: m.psaProductId, updated_at: now }),
      )
      .execute()
  }

  /** Answers whether a mapping was removed. */
  async delete(integrationId: string, serviceId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('service_mappings')
      .where('integration_id', '=', integrationId)
      .where('service_id', '=', serviceId)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    serviceMappings: ServiceMappingRepository
  }
}
defineRepository('serviceMappings', (kysely) => new ServiceMappingRepository(kysely))
