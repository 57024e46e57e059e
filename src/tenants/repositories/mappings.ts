import type { Kysely } from 'kysely'
import type { AccountMapping } from '../../platform/core/types.js'
import { prepared } from '../../platform/db/prepared.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'

const mappingOf = prepared(2, (db: Kysely<Database>, integrationId: string, accountId: string) =>
  db
    .selectFrom('account_mappings')
    .select(['account_id', 'psa_company_id', 'board'])
    .where('integration_id', '=', integrationId)
    .where('account_id', '=', accountId),
)

export class MappingRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async forAccounts(integrationId: string, accountIds: string[]): Promise<Map<string, AccountMapping>> {
    if (accountIds.length === 0) return new Map()
    // An alert names one account: that read is prepared (platform/db/prepared.ts).
    const rows =
      accountIds.length === 1
        ? await mappingOf(this.db, integrationId, accountIds[0] as string)
        : await this.db
            .selectFrom('account_mappings')
            .select(['account_id', 'psa_company_id', 'board'])
            .where('integration_id', '=', integrationId)
            .where('account_id', 'in', accountIds)
            .execute()
    return new Map(
      rows.map((r) => [
        r.account_id,
        { accountId: r.account_id, psaCompanyId: r.psa_company_id, board: r.board },
      ]),
    )
  }

  async list(integrationId: string): Promise<(AccountMapping & { updatedAt: string })[]> {
    const rows = await this.db
      .selectFrom('account_mappings')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .orderBy('account_id')
      .execute()
    return rows.map((r) => ({
      accountId: r.account_id,
      psaCompanyId: r.psa_company_id,
      board: r.board,
      updatedAt: r.updated_at,
    }))
  }

  /** Every mapping with the name the vendor gave its account (null: mapped but never declared). */
  async listWithNames(integrationId: string): Promise<(AccountMapping & { name: string | null })[]> {
    const rows = await this.db
      .selectFrom('account_mappings as m')
      .leftJoin('vendor_accounts as a', (j) =>
        j
          .onRef('a.integration_id', '=', 'm.integration_id')
          .onRef('a.vendor_account_id', '=', 'm.account_id'),
      )
      .select(['m.account_id', 'm.psa_company_id', 'm.board', 'a.name'])
      .where('m.integration_id', '=', integrationId)
      .orderBy('m.account_id')
      .execute()
    return rows.map((r) => ({
      accountId: r.account_id,
      psaCompanyId: r.psa_company_id,
      board: r.board,
      name: r.name,
    }))
  }

  async count(integrationId: string): Promise<number> {
    const r = await this.db
      .selectFrom('account_mappings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('integration_id', '=', integrationId)
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }

  async put(integrationId: string, m: AccountMapping, now: string): Promise<void> {
    await this.db
      .insertInto('account_mappings')
      .values({
        integration_id: integrationId,
        account_id: m.accountId,
        psa_company_id: m.psaCompanyId,
        board: m.board,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['integration_id', 'account_id'])
          .doUpdateSet({ psa_company_id: m.psaCompanyId, board: m.board, updated_at: now }),
      )
      .execute()
  }

  async delete(integrationId: string, accountId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('account_mappings')
      .where('integration_id', '=', integrationId)
      .where('account_id', '=', accountId)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    mappings: MappingRepository
  }
}
defineRepository('mappings', (kysely) => new MappingRepository(kysely))
