// Reading tickets, for the vendor (scoped to its integrations) and the partner (scoped to itself).

import { page, readCursor } from '../../platform/core/cursor.js'
import { ok, refuse } from '../../platform/core/result.js'
import type { Store } from '../../platform/db/store.js'
import type { TicketQuery } from './repository.js'
import { eventView, historyShown, ticketView } from './views.js'

export interface TicketScope {
  partnerId?: string
  integrationIds?: string[]
  /** The vendor's reads: without a partner's test tickets (docs/partner-api.md#test-alerts). */
  vendor?: boolean
}

export async function listTickets(
  store: Store,
  scope: TicketScope,
  q: Omit<TicketQuery, 'partnerId' | 'integrationIds' | 'vendor' | 'beforeId'> & { cursor?: string },
) {
  const { cursor, limit, ...filters } = q
  const beforeId = readCursor(cursor)
  if (!beforeId.ok) return beforeId
  const rows = await store.tickets.list({ ...scope, ...filters, beforeId: beforeId.value, limit: limit + 1 })
  const { data, nextCursor } = page(rows, limit, (t) => t.id)
  return ok({ data: data.map(ticketView), nextCursor })
}

export async function getTicket(
  store: Store,
  scope: TicketScope,
  correlationId: string,
  integrationId?: string,
) {
  const found = await store.tickets.findRecord(scope, correlationId, integrationId)
  const ticket = found[0]
  if (!ticket) return refuse('TICKET_NOT_FOUND', `No ticket has correlationId '${correlationId}'.`)
  if (found.length > 1) {
    return refuse(
      'CONFLICT',
      `correlationId '${correlationId}' names tickets in several integrations; pass integrationId.`,
    )
  }
  const { events, total } = await store.events.forCorrelation(
    ticket.integrationId,
    correlationId,
    historyShown,
  )
  return ok({ ...ticketView(ticket), events: events.map(eventView), eventCount: total })
}
