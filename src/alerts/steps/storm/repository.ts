// Storm control's rows (docs/decision-table.md#storm): the recent creates it counts, the incidents
// folded into storm tickets, and the lines waiting for a storm ticket's next batched note. The storm
// ticket itself is a row of `tickets` (its open de-duplication key is the account's storm key).
import { type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely'
import type { Database } from '../../../platform/db/schema.js'
import { defineRepository } from '../../../platform/db/store.js'
import type { FoldedAlert } from './storm.js'
import type { StormAlertsTable } from './tables.js'

const toFolded = (r: Selectable<StormAlertsTable>): FoldedAlert => ({
  id: r.id,
  stormTicketId: r.storm_ticket_id,
  correlationId: r.correlation_id,
  dedupKey: r.dedup_key,
  title: r.title,
  status: r.status === 'resolved' ? 'resolved' : 'open',
})

export interface NewFold {
  id: string
  integrationId: string
  stormTicketId: string
  messageId: string
  correlationId: string | null
  dedupKey: string
  title: string
  now: string
}

export interface StormLine {
  id: string
  line: string
}

export class StormRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Tickets created since `since` for the account (or, with `accountId` null, the whole integration),
   * reservations included and storm tickets not.
   */
  async recentCreates(integrationId: string, accountId: string | null, since: string): Promise<number> {
    let q = this.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('integration_id', '=', integrationId)
      .where('created_at', '>=', since)
      .where('dedup_key', 'not like', 'storm:%')
    if (accountId !== null) q = q.where('account_id', '=', accountId)
    const row = await q.executeTakeFirst()
    return Number(row?.n ?? 0)
  }

  /**
   * The lock under which a create counts the recent creates of its account (or, `accountId` null, of
   * the whole integration) and reserves its ticket (alerts/executor/reservations.ts), held until the transaction
   * ends. On PostgreSQL a transaction-level advisory lock on the scope's key, tried without waiting:
   * false when another transaction holds it (the caller tries again once that one has committed), so
   * that batched writes of several processes never wait on one another in a cycle. SQLite writes one
   * transaction at a time: the transaction is the lock. Only inside a transaction.
   */
  async lockCreates(integrationId: string, accountId: string | null): Promise<boolean> {
    if (!(this.db.getExecutor().adapter instanceof PostgresAdapter)) return true
    const key = accountId === null ? `storm:${integrationId}` : `storm:${integrationId}:${accountId}`
    const { rows } = await sql<{
      locked: boolean
    }>`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as locked`.execute(this.db)
    return rows[0]?.locked === true
  }

  /** The latest incident folded with the vendor's own correlationId. */
  async foldedByCorrelation(integrationId: string, correlationId: string): Promise<FoldedAlert | null> {
    const r = await this.db
      .selectFrom('storm_alerts')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('correlation_id', '=', correlationId)
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst()
    return r ? toFolded(r) : null
  }

  /** The oldest incident still open in the storm ticket with this de-duplication key. */
  async openFoldedByKey(stormTicketId: string, dedupKey: string): Promise<FoldedAlert | null> {
    const r = await this.db
      .selectFrom('storm_alerts')
      .selectAll()
      .where('storm_ticket_id', '=', stormTicketId)
      .where('dedup_key', '=', dedupKey)
      .where('status', '=', 'open')
      .orderBy('received_at')
      .orderBy('id')
      .executeTakeFirst()
    return r ? toFolded(r) : null
  }

  async insertFold(f: NewFold): Promise<void> {
    await this.db
      .insertInto('storm_alerts')
      .values({
        id: f.id,
        integration_id: f.integrationId,
        storm_ticket_id: f.stormTicketId,
        message_id: f.messageId,
        correlation_id: f.correlationId,
        dedup_key: f.dedupKey,
        title: f.title,
        status: 'open',
        received_at: f.now,
        resolved_at: null,
      })
      .execute()
  }

  /** Resolves an open folded incident; false when it was resolved already. */
  async resolveFolded(id: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('storm_alerts')
      .set({ status: 'resolved', resolved_at: now })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  /**
   * Takes the storm ticket's row lock until the transaction ends (an update that changes nothing), so
   * that concurrent RESOLVEDs of its last incidents count the open ones one after the other on
   * PostgreSQL; SQLite writes one transaction at a time anyway.
   */
  async lockTicket(stormTicketId: string): Promise<void> {
    await this.db
      .updateTable('tickets')
      .set((eb) => ({ occurrence_count: eb.ref('occurrence_count') }))
      .where('id', '=', stormTicketId)
      .execute()
  }

  /** A line for the next note; `noted`: already carried (the storm ticket's description). */
  async addLine(
    stormTicketId: string,
    l: StormLine & { messageId: string; now: string },
    noted = false,
  ): Promise<void> {
    await this.db
      .insertInto('storm_lines')
      .values({
        id: l.id,
        storm_ticket_id: stormTicketId,
        message_id: l.messageId,
        line: l.line,
        created_at: l.now,
        noted_at: noted ? l.now : null,
      })
      .execute()
    // A line waiting marks its ticket: only such a ticket's RESOLVED looks for lines still waiting
    // (migration 0027_steps_in_use). Run it in the transaction that adds the line.
    if (!noted)
      await this.db
        .updateTable('tickets')
        .set({ batched_lines: 1 })
        .where('id', '=', stormTicketId)
        .where('batched_lines', '=', 0)
        .execute()
  }

  /** The lines waiting for the next note, oldest first. */
  async pendingLines(stormTicketId: string, limit: number): Promise<StormLine[]> {
    return this.db
      .selectFrom('storm_lines')
      .select(['id', 'line'])
      .where('storm_ticket_id', '=', stormTicketId)
      .where('noted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute()
  }

  async markNoted(ids: readonly string[], now: string): Promise<void> {
    if (ids.length === 0) return
    await this.db.updateTable('storm_lines').set({ noted_at: now }).where('id', 'in', ids).execute()
  }

  /** How many incidents the storm ticket has folded, and how many of them are still open. */
  async counts(stormTicketId: string): Promise<{ folded: number; open: number }> {
    const rows = await this.db
      .selectFrom('storm_alerts')
      .select(['status', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('storm_ticket_id', '=', stormTicketId)
      .groupBy('status')
      .execute()
    let folded = 0
    let open = 0
    for (const r of rows) {
      folded += Number(r.n)
      if (r.status === 'open') open += Number(r.n)
    }
    return { folded, open }
  }
}

declare module '../../../platform/db/store.js' {
  interface Repositories {
    /** Storm control's folded incidents and note lines (docs/decision-table.md#storm). */
    storms: StormRepository
  }
}
defineRepository('storms', (kysely) => new StormRepository(kysely))
