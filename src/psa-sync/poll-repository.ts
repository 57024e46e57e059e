// The reconciliation poll's reads (docs/psa/sync.md#the-poll; poll.ts runs the rounds): which of a
// partner's tickets the next page reads back, and how far back closed tickets are read again.
import type { Kysely } from 'kysely'
import type { Database } from '../platform/db/schema.js'
import { defineRepository } from '../platform/db/store.js'
import { type SyncedTicket, syncedColumns, toSynced } from './synced-tickets.js'

/** The longest look-back for closed tickets, whatever an integration's reopen window says. */
const closedLookBackMaxMinutes = 7 * 24 * 60

export class PollRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The poll's next page, read longest ago first: the partner's open tickets with a PSA id not read
   * since `readBefore`, then (when the page has room) its tickets closed within the partner's longest
   * reopen window, at most a week (not deleted in the PSA), whose reopen only a read hears where the
   * PSA does not push it.
   */
  async nextToPoll(
    partnerId: string,
    o: { readBefore: string; now: Date; limit: number },
  ): Promise<SyncedTicket[]> {
    const due = (q: ReturnType<PollRepository['ticketQuery']>) =>
      q
        .where('partner_id', '=', partnerId)
        .where('psa_ticket_id', 'is not', null)
        .where((eb) => eb.or([eb('psa_checked_at', 'is', null), eb('psa_checked_at', '<', o.readBefore)]))
    const open = await due(this.ticketQuery())
      .where('status', '=', 'open')
      .orderBy('psa_checked_at')
      .orderBy('id')
      .limit(o.limit)
      .execute()
    if (open.length >= o.limit) return open.map(toSynced)
    const minutes = Math.min(closedLookBackMaxMinutes, await this.longestReopenWindow(partnerId))
    const closedSince = new Date(o.now.getTime() - minutes * 60_000).toISOString()
    // By closing time (migration 0030's index), so old closed tickets are never scanned.
    const closed = await due(this.ticketQuery())
      .where('status', '=', 'closed')
      .where('closed_at', '>=', closedSince)
      .where('psa_deleted_at', 'is', null)
      .orderBy('closed_at')
      .orderBy('id')
      .limit(o.limit - open.length)
      .execute()
    return [...open, ...closed].map(toSynced)
  }

  /** The longest reopen window (minutes) among the partner's integrations; 0 without any. */
  private async longestReopenWindow(partnerId: string): Promise<number> {
    const r = await this.db
      .selectFrom('integrations')
      .select((eb) => eb.fn.max('reopen_window_minutes').as('minutes'))
      .where('partner_id', '=', partnerId)
      .executeTakeFirst()
    return Number(r?.minutes ?? 0)
  }

  private ticketQuery() {
    return this.db.selectFrom('tickets').select(syncedColumns)
  }
}

declare module '../platform/db/store.js' {
  interface Repositories {
    /** Two-way sync's poll: the tickets its next page reads back. */
    psaPoll: PollRepository
  }
}
defineRepository('psaPoll', (kysely) => new PollRepository(kysely))
