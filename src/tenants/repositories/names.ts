// The names the partner's screens show beside ids, read in bulk for one page of rows: the vendor of each
// integration, the vendor's name of each account and the PSA company it is mapped to. Three queries a
// page, whatever its length (docs/partner-api.md#names).
import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'

/** An account of an integration, as a ticket or an event names it. */
export interface AccountRef {
  integrationId: string
  accountId: string
}

export interface PageNames {
  /** integrationId → the vendor's name. */
  vendors: Map<string, string>
  /** accountKey(…) → the name the vendor gave the account. */
  accounts: Map<string, string>
  /** accountKey(…) → the PSA company the account is mapped to. */
  companies: Map<string, string>
}

export const accountKey = (r: AccountRef): string => `${r.integrationId}\u0000${r.accountId}`

export class NameRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async forAccounts(refs: readonly AccountRef[]): Promise<PageNames> {
    const integrationIds = [...new Set(refs.map((r) => r.integrationId))]
    const accountIds = [...new Set(refs.map((r) => r.accountId))]
    if (integrationIds.length === 0) return { vendors: new Map(), accounts: new Map(), companies: new Map() }
    const wanted = new Set(refs.map(accountKey))
    const [vendors, accounts, mappings] = await Promise.all([
      this.db
        .selectFrom('integrations as i')
        .innerJoin('vendors as v', 'v.id', 'i.vendor_id')
        .select(['i.id', 'v.name'])
        .where('i.id', 'in', integrationIds)
        .execute(),
      accountIds.length
        ? this.db
            .selectFrom('vendor_accounts')
            .select(['integration_id', 'vendor_account_id', 'name'])
            .where('integration_id', 'in', integrationIds)
            .where('vendor_account_id', 'in', accountIds)
            .execute()
        : [],
      accountIds.length
        ? this.db
            .selectFrom('account_mappings')
            .select(['integration_id', 'account_id', 'psa_company_id'])
            .where('integration_id', 'in', integrationIds)
            .where('account_id', 'in', accountIds)
            .execute()
        : [],
    ])
    const accountNames = new Map<string, string>()
    for (const a of accounts) {
      const key = accountKey({ integrationId: a.integration_id, accountId: a.vendor_account_id })
      if (wanted.has(key)) accountNames.set(key, a.name)
    }
    const companies = new Map<string, string>()
    for (const m of mappings) {
      const key = accountKey({ integrationId: m.integration_id, accountId: m.account_id })
      if (wanted.has(key)) companies.set(key, m.psa_company_id)
    }
    return { vendors: new Map(vendors.map((v) => [v.id, v.name])), accounts: accountNames, companies }
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    /** The names beside ids on the partner's screens, in bulk for a page (vendors, accounts, companies). */
    names: NameRepository
  }
}
defineRepository('names', (kysely) => new NameRepository(kysely))
