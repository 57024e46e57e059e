// Moving a ConnectWise ticket to another company, and board where one is given: a catch-all ticket
// whose account got mapped (docs/psa/connectwise.md, "Moving a ticket to another company"). One PATCH
// of /service/tickets/{id} with JSON-Patch operations, as a close sends its status: `company` as a
// reference (an id, or the company's identifier where the setting is not a number), and, where the
// board changes, `board` with the new board's default open status (statuses belong to a board, as
// ConnectWise's board screen resets them). The ticket is read first: one ConnectWise no longer has
// answers not-found.
import { fail, ok, type PsaResult, type TicketCall } from '../adapter.js'
import type { ConnectWiseClient } from './client.js'
import type { ConnectWiseLists, CwStatus, Ref } from './lists.js'

const refusal = (message: string) => ({ kind: 'rejected' as const, retryable: false, message })

export async function moveTicket(
  client: ConnectWiseClient,
  lists: ConnectWiseLists,
  ticketId: string,
  to: { companyId: string; board: string | null },
  call: TicketCall,
): Promise<PsaResult<null>> {
  if (!/^\d+$/.test(ticketId)) return fail(refusal(`ConnectWise ticket ids are numbers, not '${ticketId}'`))
  const got = await client.api('GET', `/service/tickets/${ticketId}`, call)
  if (!got.ok) return got
  const ticket = got.value.body as { board?: Ref } | null
  const company = /^\d+$/.test(to.companyId) ? { id: Number(to.companyId) } : { identifier: to.companyId }
  const ops: { op: 'replace'; path: string; value: unknown }[] = [
    { op: 'replace', path: 'company', value: company },
  ]
  if (to.board !== null) {
    const board = await lists.boardOf(to.board, call)
    if (!board.ok) return board
    if (board.value !== ticket?.board?.id) {
      const statuses = await lists.statusesOf(board.value, call)
      if (!statuses.ok) return statuses
      const status = openDefault(statuses.value)
      if (!status) return fail(refusal(`ConnectWise board '${to.board}' has no open status`))
      ops.push({ op: 'replace', path: 'board', value: { id: board.value } })
      ops.push({ op: 'replace', path: 'status', value: { id: status.id } })
    }
  }
  const patched = await client.api('PATCH', `/service/tickets/${ticketId}`, call, { body: ops })
  return patched.ok ? ok(null) : patched
}

/** The board's default status where it is open, else its first active open status. */
function openDefault(statuses: CwStatus[]): CwStatus | null {
  const open = statuses
    .filter((s) => s.closedStatus !== true && s.inactive !== true)
    .sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0))
  return open.find((s) => s.defaultFlag === true) ?? open[0] ?? null
}
