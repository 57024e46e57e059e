// The ticket record and event history as the APIs show them (docs/contract.md#ticket-record), shared by the
// vendor's ticket reads and the partner's.
import Type, { type Static } from 'typebox'
import type { TicketRecord } from '../../platform/core/types.js'
import { Nullable } from '../../platform/http/schemas.js'
import type { AuditEvent } from '../../webhooks/index.js'

export const TicketView = Type.Object({
  correlationId: Type.String(),
  integrationId: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  psaKind: Type.String(),
  psaTicketId: Nullable(Type.String()),
  accountId: Type.String(),
  productGroup: Type.String(),
  alertType: Type.String(),
  title: Type.String(),
  occurrenceCount: Type.Integer({ description: 'alerts folded into this ticket' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  closedAt: Nullable(Type.String({ format: 'date-time' })),
  closedBy: Nullable(
    Type.Union([Type.Literal('alertbridge'), Type.Literal('psa')], {
      description: 'alertbridge: a RESOLVED alert closed it; psa: someone closed or deleted it in the PSA',
    }),
  ),
  psaStatus: Nullable(Type.String({ description: 'the PSA status name as two-way sync last read it' })),
  psaDeleted: Type.Boolean({ description: 'the ticket was deleted in the PSA' }),
  mergedFrom: Nullable(
    Type.String({ description: 'the PSA ticket this one followed away from when the PSA merged it' }),
  ),
})
export type TicketView = Static<typeof TicketView>

export const EventView = Type.Object({
  messageId: Type.String(),
  integrationId: Type.String(),
  correlationId: Nullable(Type.String()),
  event: Type.String({ description: 'e.g. Ticket Created, Failed To Create Ticket, Ticket Not Found' }),
  status: Type.Union([Type.Literal('success'), Type.Literal('suppressed'), Type.Literal('failed')]),
  httpStatus: Type.Integer(),
  incidentStatus: Nullable(Type.String()),
  strategy: Type.Union([Type.Literal('sync'), Type.Literal('webhook'), Type.Literal('psa')], {
    description: 'sync or webhook: a vendor’s alert; psa: a change made in the PSA (docs/psa/sync.md)',
  }),
  detail: Nullable(Type.String()),
  test: Type.Boolean({
    description:
      'a test alert’s event (the vendor’s POST /api/vendor-api/test-alert, or the partner’s POST /api/partner/integrations/{id}/test-alert): its ticket’s title starts with [TEST]',
  }),
  createdAt: Type.String({ format: 'date-time' }),
})
export type EventView = Static<typeof EventView>

/**
 * A ticket's history is its newest 500 events (an alert storm appends one per alert), and how many there
 * are; the partner pages all of them with GET /api/partner/events?correlationId=
 * (docs/decisions/bounded-growth/nested-lists.md).
 */
export const historyShown = 500

export const TicketWithHistory = Type.Object({
  ...TicketView.properties,
  events: Type.Array(EventView, {
    description: `the operations on the ticket, oldest first: every one, or the newest ${historyShown} of more`,
  }),
  eventCount: Type.Integer({
    description: 'how many events the ticket has (older ones age out, see retention)',
  }),
})

export function ticketView(t: TicketRecord): TicketView {
  return {
    correlationId: t.correlationId,
    integrationId: t.integrationId,
    status: t.status === 'closed' ? 'closed' : 'open',
    psaKind: t.psaKind,
    psaTicketId: t.psaTicketId,
    accountId: t.accountId,
    productGroup: t.productGroup,
    alertType: t.alertType,
    title: t.title,
    occurrenceCount: t.occurrenceCount,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    closedAt: t.closedAt,
    closedBy: t.closedBy,
    psaStatus: t.psaStatus,
    psaDeleted: t.psaDeleted,
    mergedFrom: t.mergedFrom,
  }
}

export function eventView(e: AuditEvent): EventView {
  return {
    messageId: e.messageId,
    integrationId: e.integrationId,
    correlationId: e.correlationId,
    event: e.event,
    status: e.status,
    httpStatus: e.httpStatus,
    incidentStatus: e.incidentStatus,
    strategy: e.strategy,
    detail: e.detail,
    test: e.test === true,
    createdAt: e.createdAt,
  }
}
