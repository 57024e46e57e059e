// The catch-all account's rows (docs/decision-table.md#catch-all): the integration's settings as stored,
// the tickets made in the fallback company, and the accounts seen unmapped, counted from the audit log
// (refused OPENs) and the catch-all tickets (the OPENs they took in).
import type { Kysely } from 'kysely'
import type { TicketRecord } from '../../../platform/core/types.js'
import type { Database } from '../../../platform/db/schema.js'
import { defineRepository } from '../../../platform/db/store.js'
import { toRecord } from '../../tickets/rows.js'

/** An account seen unmapped: its refused OPENs and its catch-all tickets' occurrences, and those still open. */
export interface UnmappedAccount {
  accountId: string
  /** The vendor's name for it; null: never declared. */
  name: string | null
  alertCount: number
  openCatchAllTickets: number
  lastSeenAt: string
}

/** The refusals of an unmapped account's OPEN (docs/decision-table.md#no-mapping-or-rule). */
const unmappedErrors = ['ACCOUNT_NOT_MAPPED', 'ACCOUNT_UNKNOWN']

export class CatchAllRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Marks a ticket (still being created) as a catch-all ticket in `psaCompanyId`. */
  async markTicket(ticketId: string, psaCompanyId: string): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set({ catch_all_company_id: psaCompanyId })
      .where('id', '=', ticketId)
      .execute()
  }

  /** The account's open catch-all tickets that the PSA has (a reservation has no PSA ticket yet). */
  async openTickets(integrationId: string, accountId: string): Promise<TicketRecord[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('catch_all_company_id', 'is not', null)
      .where('account_id', '=', accountId)
      .where('status', '=', 'open')
      .where('psa_ticket_id', 'is not', null)
      .orderBy('created_at')
      .execute()
    return rows.map(toRecord)
  }

  /**
   * After its account was mapped: a ticket the PSA moved to the account's company is an ordinary
   * ticket of it; one it could not move stays a catch-all ticket but gives its dedup key up, so the
   * account's next OPEN opens a ticket in its own company.
   */
  async remapped(ticketId: string, moved: boolean, now: string): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set(
        moved ? { catch_all_company_id: null, updated_at: now } : { dedup_open_key: null, updated_at: now },
      )
      .where('id', '=', ticketId)
      .execute()
  }

  /** The accounts seen unmapped that are still not mapped, most alerts first. */
  async unmappedAccounts(integrationId: string, limit: number): Promise<UnmappedAccount[]> {
    const [refused, tickets] = await Promise.all([
      this.db
        .selectFrom('events')
        .select((eb) => [
          'account_id',
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.max('created_at').as('last'),
        ])
        .where('integration_id', '=', integrationId)
        .where('error', 'in', unmappedErrors)
        .where('account_id', 'is not', null)
        .where('incident_status', '=', 'OPEN')
        .where('test', '=', 0)
        .groupBy('account_id')
        .execute(),
      this.db
        .selectFrom('tickets')
        .select((eb) => [
          'account_id',
          eb.fn.sum<number | string>('occurrence_count').as('n'),
          eb.fn.max('last_occurrence_at').as('last'),
          eb.fn.sum<number | string>(eb.case().when('status', '=', 'open').then(1).else(0).end()).as('open'),
        ])
        .where('integration_id', '=', integrationId)
        .where('catch_all_company_id', 'is not', null)
        .groupBy('account_id')
        .execute(),
    ])
    const seen = new Map<string, UnmappedAccount>()
    const add = (accountId: string, n: number, last: string, open: number) => {
      const a = seen.get(accountId)
      if (!a) {
        seen.set(accountId, {
          accountId,
          name: null,
          alertCount: n,
          openCatchAllTickets: open,
          lastSeenAt: last,
        })
        return
      }
      a.alertCount += n
      a.openCatchAllTickets += open
      if (last > a.lastSeenAt) a.lastSeenAt = last
    }
    for (const r of refused) if (r.account_id) add(r.account_id, Number(r.n), String(r.last), 0)
    for (const r of tickets) add(r.account_id, Number(r.n), String(r.last), Number(r.open))
    if (seen.size === 0) return []
    const ids = [...seen.keys()]
    const [mapped, named] = await Promise.all([
      this.db
        .selectFrom('account_mappings')
        .select('account_id')
        .where('integration_id', '=', integrationId)
        .where('account_id', 'in', ids)
        .execute(),
      this.db
        .selectFrom('vendor_accounts')
        .select(['vendor_account_id', 'name'])
        .where('integration_id', '=', integrationId)
        .where('vendor_account_id', 'in', ids)
        .execute(),
    ])
    for (const m of mapped) seen.delete(m.account_id)
    for (const a of named) {
      const s = seen.get(a.vendor_account_id)
      if (s) s.name = a.name
    }
    return [...seen.values()]
      .sort((a, b) => b.alertCount - a.alertCount || a.accountId.localeCompare(b.accountId))
      .slice(0, limit)
  }
}

declare module '../../../platform/db/store.js' {
  interface Repositories {
    /** The catch-all account's tickets and the accounts seen unmapped (docs/decision-table.md#catch-all). */
    catchAll: CatchAllRepository
  }
}
defineRepository('catchAll', (kysely) => new CatchAllRepository(kysely))
