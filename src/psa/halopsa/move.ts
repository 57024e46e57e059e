// Moving a HaloPSA ticket to another client, and team where a board is given: a catch-all ticket whose
// account got mapped (docs/psa/halopsa.md, "Moving a ticket to another company"). POST /api/Tickets
// with an id updates the ticket (the same endpoint creates one without): [{id, client_id, site_id,
// team?}]. The site is the client's main site (what Halo gives a ticket created without one, as ours
// are), read from GET /api/Client/{id}; where the client names none, no site is sent and Halo keeps
// its own rule. The ticket is read first: one Halo no longer has answers not-found.
import { fail, ok, type PsaResult, type TicketCall } from '../adapter.js'
import { byIdOrName } from '../core/names.js'
import { readTicket } from './adopt.js'
import { firstOf, type HaloClient, type HaloItem } from './client.js'
import type { HaloLists } from './lists.js'

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

export async function moveTicket(
  client: HaloClient,
  lists: HaloLists,
  ticketId: string,
  to: { companyId: string; board: string | null },
  call: TicketCall,
): Promise<PsaResult<null>> {
  if (!/^\d+$/.test(ticketId)) return fail(refusal(`HaloPSA ticket ids are numbers, not '${ticketId}'`))
  if (!/^\d+$/.test(to.companyId))
    return fail(refusal(`HaloPSA client ids are numbers, not '${to.companyId}'`))
  const ticket = await readTicket(client, ticketId, call)
  if (!ticket.ok) return ticket
  const got = await client.api('GET', `/Client/${to.companyId}`, call)
  if (!got.ok) {
    // The client, not the ticket, is missing: a refusal, not the ticket's not-found.
    return got.failure.kind === 'not-found' ? fail(refusal(`HaloPSA has no client ${to.companyId}`)) : got
  }
  const site = firstOf(got.value.body, 'clients')?.main_site_id
  const body: HaloItem = { id: Number(ticketId), client_id: Number(to.companyId) }
  if (typeof site === 'number' && site > 0) body.site_id = site
  if (to.board !== null) {
    const teams = await lists.teamList(call)
    if (!teams.ok) return teams
    const team = byIdOrName(teams.value, to.board)
    if (!team) return fail(refusal(`HaloPSA has no team '${to.board}'`))
    // Halo takes a ticket's team by its name (its tickets have no team id field).
    body.team = team.name
  }
  const posted = await client.api('POST', '/Tickets', call, { body: [body] })
  return posted.ok ? ok(null) : posted
}
