// The sandbox PSA's own storage, in the service's database: its tickets, their notes and its fault
// switch. It is the sandbox's "client": what a real PSA keeps on its side, the sandbox keeps here.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../../platform/db/schema.js'
import { faultOf, insertTicket, nextNumber } from './statements.js'
import type { SandboxTicketsTable } from './tables.js'

export interface SandboxNote {
  text: string
  at: string
}

export interface SandboxTicket {
  id: string
  companyId: string
  board: string | null
  priority: string | null
  type: string | null
  status: string
  summary: string
  description: string
  createdAt: string
  updatedAt: string
  closedAt: string | null
}

export const sandboxFaultModes = ['error', 'timeout', 'rate-limited', 'defect'] as const
export type SandboxFaultMode = (typeof sandboxFaultModes)[number]
export const sandboxOperations = ['create', 'append', 'close', 'lookup', 'usage'] as const
export type SandboxOperation = (typeof sandboxOperations)[number]

export interface SandboxFault {
  mode: SandboxFaultMode
  /** Empty: every operation. */
  operations: SandboxOperation[]
  /** How many more calls fail; null: until cleared. */
  remaining: number | null
}

function toTicket(r: Selectable<SandboxTicketsTable>): SandboxTicket {
  return {
    id: r.id,
    companyId: r.company_id,
    board: r.board,
    priority: r.priority,
    type: r.type,
    status: r.status,
    summary: r.summary,
    description: r.description,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    closedAt: r.closed_at,
  }
}

/** Runs writes in a transaction: the service's write batches (platform/db/write-batch.ts), or one of their own. */
export type SandboxWrites = <T>(work: (db: Kysely<Database>) => Promise<T>) => Promise<T>

/**
 * The caller's open transaction, when it has one: the ticket operations write their rows in it, so
 * they commit with the alert's outcome or not at all. Without it, each is a write of its own.
 */
export class SandboxStore {
  private readonly writes: SandboxWrites

  constructor(
    /** The connection (move.ts writes through it too). */
    readonly db: Kysely<Database>,
    writes?: SandboxWrites,
  ) {
    this.writes = writes ?? ((work) => db.transaction().execute(work))
  }

  /** Numbers the ticket and inserts it, in one transaction; answers its id (SBX-1001, ...). */
  create(partnerId: string, t: Omit<SandboxTicket, 'id'>, externalRef: string | null): Promise<string> {
    return this.writes(async (db) => {
      const id = `SBX-${await this.nextTicketNumber(db)}`
      await this.insert(partnerId, { ...t, id }, externalRef, db)
      return id
    })
  }

  async nextTicketNumber(db: Kysely<Database> = this.db): Promise<number> {
    const [r] = await nextNumber(db)
    if (!r) throw new Error('sandbox: the ticket counter answered no row')
    return Number(r.value)
  }

  async insert(
    partnerId: string,
    t: SandboxTicket,
    externalRef: string | null = null,
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    await insertTicket(db, {
      id: t.id,
      partner_id: partnerId,
      company_id: t.companyId,
      board: t.board,
      priority: t.priority,
      type: t.type,
      status: t.status,
      summary: t.summary,
      description: t.description,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
      closed_at: t.closedAt,
      external_ref: externalRef,
    })
  }

  /** The partner's ticket tagged with this correlationId (a create that may have been made before). */
  async findByRef(partnerId: string, externalRef: string): Promise<SandboxTicket | null> {
    const r = await this.db
      .selectFrom('sandbox_tickets')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .where('external_ref', '=', externalRef)
      .executeTakeFirst()
    return r ? toTicket(r) : null
  }

  async find(partnerId: string, id: string): Promise<SandboxTicket | null> {
    const r = await this.db
      .selectFrom('sandbox_tickets')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .where('id', '=', id)
      .executeTakeFirst()
    return r ? toTicket(r) : null
  }

  /** The partner's newest tickets with their notes, oldest note first. */
  async list(
    partnerId: string,
    limit: number,
    id?: string,
  ): Promise<(SandboxTicket & { notes: SandboxNote[] })[]> {
    let q = this.db.selectFrom('sandbox_tickets').selectAll().where('partner_id', '=', partnerId)
    if (id) q = q.where('id', '=', id)
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
    const notes = rows.length
      ? await this.db
          .selectFrom('sandbox_notes')
          .select(['ticket_id', 'text', 'created_at'])
          .where(
            'ticket_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('id')
          .execute()
      : []
    return rows.map((r) => ({
      ...toTicket(r),
      notes: notes.filter((n) => n.ticket_id === r.id).map((n) => ({ text: n.text, at: n.created_at })),
    }))
  }

  /** Appends a note; never rewrites the ticket, so concurrent notes are all kept. */
  async addNote(
    partnerId: string,
    ticketId: string,
    note: { id: string; text: string; at: string },
  ): Promise<void> {
    await this.writes(async (db) => {
      await db
        .insertInto('sandbox_notes')
        .values({
          id: note.id,
          partner_id: partnerId,
          ticket_id: ticketId,
          text: note.text,
          created_at: note.at,
        })
        .execute()
      await db
        .updateTable('sandbox_tickets')
        .set({ updated_at: note.at })
        .where('partner_id', '=', partnerId)
        .where('id', '=', ticketId)
        .execute()
    })
  }

  /** Closes the ticket with `status`; false when it was closed already. */
  async close(partnerId: string, id: string, status: string, now: string): Promise<boolean> {
    const r = await this.writes((db) =>
      db
        .updateTable('sandbox_tickets')
        .set({ status, updated_at: now, closed_at: now })
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .where('closed_at', 'is', null)
        .executeTakeFirst(),
    )
    return Number(r.numUpdatedRows) === 1
  }

  /** Sets the status; answers false when the ticket already had it (closing a closed ticket). */
  async setStatus(partnerId: string, id: string, status: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('sandbox_tickets')
      .set({ status, updated_at: now, closed_at: status === 'Closed' ? now : null })
      .where('partner_id', '=', partnerId)
      .where('id', '=', id)
      .where('status', '!=', status)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  /** Everything the sandbox holds for a partner, gone (a vendor's test partner deleted). */
  async clear(partnerId: string): Promise<void> {
    await this.writes(async (db) => {
      await db.deleteFrom('sandbox_notes').where('partner_id', '=', partnerId).execute()
      await db.deleteFrom('sandbox_tickets').where('partner_id', '=', partnerId).execute()
      await db.deleteFrom('sandbox_faults').where('partner_id', '=', partnerId).execute()
      await db.deleteFrom('sandbox_billing_lines').where('partner_id', '=', partnerId).execute()
    })
  }

  async setFault(partnerId: string, fault: SandboxFault | null, now: string): Promise<void> {
    await this.db.deleteFrom('sandbox_faults').where('partner_id', '=', partnerId).execute()
    if (!fault) return
    await this.db
      .insertInto('sandbox_faults')
      .values({
        partner_id: partnerId,
        mode: fault.mode,
        operations: JSON.stringify(fault.operations),
        remaining: fault.remaining,
        created_at: now,
      })
      .execute()
  }

  /** The quantities set on these billing lines (lines never set are not in the map). */
  async quantities(partnerId: string, lineIds: readonly string[]): Promise<Map<string, number>> {
    if (lineIds.length === 0) return new Map()
    const rows = await this.db
      .selectFrom('sandbox_billing_lines')
      .select(['line_id', 'quantity'])
      .where('partner_id', '=', partnerId)
      .where('line_id', 'in', lineIds)
      .execute()
    return new Map(rows.map((r) => [r.line_id, Number(r.quantity)]))
  }

  /** Sets a billing line's quantity; answers the one it had (0 for a line never set). */
  setQuantity(partnerId: string, lineId: string, quantity: number, now: string): Promise<number> {
    return this.writes(async (db) => {
      const before = await db
        .selectFrom('sandbox_billing_lines')
        .select('quantity')
        .where('partner_id', '=', partnerId)
        .where('line_id', '=', lineId)
        .executeTakeFirst()
      await db
        .insertInto('sandbox_billing_lines')
        .values({ partner_id: partnerId, line_id: lineId, quantity, updated_at: now })
        .onConflict((oc) => oc.columns(['partner_id', 'line_id']).doUpdateSet({ quantity, updated_at: now }))
        .execute()
      return before ? Number(before.quantity) : 0
    })
  }

  async getFault(partnerId: string): Promise<SandboxFault | null> {
    const [r] = await faultOf(this.db, partnerId)
    return r
      ? { mode: r.mode as SandboxFaultMode, operations: JSON.parse(r.operations), remaining: r.remaining }
      : null
  }

  /** Uses up one failure of a counted fault; the fault is gone when none remain. */
  async consumeFault(partnerId: string): Promise<void> {
    await this.writes(async (db) => {
      await db
        .updateTable('sandbox_faults')
        .set((eb) => ({ remaining: eb('remaining', '-', 1) }))
        .where('partner_id', '=', partnerId)
        .where('remaining', 'is not', null)
        .execute()
      await db
        .deleteFrom('sandbox_faults')
        .where('partner_id', '=', partnerId)
        .where('remaining', '<=', 0)
        .execute()
    })
  }
}
