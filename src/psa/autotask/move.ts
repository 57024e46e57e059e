// Moving an Autotask ticket to another company, and queue where a board is given: a catch-all ticket
// whose account got mapped (docs/psa/autotask.md, "Moving a ticket to another company"). The ticket is
// read first (Autotask answers a ticket it no longer has with no item: not-found), then one PATCH of
// /V1.0/Tickets with the id in the body, as a close sends its status: companyID, queueID where a board
// is given, and contactID and companyLocationID emptied where the ticket has them (a technician may
// have set them; Autotask refuses a contact or a location of another company). alertbridge sets
// neither on its own tickets.
import { fail, ok, type PsaResult, type TicketCall } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import type { AutotaskClient } from './client.js'
import { entries } from './plan.js'

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })
const isSet = (v: unknown) => v !== null && v !== undefined

export async function moveTicket(
  client: AutotaskClient,
  ticketId: string,
  to: { companyId: string; board: string | null },
  call: TicketCall,
): Promise<PsaResult<null>> {
  if (!/^\d+$/.test(ticketId)) return fail(refusal(`Autotask ticket ids are numbers, not '${ticketId}'`))
  if (!/^\d+$/.test(to.companyId))
    return fail(refusal(`Autotask company ids are numbers, not '${to.companyId}'`))
  const got = await client.api('GET', `Tickets/${ticketId}`, call)
  if (!got.ok) return got
  const item = (got.value.body as { item?: Record<string, unknown> | null } | null)?.item
  if (!item)
    return fail({ kind: 'not-found', retryable: false, message: `Autotask has no ticket ${ticketId}` })
  const body: Record<string, unknown> = { id: Number(ticketId), companyID: Number(to.companyId) }
  if (to.board !== null) {
    const fields = await client.picklists('Tickets', call)
    if (!fields.ok) return fields
    const queue = byIdOrName(entries(fields.value, 'queueID'), to.board)
    if (!queue) return fail(refusal(`Autotask has no queue '${to.board}'`))
    body.queueID = Number(queue.id)
  }
  if (isSet(item.contactID)) body.contactID = null
  if (isSet(item.companyLocationID)) body.companyLocationID = null
  const patched = await client.api('PATCH', 'Tickets', call, body)
  return patched.ok ? ok(null) : patched
}
