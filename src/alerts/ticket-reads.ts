// Reading tickets, for the vendor (scoped to its integrations) and the partner (scoped to itself).
import type { Store } from '../db/store.js'
import { ApiError } from '../http/errors.js'
import { decodeCursor, page } from '../http/pagination.js'
import { eventView, historyShown, ticketView } from './views.js'

export interface TicketScope {
  partnerId?: string
  integrationIds?: string[]
}

export async function listTickets(
  store: Store,
  scope: TicketScope,
  q: { status?: 'open' | 'closed'; accountId?: string; cursor?: string; limit: number },
) {
  const rows = await store.tickets.list({
    ...scope,
    status: q.status,
    accountId: q.accountId,
    beforeId: decodeCursor(q.cursor),
    limit: q.limit + 1,
  })
  const { data, nextCursor } = page(rows, q.limit, (t) => t.id)
  return { data: data.map(ticketView), nextCursor }
}

export async function getTicket(
  store: Store,
  scope: TicketScope,
  correlationId: string,
  integrationId?: string,
) {
  const found = await store.tickets.findRecord(scope, correlationId, integrationId)
  const ticket = found[0]
  if (!ticket) throw new ApiError('TICKET_NOT_FOUND', `No ticket has correlationId '${correlationId}'.`)
  if (found.length > 1) {
    throw new ApiError(
      'CONFLICT',
      `correlationId '${correlationId}' names tickets in several integrations; pass integrationId.`,
    )
  }
  const { events, total } = await store.events.forCorrelation(
    ticket.integrationId,
    correlationId,
    historyShown,
  )
  return { ...ticketView(ticket), events: events.map(eventView), eventCount: total }
}
