// Usage counts and their pushes to the PSA's billing lines.
// Each table joins the Database (src/platform/db/schema.ts) from here.
import type { Generated } from 'kysely'
import type { UsagePushStatus } from './usage-push-plan.js'

export interface UsageCountsTable {
  id: string
  integration_id: string
  service_id: string
  account_id: string
  unit_count: number
  created_at: string
}

/** A vendor service mapped, for one account, to a billing line of the PSA (docs/partner-api.md#usage-counts-reach-the-psas-billing). */
export interface ServiceLineMappingsTable {
  integration_id: string
  service_id: string
  account_id: string
  psa_line_id: string
  created_at: string
  updated_at: string
}

/** The last push of a service's usage for one account to the PSA. */
export interface UsagePushesTable {
  integration_id: string
  service_id: string
  account_id: string
  usage_id: string
  unit_count: number
  status: UsagePushStatus
  psa_line_id: string | null
  previous_quantity: number | null
  attempts: Generated<number>
  detail: string | null
  updated_at: string
  pushed_count: number | null
  pushed_at: string | null
}

declare module '../platform/db/schema.js' {
  interface Database {
    usage_counts: UsageCountsTable
    service_line_mappings: ServiceLineMappingsTable
    usage_pushes: UsagePushesTable
  }
}
