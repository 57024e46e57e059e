// The sandbox PSA moves a ticket to another company (and board, where given): a catch-all ticket whose
// account got mapped (docs/decision-table.md#catch-all).
import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'

/** False: the partner's sandbox has no such ticket. */
export async function moveSandboxTicket(
  db: Kysely<Database>,
  partnerId: string,
  id: string,
  to: { companyId: string; board: string | null },
  now: string,
): Promise<boolean> {
  const r = await db
    .updateTable('sandbox_tickets')
    .set({ company_id: to.companyId, ...(to.board === null ? {} : { board: to.board }), updated_at: now })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}
