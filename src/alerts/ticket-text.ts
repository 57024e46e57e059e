// What the PSA ticket and its notes say. Plain text: every PSA accepts it.
import type { Decision } from '../domain/decide.js'
import type { AlertFacts } from '../domain/types.js'
import type { NewPsaTicket } from '../psa/adapter.js'
import type { TicketDefaultsValue } from '../psa/settings.js'

/** The ticket a create asks the PSA for: the account mapping's board, else the rule's, else the
 * connection's default; priority, type and status from the rule, else the connection's defaults. */
export function newTicket(
  alert: AlertFacts,
  d: Extract<Decision, { kind: 'create' }>,
  defaults: TicketDefaultsValue,
  messageId: string,
): NewPsaTicket {
  return {
    companyId: d.mapping.psaCompanyId,
    board: d.mapping.board ?? d.rule.ticket.board ?? defaults.board ?? null,
    priority: d.rule.ticket.priority ?? defaults.priority ?? null,
    type: d.rule.ticket.type ?? defaults.type ?? null,
    status: d.rule.ticket.status ?? defaults.status ?? null,
    summary: alert.title,
    description: [
      ticketDescription(alert, d.correlationId, messageId),
      // The closed-ticket policy `new` (docs/decision-table.md#replace-closed): the ticket it replaces.
      ...(d.replaces
        ? [
            '',
            `Replaces the closed ticket ${d.replaces.psaTicketId ?? ''} (correlation ID ${d.replaces.correlationId}): the alert came back after it was closed${d.replaces.psaDeleted ? ' and deleted in the PSA' : ''}.`,
          ]
        : []),
    ].join('\n'),
  }
}

export function ticketDescription(alert: AlertFacts, correlationId: string, messageId: string): string {
  return [
    alert.summary || alert.title,
    '',
    `Product group: ${alert.productGroup}`,
    `Alert type: ${alert.alertType}`,
    `Account: ${alert.accountId}`,
    `Correlation ID: ${correlationId}`,
    `Message ID: ${messageId}`,
  ].join('\n')
}

export function noteText(alert: AlertFacts, messageId: string, occurrence: number | null): string {
  const heading =
    alert.incidentStatus === 'OPEN'
      ? `Repeated alert${occurrence ? ` (occurrence ${occurrence})` : ''}: ${alert.title}`
      : `${alert.incidentStatus === 'RESOLVED' ? 'Resolved' : 'Update'}: ${alert.title}`
  return [heading, '', alert.summary, '', `Message ID: ${messageId}`]
    .filter((l, i) => i !== 2 || l)
    .join('\n')
}
